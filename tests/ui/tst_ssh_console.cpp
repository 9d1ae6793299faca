// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChildWidget.h"
#include "DialogAnswer.h"
#include "RedisFixture.h"
#include "TrustedTunnel.h"
#include "profiles/ProfileStore.h"
#include "profiles/SecretStore.h"
#include "ssh/SshFiles.h"
#include "ui/ConnectionDialog.h"
#include "ui/ConsoleController.h"
#include "ui/MainWindow.h"
#include "ui/connect/HostKeyDialog.h"
#include "ui/connect/PassphraseDialog.h"
#include "ui/connect/SshForm.h"
#include "ui/connect/TunnelOpener.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <csignal>

using profiles::ConnectionProfile;
using testsupport::child;
using testsupport::Sshd;

namespace {
bool answers(ui::MainWindow *window)
{
    const auto pong = window->session().router().call({"PING"}, 3000);
    return pong.ok() && pong->bytes() == "PONG";
}

QString tunnelStatus(ui::MainWindow *window)
{
    return child<QLabel>(window, "tunnelStatus")->property("plainText").toString();
}

// The fingerprint with its last character changed: one a careless look would pass.
QString almost(const QString &fingerprint)
{
    QString wrong = fingerprint;
    wrong.back() = wrong.back() == QLatin1Char('A') ? QLatin1Char('B') : QLatin1Char('A');
    return wrong;
}

void closeMessageBoxes()
{
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *box = qobject_cast<QMessageBox *>(w); box && box->isVisible())
            box->close();
}
} // namespace

// The console's SSH side as a user meets it, against a real sshd and a real redis-server on
// loopback: the SSH tab, the unknown-key dialog (a wrong fingerprint cannot trust, the right
// one connects), a changed key on a production profile (nothing to trust), the passphrase of
// an encrypted key, the connection test through the tunnel, and a killed tunnel in the
// status bar brought back by Reconnect.
class TstSshConsole : public QObject
{
    Q_OBJECT

    Sshd m_sshd;
    testsupport::StandaloneRedis m_redis;
    QTemporaryDir m_dir;
    std::unique_ptr<QSettings> m_settings;

    ConnectionProfile profile(const QString &environment = QStringLiteral("test")) const
    {
        ConnectionProfile p;
        p.name = QStringLiteral("behind the bastion");
        p.host = QStringLiteral("127.0.0.1");
        p.port = m_redis.port();
        p.environment = environment;
        p.ssh.bastion = QStringLiteral("%1@127.0.0.1:%2").arg(Sshd::user()).arg(m_sshd.port());
        p.ssh.identityFile = m_sshd.clientKey();
        p.timeoutMs = 3000;
        return p;
    }

    bool forwardedToRedis() const
    {
        return m_sshd.log().contains(
            QStringLiteral("target 127.0.0.1 port %1").arg(m_redis.port()));
    }

    std::shared_ptr<ssh::SshTunnel> trusted()
    {
        return testsupport::trustedTunnel<std::shared_ptr<ssh::SshTunnel>>(
            m_sshd, ssh::defaultKnownHostsFile());
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_settings = std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("console.ini")),
                                                 QSettings::IniFormat);
        QVERIFY2(m_sshd.start(), qPrintable(m_sshd.errorString()));
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        qputenv("INVENTORY_SSH_ASKPASS", INVENTORY_SSH_ASKPASS_PATH);
    }

    // Every test starts with a console that has trusted no host key.
    void init() { QFile::remove(ssh::defaultKnownHostsFile()); }
    void cleanup() { closeMessageBoxes(); }

    void sshTabRoundTripsAProfileAndNamesItsProblems()
    {
        profiles::ProfileStore store(m_settings.get());
        profiles::SecretStore secrets(profiles::SecretStore::Mode::SessionOnly);
        ui::ConnectionDialog dialog(store, secrets);
        ConnectionProfile p = profile();
        p.ssh.jump = QStringLiteral("jumper@127.0.0.2:2200");
        p.ssh.useSshConfig = true;
        dialog.setProfile(p);
        QVERIFY(dialog.save());
        const auto saved = store.find(p.name);
        QVERIFY(saved);
        QCOMPARE(saved->ssh.bastion, p.ssh.bastion);
        QCOMPARE(saved->ssh.jump, p.ssh.jump);
        QCOMPARE(saved->ssh.identityFile, p.ssh.identityFile);
        QVERIFY(saved->ssh.useSshConfig);
        dialog.setProfile(ConnectionProfile{});
        QVERIFY(dialog.profile().ssh.bastion.isEmpty());
        dialog.setProfile(*saved);
        QCOMPARE(dialog.profile().ssh.jump, p.ssh.jump);
        QVERIFY(child<QCheckBox>(&dialog, "sshUseConfig")->isChecked());

        // Unlabelled behind a bastion, the form shows what the session will be: production,
        // not the loopback host's "local".
        dialog.setProfile(profile(QString()));
        QCOMPARE(child<QComboBox>(&dialog, "environmentCombo")->currentData().toString(),
                 QStringLiteral("production"));
        QVERIFY(dialog.profile().environment.isEmpty()); // still unlabelled when saved

        // An option disguised as a host is named under the field as it is typed, and saving
        // is refused with the SSH tab shown.
        auto *bastion = child<QLineEdit>(&dialog, "sshBastionEdit");
        bastion->setText(QStringLiteral("-oProxyCommand=touch"));
        QVERIFY(child<QLabel>(&dialog, "sshBastionEditNote")->text().contains("bastion"));
        QVERIFY(!dialog.save());
        auto *tabs = child<QTabWidget>(&dialog, "profileTabs");
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("SSH"));
        QVERIFY(child<QLabel>(&dialog, "problems")->text().contains("SSH"));
        QVERIFY(!bastion->styleSheet().isEmpty());
    }

    void unknownKeyIsTrustedOnlyOnTheSameFingerprint()
    {
        profiles::ProfileStore store(m_settings.get());
        profiles::SecretStore secrets(profiles::SecretStore::Mode::SessionOnly);
        ui::ConnectionDialog dialog(store, secrets);
        dialog.setProfile(profile());
        dialog.show();
        const QString right = m_sshd.hostKeyFingerprint();
        bool asked = false;
        testsupport::answerNextDialog<ui::HostKeyDialog>(
            QStringLiteral("trustButton"), [&](ui::HostKeyDialog *d) {
                asked = true;
                QCOMPARE(child<QLabel>(d, "offeredFingerprint")->text(), right);
                QVERIFY(child<QLabel>(d, "hostKeyHost")
                            ->text()
                            .contains(QString::number(m_sshd.port())));
                QVERIFY(!child<QLabel>(d, "hostKeyType")->text().isEmpty());
                auto *paste = child<QLineEdit>(d, "fingerprintEdit");
                auto *trust = child<QPushButton>(d, "trustButton");
                QVERIFY(!trust->isEnabled());
                for (const QString &wrong : {almost(right), right.toLower(), right.left(30)}) {
                    paste->setText(wrong);
                    QVERIFY(!trust->isEnabled());
                }
                paste->setText(QStringLiteral("  %1 ").arg(right)); // as pasted from a mail
                QVERIFY(trust->isEnabled());
            });
        QSignalSpy accepted(&dialog, &QDialog::accepted);
        child<QPushButton>(&dialog, "connectButton")->click();
        QTRY_COMPARE_WITH_TIMEOUT(accepted.count(), 1, 30000);
        QVERIFY(asked);
        const auto tunnel = dialog.tunnel();
        QVERIFY(tunnel && tunnel->state() == ssh::SshTunnel::State::Up);
        QFile known(ssh::defaultKnownHostsFile());
        QVERIFY(known.open(QIODevice::ReadOnly));
        QVERIFY(known.readAll().contains(QString::number(m_sshd.port()).toLatin1()));

        // The session answers through the tunnel: sshd forwarded a connection to the server.
        ui::ConsoleController controller;
        ui::MainWindow *window =
            controller.openSession(dialog.profile(), dialog.password(), {}, 0, tunnel);
        QVERIFY(window);
        QTRY_COMPARE_WITH_TIMEOUT(window->client().state(), redis::ConnectionState::Ready, 15000);
        QVERIFY(answers(window));
        QVERIFY(forwardedToRedis());
        QCOMPARE(tunnelStatus(window), QStringLiteral("via SSH %1").arg(profile().ssh.bastion));
    }

    void aWrongFingerprintTrustsNothing()
    {
        QWidget owner;
        ui::TunnelOpener opener(&owner);
        QSignalSpy failed(&opener, &ui::TunnelOpener::failed);
        QSignalSpy opened(&opener, &ui::TunnelOpener::opened);
        testsupport::answerNextDialog<ui::HostKeyDialog>(
            QStringLiteral("cancelButton"), [&](ui::HostKeyDialog *d) {
                child<QLineEdit>(d, "fingerprintEdit")
                    ->setText(almost(m_sshd.hostKeyFingerprint()));
                // Pressing Trust while it is disabled does nothing.
                child<QPushButton>(d, "trustButton")->click();
                QVERIFY(d->isVisible());
                QVERIFY(d->confirmedFingerprint().isEmpty());
            });
        opener.open(profile());
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QCOMPARE(opened.count(), 0);
        QVERIFY(!QFile::exists(ssh::defaultKnownHostsFile())
                || !QFile(ssh::defaultKnownHostsFile()).size());
    }

    void testConnectionGoesThroughTheTunnel()
    {
        QVERIFY(trusted());
        profiles::ProfileStore store(m_settings.get());
        profiles::SecretStore secrets(profiles::SecretStore::Mode::SessionOnly);
        ui::ConnectionDialog dialog(store, secrets);
        dialog.setProfile(profile());
        dialog.show();
        QSignalSpy tested(&dialog, &ui::ConnectionDialog::testFinished);
        child<QPushButton>(&dialog, "testButton")->click();
        QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 30000);
        const QString status = child<QLabel>(&dialog, "testStatus")->text();
        QVERIFY2(status.contains(QStringLiteral("through the SSH tunnel via")), qPrintable(status));
        auto *results = child<QTreeWidget>(&dialog, "testResults");
        QCOMPARE(results->topLevelItem(0)->text(0), QStringLiteral("Route"));
        QVERIFY(forwardedToRedis());
    }

    void anEncryptedKeyAsksItsPassphrase()
    {
        QVERIFY(trusted());
        ConnectionProfile p = profile();
        p.ssh.identityFile = m_sshd.encryptedClientKey();
        QWidget owner;
        ui::TunnelOpener opener(&owner);
        QSignalSpy opened(&opener, &ui::TunnelOpener::opened);
        testsupport::answerNextDialog<ui::PassphraseDialog>(
            QStringLiteral("okButton"), [](ui::PassphraseDialog *d) {
                child<QLineEdit>(d, "passphraseEdit")
                    ->setText(QString::fromUtf8(Sshd::encryptedKeyPassphrase()));
            });
        opener.open(p);
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000);
        const auto tunnel = opened.first().first().value<std::shared_ptr<ssh::SshTunnel>>();
        QVERIFY(tunnel && tunnel->state() == ssh::SshTunnel::State::Up);
        tunnel->close();
    }

    void aChangedKeyOnProductionOffersNoTrust()
    {
        QVERIFY(trusted());
        const QString before = m_sshd.hostKeyFingerprint();
        QVERIFY2(m_sshd.restart(true), qPrintable(m_sshd.errorString()));
        const QString now = m_sshd.hostKeyFingerprint();
        QVERIFY(now != before);
        QWidget owner;
        ui::TunnelOpener opener(&owner);
        QSignalSpy failed(&opener, &ui::TunnelOpener::failed);
        bool asked = false;
        testsupport::answerNextDialog<ui::HostKeyDialog>(
            QStringLiteral("trustButton"), [&](ui::HostKeyDialog *d) {
                asked = true;
                QVERIFY(!d->canTrust());
                QVERIFY(!d->findChild<QPushButton *>(QStringLiteral("trustButton")));
                QVERIFY(!d->findChild<QLineEdit *>(QStringLiteral("fingerprintEdit")));
                QCOMPARE(child<QLabel>(d, "offeredFingerprint")->text(), now);
                QCOMPARE(child<QLabel>(d, "knownFingerprint")->text(), before);
                QVERIFY(child<QLabel>(d, "hostKeyWarning")->text().contains("production"));
            });
        opener.open(profile(QString())); // unlabelled behind a bastion: production
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QVERIFY(asked);
        QFile known(ssh::defaultKnownHostsFile());
        QVERIFY(known.open(QIODevice::ReadOnly));
        const QByteArray kept = known.readAll();
        known.close();

        // A test profile may replace it, once the new fingerprint is pasted.
        QSignalSpy opened(&opener, &ui::TunnelOpener::opened);
        testsupport::answerNextDialog<ui::HostKeyDialog>(
            QStringLiteral("trustButton"), [&](ui::HostKeyDialog *d) {
                QVERIFY(d->canTrust() && d->replacesChangedKey());
                child<QLineEdit>(d, "fingerprintEdit")->setText(now);
            });
        opener.open(profile());
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000);
        QVERIFY(known.open(QIODevice::ReadOnly));
        QVERIFY(known.readAll() != kept);
        opened.first().first().value<std::shared_ptr<ssh::SshTunnel>>()->close();
    }

    void aSilentBastionCanBeCancelled()
    {
        // Accepts and never says a word: ssh waits for its banner, the window does not.
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost));
        ConnectionProfile p = profile();
        p.ssh.bastion =
            QStringLiteral("%1@127.0.0.1:%2").arg(Sshd::user()).arg(silent.serverPort());
        QWidget owner;
        ui::TunnelOpener opener(&owner);
        QSignalSpy cancelled(&opener, &ui::TunnelOpener::cancelled);
        QSignalSpy failed(&opener, &ui::TunnelOpener::failed);
        opener.open(p);
        QTRY_VERIFY_WITH_TIMEOUT(silent.hasPendingConnections(), 10000);
        auto *progress = child<QProgressDialog>(&owner, "sshProgress");
        QVERIFY(progress->isVisible());
        QVERIFY(progress->labelText().contains(p.ssh.bastion));
        auto *cancel = progress->findChild<QPushButton *>();
        QVERIFY(cancel);
        cancel->click(); // as the user does
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(!opener.isRunning());
        QCOMPARE(failed.count(), 0);
    }

    void anyOtherFailureSaysWhatToDoAndOpensNothing()
    {
        QTcpServer closed; // a port nothing listens on once it is closed again
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 port = closed.serverPort();
        closed.close();
        ConnectionProfile p = profile();
        p.ssh.bastion = QStringLiteral("%1@127.0.0.1:%2").arg(Sshd::user()).arg(port);
        QWidget owner;
        ui::TunnelOpener opener(&owner);
        QSignalSpy failed(&opener, &ui::TunnelOpener::failed);
        QSignalSpy opened(&opener, &ui::TunnelOpener::opened);
        opener.open(p);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QCOMPARE(opened.count(), 0);
        auto *box = child<QMessageBox>(&owner, "sshFailureBox");
        QVERIFY(box->isVisible());
        QVERIFY2(box->text().contains(p.ssh.bastion) && box->text().contains("nothing was"),
                 qPrintable(box->text()));
        QVERIFY(!box->informativeText().isEmpty());
    }

    void aKilledTunnelShowsInTheStatusBarAndReconnectBringsItBack()
    {
        const auto tunnel = trusted();
        QVERIFY(tunnel);
        ui::ConsoleController controller;
        ui::MainWindow *window = controller.openSession(profile(), {}, {}, 0, tunnel);
        QVERIFY(window);
        QTRY_COMPARE_WITH_TIMEOUT(window->client().state(), redis::ConnectionState::Ready, 15000);
        QVERIFY(::kill(pid_t(tunnel->masterPid()), SIGKILL) == 0);
        QTRY_VERIFY_WITH_TIMEOUT(tunnelStatus(window).contains(QStringLiteral("closed")), 15000);
        const QString down = tunnelStatus(window);
        QVERIFY2(down.contains(QStringLiteral("outcome unknown")) && down.contains("Ctrl+R"),
                 qPrintable(down));
        // The transport's retries through a dead tunnel are not news: not connected, and why.
        QCOMPARE(child<QLabel>(window, "connectionState")->property("plainText").toString(),
                 QStringLiteral("Not connected"));
        QVERIFY(!child<QWidget>(window, "serverVersion")->isVisible());
        QCOMPARE(window->reconnectAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R));

        // With the bastion gone too, Reconnect says the tunnel could not be opened again.
        m_sshd.stop();
        window->reconnectAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(tunnelStatus(window).contains(QStringLiteral("not reopened")),
                                 15000);
        QVERIFY2(m_sshd.restart(), qPrintable(m_sshd.errorString()));
        window->reconnectAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(tunnelStatus(window),
                                  QStringLiteral("via SSH %1").arg(profile().ssh.bastion), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(window->client().state(), redis::ConnectionState::Ready, 15000);
        // The connections reopen through it (each on its own backoff step until then).
        QTRY_VERIFY_WITH_TIMEOUT(answers(window), 15000);
    }
};

QTEST_MAIN(TstSshConsole)
#include "tst_ssh_console.moc"
