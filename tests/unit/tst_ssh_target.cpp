// SPDX-License-Identifier: GPL-3.0-or-later
#include "ssh/SshError.h"
#include "ssh/SshFiles.h"
#include "ssh/SshTarget.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace ssh;

class TstSshTarget : public QObject
{
    Q_OBJECT

private slots:
    void accepted_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("knownHostsName");
        QTest::newRow("user host port")
            << "alice@bastion.example.com:2222"
            << "alice"
            << "bastion.example.com" << 2222 << "[bastion.example.com]:2222";
        QTest::newRow("host only") << "bastion"
                                   << ""
                                   << "bastion" << 0 << "bastion";
        QTest::newRow("port 22") << "ops@10.0.0.7:22"
                                 << "ops"
                                 << "10.0.0.7" << 22 << "10.0.0.7";
        QTest::newRow("ipv6 bracketed") << "ops@[2001:db8::1]:2200"
                                        << "ops"
                                        << "2001:db8::1" << 2200 << "[2001:db8::1]:2200";
        QTest::newRow("ipv6 bare") << "::1"
                                   << ""
                                   << "::1" << 0 << "::1";
        QTest::newRow("alias with underscore") << "prod_bastion"
                                               << ""
                                               << "prod_bastion" << 0 << "prod_bastion";
        QTest::newRow("dotted user") << "first.last@h"
                                     << "first.last"
                                     << "h" << 0 << "h";
    }
    void accepted()
    {
        QFETCH(QString, text);
        const auto e = parseEndpoint(text, QStringLiteral("bastion"));
        QVERIFY2(e.ok(), qPrintable(e.ok() ? QString() : e.error()));
        QTEST(e->user, "user");
        QTEST(e->host, "host");
        QTEST(int(e->port), "port");
        QTEST(e->knownHostsName(), "knownHostsName");
    }

    void refused_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("why");
        QTest::newRow("empty") << ""
                               << "empty";
        QTest::newRow("option as host") << "-oProxyCommand=touch_x"
                                        << "begins with '-'";
        QTest::newRow("option as user") << "-oProxyCommand=x@h"
                                        << "begins with '-'";
        QTest::newRow("option after at") << "u@-p2222"
                                         << "begins with '-'";
        QTest::newRow("space") << "u@host name"
                               << "space or a control character";
        QTest::newRow("tab") << "u@host\tx"
                             << "space or a control character";
        QTest::newRow("newline") << "u@host\nProxyCommand x"
                                 << "space or a control character";
        QTest::newRow("nul") << QString::fromUtf8("u@h\0x", 5) << "control character";
        QTest::newRow("shell") << "u@h;touch_x"
                               << "contains ';'";
        QTest::newRow("backtick") << "u@h`id`"
                                  << "contains '`'";
        QTest::newRow("percent token") << "u@%h"
                                       << "contains '%'";
        QTest::newRow("empty user") << "@h"
                                    << "user before '@' is empty";
        QTest::newRow("user with slash") << "a/b@h"
                                         << "contains '/'";
        QTest::newRow("port zero") << "u@h:0"
                                   << "not a number from 1 to 65535";
        QTest::newRow("port too big") << "u@h:65536"
                                      << "not a number from 1 to 65535";
        QTest::newRow("port sign") << "u@h:+22"
                                   << "not a number";
        QTest::newRow("port leading zero") << "u@h:022"
                                           << "not a number";
        QTest::newRow("empty port") << "u@h:"
                                    << "port after ':' is empty";
        QTest::newRow("bad ipv6") << "[1:2:zz::]:22"
                                  << "not an IPv6 address";
        QTest::newRow("brackets for a name") << "[host]:22"
                                             << "brackets are for IPv6";
        QTest::newRow("unclosed bracket") << "[::1:22"
                                          << "'[' without ']'";
    }
    void refused()
    {
        QFETCH(QString, text);
        QFETCH(QString, why);
        const auto e = parseEndpoint(text, QStringLiteral("bastion"));
        QVERIFY(!e.ok());
        QVERIFY2(e.error().contains(why), qPrintable(e.error()));
    }

    void forwardHostsAreChecked()
    {
        QVERIFY(hostProblem(QStringLiteral("10.1.2.3")).isEmpty());
        QVERIFY(hostProblem(QStringLiteral("redis-0.redis.svc")).isEmpty());
        QVERIFY(hostProblem(QStringLiteral("fd00::5")).isEmpty());
        QVERIFY(!hostProblem(QStringLiteral("-L1:a:2")).isEmpty());
        QVERIFY(!hostProblem(QStringLiteral("a:b")).isEmpty());
        QVERIFY(!hostProblem(QStringLiteral("a b")).isEmpty());
    }

    void targetWithJumpAndIdentity()
    {
        QTemporaryDir dir;
        const QString key = dir.filePath(QStringLiteral("id_ed25519"));
        QFile f(key);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not really a key\n");
        f.close();
        const auto t =
            parseTarget({QStringLiteral("ops@b:2222"), QStringLiteral(" j@jump "), key, false});
        QVERIFY2(t.ok(), qPrintable(t.ok() ? QString() : t.error()));
        QCOMPARE(t->bastion.display(), QStringLiteral("ops@b:2222"));
        QVERIFY(t->jump.has_value());
        QCOMPARE(t->jump->jumpSpec(), QStringLiteral("j@jump"));
        QCOMPARE(t->identityFile, key);
        const auto noJump = parseTarget({QStringLiteral("alias"), QString(), QString(), true});
        QVERIFY(noJump.ok());
        QVERIFY(!noJump->jump.has_value());
        QVERIFY(noJump->useSshConfig);
    }

    void identityMustBeARegularReadableFile()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        // A FIFO is refused at once (opening it would wait for a writer).
        auto t = parseTarget({QStringLiteral("u@h"), QString(), fifo, false});
        QVERIFY(!t.ok());
        QVERIFY2(t.error().contains(QStringLiteral("not a regular file")), qPrintable(t.error()));
        t = parseTarget({QStringLiteral("u@h"), QString(), QStringLiteral("/dev/zero"), false});
        QVERIFY(!t.ok());
        QVERIFY(t.error().contains(QStringLiteral("not a regular file")));
        t = parseTarget({QStringLiteral("u@h"), QString(), dir.path(), false});
        QVERIFY(!t.ok());
        t = parseTarget(
            {QStringLiteral("u@h"), QString(), dir.filePath(QStringLiteral("nope")), false});
        QVERIFY(!t.ok());
        QVERIFY(t.error().contains(QStringLiteral("does not exist")));
        t = parseTarget({QStringLiteral("u@h"), QStringLiteral("-J x"), QString(), false});
        QVERIFY(!t.ok());
        QVERIFY2(t.error().startsWith(QStringLiteral("jump host")), qPrintable(t.error()));
    }

    void fingerprintForm()
    {
        QVERIFY(isSha256Fingerprint(
            QStringLiteral("SHA256:IP9C8ycIWCywWvVQkpd6wDGdfcSlFfpCvTD9cu5mYaA")));
        QVERIFY(!isSha256Fingerprint(
            QStringLiteral("sha256:IP9C8ycIWCywWvVQkpd6wDGdfcSlFfpCvTD9cu5mYaA")));
        QVERIFY(!isSha256Fingerprint(
            QStringLiteral("SHA256:IP9C8ycIWCywWvVQkpd6wDGdfcSlFfpCvTD9cu5mYaA=")));
        QVERIFY(!isSha256Fingerprint(QStringLiteral("MD5:aa:bb")));
        QVERIFY(!isSha256Fingerprint(
            QStringLiteral(" SHA256:IP9C8ycIWCywWvVQkpd6wDGdfcSlFfpCvTD9cu5mYaA")));
    }

    // ssh -v's output, as OpenSSH 9.2 writes it, classified.
    void classifiesUnknownKey()
    {
        const QStringList lines{
            QStringLiteral("debug1: Connecting to 127.0.0.1 [127.0.0.1] port 2222."),
            QStringLiteral("debug1: Server host key: ssh-ed25519 "
                           "SHA256:IP9C8ycIWCywWvVQkpd6wDGdfcSlFfpCvTD9cu5mYaA"),
            QStringLiteral("No ED25519 host key is known for [127.0.0.1]:2222 and you have "
                           "requested strict checking."),
            QStringLiteral("Host key verification failed.")};
        const SshError e = classifyStartFailure(lines, QStringLiteral("[127.0.0.1]:2222"), {});
        QCOMPARE(e.kind, SshFailure::HostKeyUnknown);
        QCOMPARE(e.hostKey.keyType, QStringLiteral("ssh-ed25519"));
        QCOMPARE(e.hostKey.offeredFingerprint,
                 QStringLiteral("SHA256:IP9C8ycIWCywWvVQkpd6wDGdfcSlFfpCvTD9cu5mYaA"));
        QCOMPARE(e.hostKey.host, QStringLiteral("[127.0.0.1]:2222"));
        QVERIFY(!e.hostKey.onJumpHost);
        QVERIFY(!e.sshOutput.contains(QStringLiteral("debug1")));
    }

    void classifiesJumpKeyAndOthers()
    {
        const QStringList jump{
            QStringLiteral("debug1: Server host key: ssh-ed25519 SHA256:JUMP"),
            QStringLiteral("No ED25519 host key is known for [127.0.0.1]:2200 and you have "
                           "requested strict checking."),
            QStringLiteral("Host key verification failed."),
            QStringLiteral("Connection closed by UNKNOWN port 65535")};
        SshError e = classifyStartFailure(jump, QStringLiteral("[127.0.0.1]:2222"),
                                          QStringLiteral("[127.0.0.1]:2200"));
        QCOMPARE(e.kind, SshFailure::HostKeyUnknown);
        QVERIFY(e.hostKey.onJumpHost);
        QCOMPARE(e.hostKey.offeredFingerprint, QStringLiteral("SHA256:JUMP"));

        const QStringList changed{
            QStringLiteral("debug1: Server host key: ssh-ed25519 SHA256:NEW"),
            QStringLiteral("@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @"),
            QStringLiteral("Offending ED25519 key in /data/ssh_known_hosts:3"),
            QStringLiteral("Host key for [127.0.0.1]:2222 has changed and you have requested "
                           "strict checking.")};
        e = classifyStartFailure(changed, QStringLiteral("[127.0.0.1]:2222"), {});
        QCOMPARE(e.kind, SshFailure::HostKeyChanged);
        QCOMPARE(e.hostKey.offeredFingerprint, QStringLiteral("SHA256:NEW"));
        QCOMPARE(offendingKnownHostsLine(changed).file, QStringLiteral("/data/ssh_known_hosts"));
        QCOMPARE(offendingKnownHostsLine(changed).line, 3);

        const auto kind = [](const QString &line) {
            return classifyStartFailure({line}, QStringLiteral("h"), {}).kind;
        };
        QCOMPARE(kind(QStringLiteral("root@127.0.0.1: Permission denied (publickey).")),
                 SshFailure::AuthenticationRefused);
        QCOMPARE(kind(QStringLiteral("ssh: connect to host 127.0.0.1 port 1: Connection refused")),
                 SshFailure::BastionRefused);
        QCOMPARE(kind(QStringLiteral("ssh: connect to host 192.0.2.2 port 22: Connection timed "
                                     "out")),
                 SshFailure::BastionTimedOut);
        QCOMPARE(kind(QStringLiteral("ssh: connect to host 10.0.0.1 port 22: Network is "
                                     "unreachable")),
                 SshFailure::BastionUnreachable);
        QCOMPARE(kind(QStringLiteral("ssh: Could not resolve hostname nowhere: Temporary failure "
                                     "in name resolution")),
                 SshFailure::BastionUnreachable);
        QCOMPARE(kind(QStringLiteral("something else")), SshFailure::Other);
    }
};

QTEST_GUILESS_MAIN(TstSshTarget)
#include "tst_ssh_target.moc"
