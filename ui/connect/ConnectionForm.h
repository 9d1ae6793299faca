// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ProfileForm.h"

class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace profiles {
struct ParsedRedisUrl;
} // namespace profiles

namespace ui {

class EnvironmentField;

// The "Connection" tab: the profile's name and environment label, the server, the user and the
// optional release user with their passwords, and the timeout. The passwords are not part of the
// profile: the dialog keeps them in the SecretStore.
class ConnectionForm : public ProfileForm
{
    Q_OBJECT
public:
    explicit ConnectionForm(QWidget *parent = nullptr);

    // Clears both passwords: another profile's never stay in the fields.
    void load(const profiles::ConnectionProfile &profile) override;
    void apply(profiles::ConnectionProfile &profile) const override;

    QString password() const;
    QString releasePassword() const; // empty without a release user
    // A saved password arrives from the keyring after load(): what the user typed meanwhile wins.
    void offerPassword(const QString &password);
    void offerReleasePassword(const QString &password);

    // The server, the user and the password a URL names; the host names an unnamed profile.
    // `unnamedAs` names an unnamed profile instead of the host (a Sentinel URL's master name).
    void fillFromUrl(const profiles::ParsedRedisUrl &url, const QString &unnamedAs = {});
    // Where the passwords will be kept, under the password field.
    void setStorageNote(const QString &note);
    // The SSH tab has a bastion: the environment label's default and note follow it.
    void setThroughBastion(bool through);
    // The Sentinel tab names a master: the sentinels name the server, so host and port are
    // not asked, and the label's default follows.
    void setBehindSentinel(bool behind);
    // Names the form a copy of the profile it shows, the name selected to be edited.
    void nameAsCopy();

private:
    void addServerRows(QFormLayout *form);
    void addAccountRows(QFormLayout *form);

    QLineEdit *m_name = nullptr;
    EnvironmentField *m_environment = nullptr;
    QLineEdit *m_host = nullptr;
    QSpinBox *m_port = nullptr;
    QSpinBox *m_database = nullptr;
    QLineEdit *m_user = nullptr;
    QLineEdit *m_password = nullptr;
    QLabel *m_passwordNote = nullptr;
    QLineEdit *m_releaseUser = nullptr;
    QLineEdit *m_releasePassword = nullptr;
    QSpinBox *m_timeout = nullptr;
};

} // namespace ui
