// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "profiles/ConnectionProfile.h"
#include "session/ProbeReport.h"
#include "ui/connect/SentinelOpener.h"

#include <QDialog>
#include <memory>
#include <optional>

class QHBoxLayout;
class QLabel;
class QLineEdit;
class QTabWidget;

namespace profiles {
class ProfileStore;
class SecretStore;
} // namespace profiles
namespace ssh {
class SshTunnel;
} // namespace ssh

namespace ui {

class ConnectionForm;
class ConnectionTestArea;
class ProfileForm;
class ProfileListPanel;
class SentinelForm;
class TlsForm;
class TunnelOpener;

// Opens on the saved profiles (ProfileListPanel, left) and creates or edits one (right):
// server, user and password, TLS, environment label, release user, key schema. A URL pasted
// at the top fills the form; Enter there fills, it never saves. Until the user picks a label
// the host decides it (profiles::defaultEnvironmentForHost). "Test" runs a ConnectionProbe in
// the background and lists what it found. Save validates, writes the profile to the
// ProfileStore and the passwords to the SecretStore (the note under the password field says
// where they will be kept) and stays open; Connect saves, then closes for the session. With
// a bastion (the SSH tab), Connect first opens the tunnel (TunnelOpener: progress, host
// keys, passphrase) and closes only once it is up: a failure leaves the form open to fix.
// Behind Sentinel (the Sentinel tab), Connect then asks the sentinels for the primary
// (SentinelOpener) and closes only once one is confirmed.
// Each tab is a ProfileForm (ui/connect/); what spans them stays here: the URL, the problems
// shown at their fields, the list and saving.
class ConnectionDialog : public QDialog
{
    Q_OBJECT
public:
    // Neither store is owned; both must outlive the dialog.
    ConnectionDialog(profiles::ProfileStore &profiles, profiles::SecretStore &secrets,
                     QWidget *parent = nullptr);
    ~ConnectionDialog() override;

    // Edits an existing profile: saving under another name renames it. Its passwords are
    // looked up in the SecretStore.
    void setProfile(const profiles::ConnectionProfile &profile);
    // The profile as the form says now (not validated).
    profiles::ConnectionProfile profile() const;
    QString password() const;
    QString releasePassword() const;
    // The tunnel Connect opened for a profile with a bastion (up), for the session; nullptr
    // for a direct connection.
    std::shared_ptr<ssh::SshTunnel> tunnel() const { return m_tunnel; }
    QString sentinelPassword() const;
    // The primary Connect found behind Sentinel, for the session; nullopt without Sentinel.
    std::optional<FoundPrimary> foundPrimary() const { return m_found; }

    // Fills the form from a redis:// or rediss:// URL (a password goes to the password
    // field), or the Sentinel tab too from a redis-sentinel:// one. False, with the reason
    // shown under the URL field, when it cannot be read.
    bool fillFromUrl(const QString &url);

    // Runs the connection test for the form as it is; never blocks.
    void startTest();
    bool isTesting() const;

    // Validates, saves the profile and stores the passwords; false (the problems shown at
    // their fields) when it cannot be saved. The dialog stays open either way.
    bool save();
    void moveSecret(const QString &from, const QString &to);

public slots:
    void accept() override; // save(), then close to connect; stays open on a problem

protected:
    void keyPressEvent(QKeyEvent *event) override; // Enter never clicks Save

signals:
    void testFinished(const session::ProbeResult &result);
    void profileSaved(const profiles::ConnectionProfile &profile);

private:
    QWidget *buildUrlBox();
    QWidget *buildForm();
    QHBoxLayout *buildButtons();
    void buildProfileList();
    void updateStorageNote();
    void showProblems(const QList<profiles::ProfileProblem> &problems);
    void clearProblems();
    QWidget *fieldWidget(const QString &field) const;
    void removeProfile(const QString &name);                      // asks first
    void findPrimary(const profiles::ConnectionProfile &profile); // then closes to connect
    bool fillFromSentinelUrl(const QString &url);

    profiles::ProfileStore &m_profiles;
    profiles::SecretStore &m_secrets;
    QString m_previousName;
    profiles::LedgerSettings m_ledger; // of the profile loaded, kept as it is

    ProfileListPanel *m_list = nullptr;
    QLineEdit *m_url = nullptr;
    QLabel *m_urlError = nullptr;
    QTabWidget *m_tabs = nullptr;
    ConnectionForm *m_connection = nullptr;
    TlsForm *m_tls = nullptr;
    SentinelForm *m_sentinel = nullptr;
    QList<ProfileForm *> m_forms; // the tabs, in their order
    ConnectionTestArea *m_test = nullptr;
    TunnelOpener *m_opener = nullptr;
    std::shared_ptr<ssh::SshTunnel> m_tunnel;
    SentinelOpener *m_sentinelOpener = nullptr;
    std::optional<FoundPrimary> m_found;
    QLabel *m_problems = nullptr;
    QList<QWidget *> m_flagged;
};

} // namespace ui
