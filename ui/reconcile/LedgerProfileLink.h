// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

namespace profiles {
class ProfileStore;
class SecretStore;
} // namespace profiles

namespace ui {

class LedgerForm;

// The Reconcile tab's ledger as the session's saved profile keeps it (issue 32): restore()
// fills the form from the profile and, for PostgreSQL, the password from the keyring; save()
// writes the form's ledger into the profile and its password into the keyring (never into the
// settings file), and says exactly what was kept where. A connection that is not a saved
// profile (a URL, the demo) has nothing to restore and no Save button.
class LedgerProfileLink : public QObject
{
    Q_OBJECT
public:
    LedgerProfileLink(LedgerForm *form, profiles::ProfileStore &profiles,
                      profiles::SecretStore &secrets, const QString &profileName,
                      QObject *parent = nullptr);

    bool isSavedProfile() const;
    // True when the profile had a ledger to fill the form with.
    bool restore();
    void save();

signals:
    // What restore() or save() did, for the tab's note; `problem` when something was not kept.
    void noted(const QString &text, bool problem);

private:
    void keepPassword(bool postgres, const QString &password);

    LedgerForm *m_form;
    profiles::ProfileStore &m_profiles;
    profiles::SecretStore &m_secrets;
    QString m_name;
};

} // namespace ui
