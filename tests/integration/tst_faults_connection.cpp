// SPDX-License-Identifier: GPL-3.0-or-later
// The fault suite, connections and reads (issue 14): a TLS peer that accepts TCP and never
// answers the handshake, and a server killed while `inventory-cli keys` scans it. Each case
// asserts what the user reads and that it comes within the timeout.
#include "CliRunner.h"
#include "RedisFixture.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using testsupport::StandaloneRedis;

class TstFaultsConnection : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
    }

    // The peer accepts the TCP connection, reads the ClientHello and stalls: the connect
    // times out within --timeout-ms with a line that says so, exit 3, and nothing is sent.
    void tlsPeerStallingMidHandshakeTimesOut()
    {
        QTcpServer peer;
        QVERIFY(peer.listen(QHostAddress::LocalHost));
        QList<QTcpSocket *> held; // accepted, never answered, closed at the end
        connect(&peer, &QTcpServer::newConnection, this, [&] {
            while (QTcpSocket *s = peer.nextPendingConnection())
                held << s;
        });
        QProcess cli;
        cli.start(testsupport::cliPath(),
                  {"ping", "--url", QStringLiteral("rediss://127.0.0.1:%1").arg(peer.serverPort()),
                   "--timeout-ms", "1000"});
        QVERIFY(cli.waitForStarted());
        QElapsedTimer clock;
        clock.start();
        // The test's event loop accepts the connection while the CLI waits.
        QTRY_VERIFY_WITH_TIMEOUT(cli.state() == QProcess::NotRunning, 10000);
        const qint64 elapsed = clock.elapsed();
        QVERIFY2(!held.isEmpty(), "the CLI never connected");
        QVERIFY2(elapsed < 4000, qPrintable(QString::number(elapsed)));
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 3);
        const QByteArray err = cli.readAllStandardError();
        QVERIFY2(err.contains("no answer from 127.0.0.1"), err.constData());
        QVERIFY2(err.contains("within 1000 ms"), err.constData());
        QVERIFY2(err.contains("check that the server speaks TLS"), err.constData());
        qDeleteAll(held);
    }

    // The server dies in the middle of a scan: the scan is reported failed and incomplete
    // (exit 1), in the words of a read ("SCAN failed: connection lost"), never "outcome
    // unknown" and never a total that looks complete.
    void serverKilledDuringScan()
    {
        StandaloneRedis server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        auto admin = server.connect();
        QVERIFY(admin->call({"DEBUG", "POPULATE", "200000", "stock:{p", "4"}, 30000).ok());
        QProcess cli;
        // A small COUNT makes the scan many round trips long, so that the kill lands inside it.
        cli.start(testsupport::cliPath(),
                  {"keys", "--url", QStringLiteral("redis://127.0.0.1:%1").arg(server.port()),
                   "--summary", "--count", "10", "--timeout-ms", "5000"});
        QVERIFY(cli.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(
            admin->call({"INFO", "commandstats"})->bytes().contains("cmdstat_scan:"), 10000);
        QCOMPARE(cli.state(), QProcess::Running); // still scanning: the kill lands mid-scan
        server.server().kill();
        QVERIFY(cli.waitForFinished(10000));
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 1);
        const QByteArray said = cli.readAllStandardOutput() + cli.readAllStandardError();
        QVERIFY2(said.contains("SCAN failed"), said.constData());
        QVERIFY2(said.contains("connection"), said.constData());
        QVERIFY2(!said.contains("outcome unknown"), said.constData());
    }
};

QTEST_GUILESS_MAIN(TstFaultsConnection)
#include "tst_faults_connection.moc"
