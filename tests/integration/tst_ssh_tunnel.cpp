// SPDX-License-Identifier: GPL-3.0-or-later
#include "Isolation.h"
#include "RedisFixture.h"
#include "TrustedTunnel.h"

#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/stat.h>

using namespace ssh;
using testsupport::Sshd;

// A real sshd (tests/support/SshdFixture) on loopback, a real redis-server behind it, and the
// system's ssh client: host keys refused and trusted, forwards, and dead tunnels.
class TstSshTunnel : public QObject
{
    Q_OBJECT

    Sshd m_sshd;
    testsupport::StandaloneRedis m_redis;
    QTemporaryDir m_data;

    QString knownHosts() const { return m_data.filePath(QStringLiteral("known_hosts")); }

    std::unique_ptr<SshTunnel> tunnel(const QString &identity = {})
    {
        return std::make_unique<SshTunnel>(testsupport::sshTarget(m_sshd, identity),
                                           testsupport::sshTestOptions(knownHosts()));
    }

    static int modeOf(const QString &path)
    {
        struct stat st = {};
        return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 07777) : -1;
    }

    static QByteArray ping(quint16 port)
    {
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, port);
        if (!s.waitForConnected(3000))
            return "connect failed: " + s.errorString().toUtf8();
        s.write("PING\r\n");
        QByteArray got;
        while (!got.contains('\n') && s.waitForReadyRead(3000))
            got += s.readAll();
        return got.trimmed();
    }

    // Up, with the fixture's host key trusted first.
    std::unique_ptr<SshTunnel> upTunnel()
    {
        return testsupport::trustedTunnel(m_sshd, knownHosts());
    }

    // After the bastion's key was refused as unknown: trusts the fixture's key, comes up and
    // answers PING through a forward, then closes. Callers check QTest::currentTestFailed().
    void trustBastionAndPing(SshTunnel &t)
    {
        const SshError e = t.error();
        QVERIFY2(e.kind == SshFailure::HostKeyUnknown, qPrintable(e.message.english + e.sshOutput));
        QVERIFY(!e.hostKey.onJumpHost);
        QCOMPARE(e.hostKey.host, QStringLiteral("[127.0.0.1]:%1").arg(m_sshd.port()));
        QCOMPARE(e.hostKey.offeredFingerprint, m_sshd.hostKeyFingerprint());
        const auto trusted = t.trustHostKey(m_sshd.hostKeyFingerprint());
        QVERIFY2(trusted.ok(),
                 qPrintable(trusted.ok() ? QString() : trusted.error().message.english));
        t.start();
        QVERIFY2(t.waitUntilSettled(20000),
                 qPrintable(t.error().message.english + t.error().sshOutput));
        const auto port = t.forward(QStringLiteral("127.0.0.1"), m_redis.port());
        QVERIFY(port.ok());
        QCOMPARE(ping(port.value()), QByteArray("+PONG"));
        t.close();
    }

private slots:
    void initTestCase()
    {
        INVENTORY_REQUIRE_ISOLATION();
        QVERIFY(m_data.isValid());
        QVERIFY2(m_sshd.start(), qPrintable(m_sshd.errorString()));
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        QVERIFY(!m_sshd.hostKeyFingerprint().isEmpty());
    }

    void init() { QFile::remove(knownHosts()); }

    void unknownHostKeyIsRefusedWithItsFingerprint()
    {
        auto t = tunnel();
        QSignalSpy failed(t.get(), &SshTunnel::failed);
        t->start();
        QVERIFY(!t->waitUntilSettled(20000));
        QCOMPARE(failed.size(), 1);
        const SshError e = t->error();
        QVERIFY2(e.kind == SshFailure::HostKeyUnknown, qPrintable(e.message.english + e.sshOutput));
        QCOMPARE(e.hostKey.offeredFingerprint, m_sshd.hostKeyFingerprint());
        QCOMPARE(e.hostKey.keyType, QStringLiteral("ssh-ed25519"));
        QCOMPARE(e.hostKey.host, QStringLiteral("[127.0.0.1]:%1").arg(m_sshd.port()));
        QVERIFY(e.message.english.contains(m_sshd.hostKeyFingerprint()));
        QVERIFY(!QFile::exists(knownHosts()));
        QCOMPARE(t->state(), SshTunnel::State::Failed);
    }

    void trustWithAWrongFingerprintWritesNothing()
    {
        auto t = tunnel();
        t->start();
        QVERIFY(!t->waitUntilSettled(20000));
        QCOMPARE(t->error().kind, SshFailure::HostKeyUnknown);
        // Another key's fingerprint: well formed, but not what the host offers.
        const QString other =
            testsupport::keygenFingerprint(m_sshd.clientKey() + QStringLiteral(".pub"));
        QVERIFY(isSha256Fingerprint(other));
        auto trusted = t->trustHostKey(other);
        QVERIFY(!trusted);
        QCOMPARE(trusted.error().kind, SshFailure::TrustRefused);
        QCOMPARE(trusted.error().hostKey.offeredFingerprint, m_sshd.hostKeyFingerprint());
        QVERIFY(trusted.error().message.english.contains(other));
        QVERIFY(!QFile::exists(knownHosts()));
        // Not a fingerprint at all; a prefix of the right one is not it either.
        QCOMPARE(t->trustHostKey(QStringLiteral("yes")).error().kind, SshFailure::TrustRefused);
        QVERIFY(!t->trustHostKey(m_sshd.hostKeyFingerprint().chopped(1)));
        QVERIFY(!t->trustHostKey(m_sshd.hostKeyFingerprint().toLower()));
        QVERIFY(!QFile::exists(knownHosts()));
    }

    void trustedKeyIsWrittenPrivatelyAndTheMasterComesUp()
    {
        auto t = tunnel();
        t->start();
        QVERIFY(!t->waitUntilSettled(20000));
        QCOMPARE(t->error().kind, SshFailure::HostKeyUnknown);
        const auto trusted = t->trustHostKey(m_sshd.hostKeyFingerprint());
        QVERIFY2(trusted.ok(),
                 qPrintable(trusted.ok() ? QString() : trusted.error().message.english));
        QCOMPARE(modeOf(knownHosts()), 0600);
        QFile kh(knownHosts());
        QVERIFY(kh.open(QIODevice::ReadOnly));
        const QByteArray line = kh.readAll();
        QVERIFY2(line.startsWith(
                     QStringLiteral("[127.0.0.1]:%1 ssh-ed25519 ").arg(m_sshd.port()).toUtf8()),
                 line.constData());
        QCOMPARE(line.count('\n'), 1);

        QSignalSpy established(t.get(), &SshTunnel::established);
        t->start();
        QVERIFY2(t->waitUntilSettled(20000), qPrintable(t->error().message.english));
        QCOMPARE(established.size(), 1);
        QCOMPARE(t->state(), SshTunnel::State::Up);
        QCOMPARE(modeOf(t->runtimeDirectory()), 0700);
        QVERIFY(privateDirectoryProblem(t->runtimeDirectory()).isEmpty());
        QVERIFY(t->controlPath().startsWith(t->runtimeDirectory() + QLatin1Char('/')));
        QCOMPARE(modeOf(t->runtimeDirectory() + QStringLiteral("/ssh_config")), 0600);
        // Trusting again (the tunnel is up) changes nothing.
        QVERIFY(!t->trustHostKey(m_sshd.hostKeyFingerprint()));
    }

    void forwardAnswersPingThroughTheTunnel()
    {
        auto t = upTunnel();
        QVERIFY(t);
        const auto port = t->forward(QStringLiteral("127.0.0.1"), m_redis.port());
        QVERIFY2(port.ok(), qPrintable(port.ok() ? QString() : port.error().message.english));
        QVERIFY(port.value() != m_redis.port());
        QCOMPARE(ping(port.value()), QByteArray("+PONG"));
        // The same node gives the same port; a second node another one. (A second server, not
        // "localhost": the bastion would resolve that name, and a fresh root may have no
        // /etc/hosts entry for it, so the lookup would leave for a resolver.)
        QCOMPARE(t->forward(QStringLiteral("127.0.0.1"), m_redis.port()).value(), port.value());
        testsupport::StandaloneRedis second;
        QVERIFY2(second.start(), qPrintable(second.errorString()));
        const auto other = t->forward(QStringLiteral("127.0.0.1"), second.port());
        QVERIFY(other.ok());
        QVERIFY(other.value() != port.value());
        QCOMPARE(ping(other.value()), QByteArray("+PONG"));
        // Hosts ssh would read as options are refused before ssh runs.
        QCOMPARE(t->forward(QStringLiteral("-oProxyCommand=x"), 1).error().kind,
                 SshFailure::ForwardRefused);
        t->close();
        QCOMPARE(t->state(), SshTunnel::State::Closed);
        QVERIFY(!QFile::exists(t->controlPath()));
        QVERIFY(ping(port.value()).startsWith("connect failed"));
    }

    // Once up, the master runs one session (`true`) on the bastion: sshd switches Nagle's
    // algorithm off on a connection only when it runs a session there, and without that each
    // forwarded reply of more than one packet waits for a delayed ACK (scripts/bench ssh: a
    // 1M-key scan 11-16x slower than directly; 1.27x with it).
    void theMasterRunsOneSessionSoThatSshdSendsWithoutDelay()
    {
        auto t = upTunnel();
        QVERIFY(t);
        QTRY_VERIFY_WITH_TIMEOUT(
            m_sshd.fullLog().contains(QStringLiteral("Starting session: command")), 5000);
        t->close();
    }

    // A node that does not answer (down, or not there) closes that connection only: the
    // tunnel and its other forwards stay up.
    void forwardToADeadNodeLeavesTheTunnelUp()
    {
        auto t = upTunnel();
        QVERIFY(t);
        QSignalSpy died(t.get(), &SshTunnel::died);
        const auto dead =
            t->forward(QStringLiteral("127.0.0.1"), demo::LocalRedisServer::freePort());
        QVERIFY2(dead.ok(), qPrintable(dead.ok() ? QString() : dead.error().message.english));
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, dead.value());
        QVERIFY(s.waitForConnected(3000)); // the local end is ssh's
        s.write("PING\r\n");
        QVERIFY(s.state() == QAbstractSocket::UnconnectedState || s.waitForDisconnected(5000));
        QVERIFY(!died.wait(1500));
        QCOMPARE(t->state(), SshTunnel::State::Up);
        const auto live = t->forward(QStringLiteral("127.0.0.1"), m_redis.port());
        QVERIFY(live.ok());
        QCOMPARE(ping(live.value()), QByteArray("+PONG"));
    }

    void noSecretOrKeyMaterialInArgv()
    {
        auto t = upTunnel();
        QVERIFY(t);
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(t->masterPid()));
        QVERIFY(cmdline.open(QIODevice::ReadOnly));
        const QList<QByteArray> argv = cmdline.readAll().split('\0');
        QFile key(m_sshd.clientKey());
        QVERIFY(key.open(QIODevice::ReadOnly));
        const QList<QByteArray> keyLines = key.readAll().split('\n');
        QVERIFY(keyLines.size() > 3);
        const QByteArray joined = argv.join(' ');
        for (const QByteArray &keyLine : keyLines)
            if (keyLine.size() > 20)
                QVERIFY(!joined.contains(keyLine));
        QVERIFY(!joined.contains("PRIVATE KEY"));
        QVERIFY(!joined.contains("ProxyCommand"));
        // The destination comes after "--": nothing after it is an option.
        const qsizetype dashes = argv.indexOf("--");
        QVERIFY(dashes > 0);
        QCOMPARE(argv.value(dashes + 1), QByteArray("127.0.0.1"));
        // The generated configuration names files; it holds no key either.
        QFile config(t->runtimeDirectory() + QStringLiteral("/ssh_config"));
        QVERIFY(config.open(QIODevice::ReadOnly));
        const QByteArray configText = config.readAll();
        QVERIFY(!configText.contains("PRIVATE KEY"));
        QVERIFY(configText.contains("StrictHostKeyChecking yes"));
        QVERIFY(configText.contains("BatchMode yes"));
    }

    void killedMasterIsReportedAsTunnelDied()
    {
        auto t = upTunnel();
        QVERIFY(t);
        QSignalSpy died(t.get(), &SshTunnel::died);
        QCOMPARE(::kill(pid_t(t->masterPid()), SIGKILL), 0);
        QVERIFY(died.wait(10000));
        QCOMPARE(died.size(), 1);
        QCOMPARE(died.first().first().value<SshError>().kind, SshFailure::TunnelDied);
        QCOMPARE(t->error().kind, SshFailure::TunnelDied);
        QVERIFY(!t->forward(QStringLiteral("127.0.0.1"), m_redis.port()));
        // Reconnect opens it again.
        t->start();
        QVERIFY2(t->waitUntilSettled(20000), qPrintable(t->error().message.english));
    }

    void killedSshdIsReportedAsTunnelDied()
    {
        auto t = upTunnel();
        QVERIFY(t);
        const auto port = t->forward(QStringLiteral("127.0.0.1"), m_redis.port());
        QVERIFY(port.ok());
        QSignalSpy died(t.get(), &SshTunnel::died);
        m_sshd.kill();
        QVERIFY(died.wait(15000));
        QCOMPARE(t->error().kind, SshFailure::TunnelDied);
        QVERIFY2(m_sshd.restart(), qPrintable(m_sshd.errorString()));
    }

    void wrongKeyIsAuthenticationRefused()
    {
        auto t = upTunnel(); // trusts the host key
        QVERIFY(t);
        t->close();
        auto stranger = tunnel(m_sshd.otherClientKey());
        stranger->start();
        QVERIFY(!stranger->waitUntilSettled(20000));
        QVERIFY2(stranger->error().kind == SshFailure::AuthenticationRefused,
                 qPrintable(stranger->error().message.english + stranger->error().sshOutput));
    }

    void closedPortIsBastionRefused()
    {
        SshOptions options;
        options.knownHostsFile = knownHosts();
        const auto target =
            parseTarget({QStringLiteral("u@127.0.0.1:%1").arg(demo::LocalRedisServer::freePort()),
                         QString(), QString(), false});
        QVERIFY(target.ok());
        SshTunnel t(target.value(), options);
        t.start();
        QVERIFY(!t.waitUntilSettled(20000));
        QVERIFY2(t.error().kind == SshFailure::BastionRefused,
                 qPrintable(t.error().message.english + t.error().sshOutput));
    }

    // Last: it replaces the fixture's host key.
    void changedHostKeyIsRefusedWithBothFingerprints()
    {
        auto t = upTunnel();
        QVERIFY(t);
        t->close();
        const QString before = m_sshd.hostKeyFingerprint();
        QVERIFY2(m_sshd.restart(true), qPrintable(m_sshd.errorString()));
        const QString after = m_sshd.hostKeyFingerprint();
        QVERIFY(after != before);
        QFile kh(knownHosts());
        QVERIFY(kh.open(QIODevice::ReadOnly));
        const QByteArray trusted = kh.readAll();
        kh.close();

        t->start();
        QVERIFY(!t->waitUntilSettled(20000));
        const SshError e = t->error();
        QVERIFY2(e.kind == SshFailure::HostKeyChanged, qPrintable(e.message.english + e.sshOutput));
        QCOMPARE(e.hostKey.knownFingerprint, before);
        QCOMPARE(e.hostKey.offeredFingerprint, after);
        QVERIFY(e.message.english.contains(before));
        QVERIFY(e.message.english.contains(after));
        // A profile that does not allow replacing a changed key cannot trust it.
        const auto refused = t->trustHostKey(after);
        QVERIFY(!refused);
        QCOMPARE(refused.error().kind, SshFailure::TrustRefused);
        QVERIFY(kh.open(QIODevice::ReadOnly));
        QCOMPARE(kh.readAll(), trusted);
        kh.close();
        // One that does replaces the old line (and only with the exact new fingerprint).
        QVERIFY(!t->trustHostKey(before, SshTunnel::TrustMode::ReplaceChanged));
        const auto replaced = t->trustHostKey(after, SshTunnel::TrustMode::ReplaceChanged);
        QVERIFY2(replaced.ok(),
                 qPrintable(replaced.ok() ? QString() : replaced.error().message.english));
        QVERIFY(kh.open(QIODevice::ReadOnly));
        const QByteArray now = kh.readAll();
        QCOMPARE(now.count('\n'), 1);
        QVERIFY(now != trusted);
        t->start();
        QVERIFY2(t->waitUntilSettled(20000), qPrintable(t->error().message.english));
    }

    // The bastion behind a jump host (a second sshd): both hops' keys are checked against the
    // console's known_hosts, the jump's first, and each is trusted on its own.
    void jumpHostIsCheckedAsStrictlyAsTheBastion()
    {
        Sshd jump;
        QVERIFY2(jump.start(), qPrintable(jump.errorString()));
        QVERIFY(jump.authorize(m_sshd.clientKey() + QStringLiteral(".pub")));
        SshOptions options;
        options.knownHostsFile = knownHosts();
        options.connectTimeoutSec = 5;
        const auto target =
            parseTarget({QStringLiteral("%1@127.0.0.1:%2").arg(Sshd::user()).arg(m_sshd.port()),
                         QStringLiteral("%1@127.0.0.1:%2").arg(Sshd::user()).arg(jump.port()),
                         m_sshd.clientKey(), false});
        QVERIFY2(target.ok(), qPrintable(target.ok() ? QString() : target.error()));
        SshTunnel t(target.value(), options);

        t.start();
        QVERIFY(!t.waitUntilSettled(20000));
        SshError e = t.error();
        QVERIFY2(e.kind == SshFailure::HostKeyUnknown, qPrintable(e.message.english + e.sshOutput));
        QVERIFY(e.hostKey.onJumpHost);
        QCOMPARE(e.hostKey.host, QStringLiteral("[127.0.0.1]:%1").arg(jump.port()));
        QCOMPARE(e.hostKey.offeredFingerprint, jump.hostKeyFingerprint());
        // The bastion's fingerprint is not the jump host's.
        QVERIFY(!t.trustHostKey(m_sshd.hostKeyFingerprint()));
        QVERIFY(!QFile::exists(knownHosts()));
        auto trusted = t.trustHostKey(jump.hostKeyFingerprint());
        QVERIFY2(trusted.ok(),
                 qPrintable(trusted.ok() ? QString() : trusted.error().message.english));

        t.start();
        QVERIFY(!t.waitUntilSettled(20000));
        trustBastionAndPing(t);
    }

    // "Use ~/.ssh/config": a Host alias works as the bastion, its HostName, Port, User and
    // IdentityFile apply, and the console's checks still win over the user's (here the user's
    // config turns host key checking off and names another known_hosts file).
    void hostAliasFromTheUsersSshConfig()
    {
        QTemporaryDir home;
        QVERIFY(QDir(home.path()).mkpath(QStringLiteral(".ssh")));
        const QString userKnownHosts = home.filePath(QStringLiteral(".ssh/known_hosts"));
        QFile config(home.filePath(QStringLiteral(".ssh/config")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QStringLiteral("Host staging-bastion\n    HostName 127.0.0.1\n"
                                    "    Port %1\n    User %2\n    IdentityFile %3\n"
                                    "    StrictHostKeyChecking no\n"
                                    "    UserKnownHostsFile %4\n")
                         .arg(m_sshd.port())
                         .arg(Sshd::user(), m_sshd.clientKey(), userKnownHosts)
                         .toUtf8());
        config.close();
        const QByteArray realHome = qgetenv("HOME");
        qputenv("HOME", home.path().toUtf8());
        const auto restoreHome = qScopeGuard([&] { qputenv("HOME", realHome); });

        const auto target =
            parseTarget({QStringLiteral("staging-bastion"), QString(), QString(), true});
        QVERIFY(target.ok());
        SshOptions options;
        options.knownHostsFile = knownHosts();
        SshTunnel t(target.value(), options);
        t.start();
        QVERIFY(!t.waitUntilSettled(20000));
        trustBastionAndPing(t);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(!QFile::exists(userKnownHosts));
    }

    void silentBastionTimesOut()
    {
        const QString silent = testsupport::silentHost();
        QVERIFY(!silent.isEmpty());
        SshOptions options;
        options.knownHostsFile = knownHosts();
        options.connectTimeoutSec = 1;
        const auto target = parseTarget({QStringLiteral("u@") + silent, {}, {}, false});
        QVERIFY(target.ok());
        SshTunnel t(target.value(), options);
        t.start();
        QVERIFY(!t.waitUntilSettled(20000));
        QVERIFY2(t.error().kind == SshFailure::BastionTimedOut,
                 qPrintable(t.error().message.english + t.error().sshOutput));
    }

    // Keepalives find a bastion that stopped answering while its connection stays open.
    void silentSessionIsReportedAsTunnelDied()
    {
        auto t = upTunnel(); // keepalive every second, two missed: dead
        QVERIFY(t);
        QSignalSpy died(t.get(), &SshTunnel::died);
        m_sshd.signalSessions(SIGSTOP);
        const bool reported = died.wait(15000);
        m_sshd.signalSessions(SIGCONT);
        QVERIFY(reported);
        QCOMPARE(t->error().kind, SshFailure::TunnelDied);
    }

    // A key with a passphrase, not in an agent: the passphrase reaches ssh through the askpass
    // helper and the private socket, and through nothing ssh's process shows.
    void passphraseGoesThroughTheAskpassChannelOnly()
    {
        QVERIFY(upTunnel()); // trusts the host key
        qputenv("INVENTORY_SSH_ASKPASS", INVENTORY_SSH_ASKPASS_PATH);
        qunsetenv("SSH_AUTH_SOCK");
        const QByteArray secret = Sshd::encryptedKeyPassphrase();

        auto noPassphrase = tunnel(m_sshd.encryptedClientKey());
        noPassphrase->start();
        QVERIFY(!noPassphrase->waitUntilSettled(20000));
        QVERIFY2(
            noPassphrase->error().kind == SshFailure::AuthenticationRefused,
            qPrintable(noPassphrase->error().message.english + noPassphrase->error().sshOutput));

        auto wrong = tunnel(m_sshd.encryptedClientKey());
        wrong->setPassphrase("not it");
        wrong->start();
        QVERIFY(!wrong->waitUntilSettled(20000));
        QVERIFY2(wrong->error().kind == SshFailure::AuthenticationRefused,
                 qPrintable(wrong->error().message.english + wrong->error().sshOutput));
        QVERIFY(wrong->error().message.english.contains(QStringLiteral("passphrase")));

        auto t = tunnel(m_sshd.encryptedClientKey());
        t->setPassphrase(secret);
        t->start();
        QVERIFY2(t->waitUntilSettled(20000),
                 qPrintable(t->error().message.english + t->error().sshOutput));
        for (const char *file : {"cmdline", "environ"}) {
            QFile f(QStringLiteral("/proc/%1/%2").arg(t->masterPid()).arg(QLatin1String(file)));
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY2(!f.readAll().contains(secret), file);
        }
        const QStringList files = QDir(t->runtimeDirectory()).entryList(QDir::Files);
        for (const QString &name : files) {
            QFile f(t->runtimeDirectory() + QLatin1Char('/') + name);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY2(!f.readAll().contains(secret), qPrintable(name));
        }
        const auto port = t->forward(QStringLiteral("127.0.0.1"), m_redis.port());
        QVERIFY(port.ok());
        QCOMPARE(ping(port.value()), QByteArray("+PONG"));
    }

    void missingSshIsSaidSo()
    {
        QTemporaryDir empty;
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", empty.path().toUtf8());
        auto t = tunnel();
        t->start();
        qputenv("PATH", path);
        QCOMPARE(t->state(), SshTunnel::State::Failed);
        QCOMPARE(t->error().kind, SshFailure::SshNotInstalled);
        QVERIFY(t->error().message.english.contains(QStringLiteral("openssh-client")));
    }

    void theDefaultKnownHostsFileIsTheConsoles()
    {
        // INVENTORY_DATA_DIR points at the test's private data directory.
        QVERIFY(!qEnvironmentVariableIsEmpty("INVENTORY_DATA_DIR"));
        QCOMPARE(defaultKnownHostsFile(),
                 qEnvironmentVariable("INVENTORY_DATA_DIR") + QStringLiteral("/ssh_known_hosts"));
        SshTunnel t(testsupport::sshTarget(m_sshd, m_sshd.clientKey()));
        QCOMPARE(t.knownHostsFile(), defaultKnownHostsFile());
    }
};

QTEST_GUILESS_MAIN(TstSshTunnel)
#include "tst_ssh_tunnel.moc"
