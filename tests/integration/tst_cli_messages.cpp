// What inventory-cli says in the small cases issue 14 found misleading, each named in its
// test's "Before:" line.
#include "CliProcess.h"
#include "RedisFixture.h"

#include <QTest>

using testsupport::StandaloneRedis;

class TstCliMessages : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    QString m_url;

    using Run = testsupport::CliRun;
    static Run cli(const QStringList &args) { return testsupport::runCli(args); }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_url = QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port());
        auto c = m_redis.connect();
        QVERIFY(c->call({"SET", "stock:{a}:available", "5"}).ok());
        QVERIFY(c->call({"SET", "stock:{b}:available", "x"}).ok());
    }

    // Before: "authentication failed for user 'Secr3t-pw'": the password, echoed.
    void aLoneUserNameIsNeverEchoed()
    {
        StandaloneRedis locked;
        QVERIFY2(locked.start({QStringLiteral("--requirepass"), QStringLiteral("Secr3t-pw")}),
                 qPrintable(locked.errorString()));
        const Run r = cli(
            {"ping", "--url", QStringLiteral("redis://Secr3t-pw@127.0.0.1:%1").arg(locked.port())});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(!r.err.contains("Secr3t"), r.err.constData());
        QVERIFY2(r.err.contains("redis://:PASSWORD@host"), r.err.constData());
        // With the colon it is a password, and it works.
        const Run ok = cli({"ping", "--url",
                            QStringLiteral("redis://:Secr3t-pw@127.0.0.1:%1").arg(locked.port())});
        QCOMPARE(ok.exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(TstCliMessages)
#include "tst_cli_messages.moc"
