// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ssh/SshError.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace ui {

// Asks about an SSH host key the console does not trust yet: which host (the bastion or the
// jump host on the way), its key type and SHA256 fingerprint, and a field where the user
// pastes the fingerprint obtained another way (from the host's administrator). Trust is
// enabled only when the two are exactly the same.
//
// A changed key shows both fingerprints and a warning. On a production profile (unlabelled
// through a bastion is production) there is no way to trust it here: only Close, and what to
// do once the change is confirmed. Elsewhere pasting the new fingerprint is the typed
// confirmation that replaces the old key.
class HostKeyDialog : public QDialog
{
    Q_OBJECT
public:
    // `error` is a HostKeyUnknown or HostKeyChanged failure; `route` names the bastion (and
    // the jump host) as the profile writes them.
    HostKeyDialog(const ssh::SshError &error, const QString &route, bool production,
                  QWidget *parent = nullptr);

    // The fingerprint as pasted, once it matches the offered one (else empty).
    QString confirmedFingerprint() const;
    bool replacesChangedKey() const { return m_changed; }
    // False on a changed key of a production profile: nothing can be trusted from here.
    bool canTrust() const { return m_trust != nullptr; }

private:
    QWidget *buildFacts(const ssh::HostKeyInfo &key);
    QLabel *buildWarning(const ssh::HostKeyInfo &key, bool production);
    QWidget *buildConfirmation();
    void updateMatch();

    QString m_offered;
    bool m_changed = false;
    QLineEdit *m_pasted = nullptr;
    QLabel *m_match = nullptr;
    QPushButton *m_trust = nullptr;
};

} // namespace ui
