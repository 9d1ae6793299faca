// SPDX-License-Identifier: GPL-3.0-or-later
// The guard that keeps tests on this machine: tests/support/run-isolated's namespace, and the
// connect helpers' check of every address a test gives them.
#include "Isolation.h"
#include "RedisFixture.h"

#include <QProcess>
#include <QTcpSocket>
#include <QTest>

namespace {
// In a child run of this binary: connect through the fixture to this host, then exit 0.
const char *const ChildHostVariable = "INVENTORY_ISOLATION_CHILD_HOST";
} // namespace

class TstTestIsolation : public QObject
{
    Q_OBJECT

    // Runs this binary again with ChildHostVariable set (initTestCase then connects and exits);
    // returns its exit status and output.
    static std::pair<int, QByteArray> connectInChild(const QString &host)
    {
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QString::fromLatin1(ChildHostVariable), host);
        child.setProcessEnvironment(env);
        child.setProcessChannelMode(QProcess::MergedChannels);
        child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("containedHosts")});
        if (!child.waitForFinished(30000))
            return {-1, "did not finish"};
        return {child.exitStatus() == QProcess::NormalExit ? child.exitCode() : -1,
                child.readAll()};
    }

private slots:
    void initTestCase()
    {
        const QString host = qEnvironmentVariable(ChildHostVariable);
        if (host.isEmpty())
            return;
        redis::ConnectionOptions o;
        o.host = host;
        o.port = 1; // nothing listens; the guard must stop it before the attempt
        o.connectTimeoutMs = 200;
        testsupport::StandaloneRedis().connect(o);
        ::exit(0);
    }

    void containedHosts_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<bool>("contained");
        QTest::newRow("127.0.0.1") << "127.0.0.1" << true;
        QTest::newRow("127.1.2.3") << "127.1.2.3" << true;
        QTest::newRow("::1") << "::1" << true;
        QTest::newRow("localhost") << "localhost" << true;
        QTest::newRow("LOCALHOST") << "LOCALHOST" << true;
        QTest::newRow("private 10/8") << "10.255.255.1" << false;
        QTest::newRow("private 192.168/16") << "192.168.1.1" << false;
        QTest::newRow("public") << "8.8.8.8" << false;
        QTest::newRow("IPv6 public") << "2001:4860:4860::8888" << false;
        QTest::newRow("a name") << "no-such-host.invalid" << false;
        QTest::newRow("localhost lookalike") << "localhost.example" << false;
        QTest::newRow("empty") << "" << false;
        QTest::newRow("another address in the silent subnet") << "192.0.2.3" << false;
    }
    void containedHosts()
    {
        QFETCH(QString, host);
        QFETCH(bool, contained);
        QCOMPARE(testsupport::isContainedHost(host), contained);
    }

    // Inside the namespace the silent address is allowed; outside it is someone's network.
    void silentHostOnlyInsideTheNamespace()
    {
        QString why;
        const QString silent = testsupport::silentHost(&why);
        if (testsupport::notIsolatedReason().isEmpty()) {
            QVERIFY(!silent.isEmpty());
            QVERIFY(testsupport::isContainedHost(silent));
        } else {
            QVERIFY(silent.isEmpty());
            QVERIFY(!why.isEmpty());
        }
    }

    // ctest runs every test through run-isolated: the namespace is there and proven.
    void ctestRunsInTheNamespace()
    {
        INVENTORY_REQUIRE_ISOLATION();
        QVERIFY(testsupport::notIsolatedReason().isEmpty());
    }

    // Inside the namespace a connect to any other address fails at once: it has no route.
    void otherAddressesFailAtOnce()
    {
        INVENTORY_REQUIRE_ISOLATION();
        QTcpSocket s;
        s.connectToHost(QStringLiteral("203.0.113.7"), 6379); // TEST-NET-3, unroutable here
        QTRY_COMPARE_WITH_TIMEOUT(s.state(), QAbstractSocket::UnconnectedState, 2000);
        QCOMPARE(s.error(), QAbstractSocket::NetworkError);
    }

    // The fixture refuses, before any attempt, a host that is not contained.
    void fixtureRefusesAnOutsideHost()
    {
        INVENTORY_REQUIRE_ISOLATION(); // even a refused attempt stays inside
        const auto [status, output] = connectInChild(QStringLiteral("10.255.255.1"));
        QVERIFY2(status != 0, output.constData());
        QVERIFY2(output.contains("refusing to connect to '10.255.255.1'"), output.constData());
        const auto [loopStatus, loopOutput] = connectInChild(QStringLiteral("127.0.0.1"));
        QVERIFY2(loopStatus == 0, loopOutput.constData());
    }
};

QTEST_GUILESS_MAIN(TstTestIsolation)
#include "tst_test_isolation.moc"
