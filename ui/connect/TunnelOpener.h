// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "profiles/ConnectionProfile.h"
#include "ssh/SshTunnel.h"

#include <QObject>
#include <QPointer>
#include <memory>

class QProgressDialog;

namespace ui {

// Opens the SSH tunnel a profile names, as a user expects it: a progress dialog with Cancel
// while ssh connects (the window keeps answering), then the questions a failure needs
// answered before starting again. An unknown host key (the bastion's or the jump host's) is
// trusted only after the user pasted the same fingerprint (HostKeyDialog); a changed one
// never on a production profile; an identity file the bastion refused gets its passphrase
// asked (PassphraseDialog, kept in the tunnel's memory). Any other failure is shown with what
// to do next, and nothing is opened. Exactly one of opened(), failed() or cancelled() ends a
// run.
class TunnelOpener : public QObject
{
    Q_OBJECT
public:
    // Its dialogs open over `owner`'s window (none: on their own); owned by `parent`, or by
    // `owner` when there is none.
    explicit TunnelOpener(QWidget *owner, QObject *parent = nullptr);
    ~TunnelOpener() override; // closes a tunnel still opening

    void open(const profiles::ConnectionProfile &profile);
    void cancel();
    bool isRunning() const { return m_tunnel != nullptr; }
    // For tests: the options every tunnel gets (the connect timeout follows the profile).
    void setOptions(const ssh::SshOptions &options) { m_options = options; }

signals:
    void opened(std::shared_ptr<ssh::SshTunnel> tunnel);
    void failed(const QString &why); // already shown to the user
    void cancelled();

private:
    void start(const QString &step);
    void onFailed(const ssh::SshError &error);
    void askToTrust(const ssh::SshError &error);
    void trust(const QString &fingerprint, bool replaceChanged);
    void askPassphrase();
    // Copies: `why` may come from the tunnel's own error, and the tunnel may go meanwhile.
    void fail(QString why, QString details = {});
    void finish(); // forgets the tunnel and hides the progress
    QWidget *window() const;

    QPointer<QWidget> m_owner;
    ssh::SshOptions m_options;
    std::shared_ptr<ssh::SshTunnel> m_tunnel;
    QProgressDialog *m_progress = nullptr;
    QString m_route;
    QString m_identityFile;
    bool m_production = true;
    int m_trusts = 0;      // host keys trusted in this run (a jump host, then the bastion)
    int m_passphrases = 0; // passphrases tried in this run
};

} // namespace ui
