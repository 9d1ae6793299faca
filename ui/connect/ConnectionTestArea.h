// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "profiles/ConnectionProfile.h"
#include "session/ProbeReport.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace session {
class ConnectionProbe;
} // namespace session
namespace ssh {
class SshTunnel;
} // namespace ssh
namespace sentinel {
class SentinelResolver;
}

namespace ui {

class TunnelOpener;

// "Test connection" under the connection dialog's tabs: runs a ConnectionProbe in the background
// and lists what it found, each doubtful finding marked. A profile with a bastion is tested
// through its tunnel, opened for the test (TunnelOpener: host keys and passphrase asked as
// when connecting) and closed after it: the test never tries the server directly. A profile
// behind Sentinel has its sentinels asked first, and the primary they name tested: never the
// host and port the form no longer uses.
class ConnectionTestArea : public QWidget
{
    Q_OBJECT
public:
    explicit ConnectionTestArea(QWidget *parent = nullptr);
    ~ConnectionTestArea() override; // closes a tunnel opened for a test

    // Never blocks (the tunnel's questions are dialogs of their own). releasePassword: nullopt when
    // the profile has no release user.
    void start(const profiles::ConnectionProfile &profile, const QString &password,
               const std::optional<QString> &releasePassword, const QString &sentinelPassword = {});
    bool isRunning() const;
    // Back to "Not tested yet.": a result belongs to the profile it was found for.
    void reset();

signals:
    // The button was pressed; the dialog knows the profile and its passwords.
    void testRequested();
    void finished(const session::ProbeResult &result);

private:
    void startProbe(const profiles::ConnectionProfile &profile, const QString &password,
                    const std::optional<QString> &releasePassword);
    // Behind Sentinel: the primary first, then the probe on it.
    void findPrimary(const profiles::ConnectionProfile &profile, const QString &password,
                     const std::optional<QString> &releasePassword,
                     const QString &sentinelPassword);
    void stopResolving();
    void showResult(const session::ProbeResult &result);
    void showNotTested(const QString &why);
    void closeTunnel();

    session::ConnectionProbe *m_probe = nullptr;
    TunnelOpener *m_opener = nullptr;
    std::shared_ptr<ssh::SshTunnel> m_tunnel; // open for the test running now
    sentinel::SentinelResolver *m_resolver = nullptr;
    QString m_sentinelFinding; // which sentinel named the primary tested
    QPushButton *m_button = nullptr;
    QLabel *m_status = nullptr;
    QTreeWidget *m_results = nullptr;
};

} // namespace ui
