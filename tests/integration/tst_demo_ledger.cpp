// SPDX-License-Identifier: GPL-3.0-or-later
#include "CliRunner.h"
#include "RedisFixture.h"
#include "demo/DemoLedger.h"
#include "demo/DemoSeeder.h"

#include <QTemporaryDir>
#include <QTest>

// The demo's SQLite ledger: planted on a seeded demo database, it gives `inventory-cli
// reconcile` every class to find, exactly as many of each as the planting says.
class TstDemoLedger : public QObject
{
    Q_OBJECT

private slots:
    void everyClassIsFound()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        testsupport::StandaloneRedis redis;
        QVERIFY2(redis.start(), qPrintable(redis.errorString()));
        auto client = redis.connect();
        const auto seeded = demo::seedDemoBlocking(*client);
        QVERIFY2(seeded, qPrintable(seeded ? QString() : seeded.error().english));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ledger.db"));
        const auto planted = demo::plantDemoLedger(*client, {}, path);
        QVERIFY2(planted, qPrintable(planted ? QString() : planted.error().english));
        QCOMPARE(planted->expected.size(), 5);

        const auto run = testsupport::runCli(
            {"reconcile", "--url", QStringLiteral("redis://127.0.0.1:%1").arg(redis.port()),
             "--ledger", "sqlite://" + path, "--raw"});
        QCOMPARE(run.exitCode, 1);
        QMap<QString, int> found;
        for (const QByteArray &line : run.out.split('\n'))
            if (!line.isEmpty())
                ++found[QString::fromUtf8(line.mid(line.lastIndexOf(':') + 1))];
        QCOMPARE(found, planted->expected);

        // Never written over: a second planting is refused and the file is kept.
        QVERIFY(!demo::plantDemoLedger(*client, {}, path));
    }
};

QTEST_GUILESS_MAIN(TstDemoLedger)
#include "tst_demo_ledger.moc"
