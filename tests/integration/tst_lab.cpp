// The concurrency lab against a real server: the functions never oversell and never deduct an
// order twice, with and without faults; the script never oversells but deducts twice when a
// retry follows a lost reply; the naive way's oversell is counted right when it happens; the
// lab's keys are gone after a run and after a cancel; and it refuses servers not labelled local
// or test.
#include "CliRunner.h"
#include "RedisFixture.h"
#include "lab/LabAccess.h"
#include "lab/LabRun.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace lab;
using testsupport::StandaloneRedis;

namespace {
LabSettings storm(QList<Strategy> strategies, Fault fault, double retryShare = 0.0)
{
    LabSettings s;
    s.strategies = strategies;
    s.fault = fault;
    s.retryShare = retryShare;
    s.connections = 16;
    s.pipeline = 4;
    s.attempts = 1200;
    s.initialStock = 400;
    s.pauseMs = 300;
    s.clientTimeoutMs = 40;
    return s;
}
} // namespace

class TstLab : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    std::unique_ptr<redis::RedisClient> m_c;

    LabReport runLab(const LabSettings &settings, const std::atomic<bool> *cancel = nullptr,
                     LabRun::Progress progress = {})
    {
        LabRun run(settings, LabTarget{m_redis.options(), inventory::KeySchema()});
        run.setCancelFlag(cancel);
        run.setProgress(std::move(progress));
        return run.run();
    }

    // Every key the lab could have left: its SKUs all start with "lab-".
    qint64 labKeys()
    {
        qint64 n = 0;
        QByteArray cursor = "0";
        do {
            const auto r = m_c->call({"SCAN", cursor, "MATCH", "*lab-*", "COUNT", "1000"});
            if (!r.ok())
                return -1;
            cursor = r->at(0).bytes();
            n += r->at(1).size();
        } while (cursor != "0");
        return n;
    }

    QStringList cliArgs(const QStringList &extra)
    {
        return QStringList{"lab", "--url",
                           QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port())}
               + extra;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_c = m_redis.connect();
        const auto loaded = m_c->call(
            {"FUNCTION", "LOAD", "REPLACE", testsupport::functionSource("inventory_lib_v1.lua")});
        QVERIFY2(loaded.ok(), qPrintable(testsupport::render(loaded)));
    }

    void functionsNeverOversellNorDeductTwice_data()
    {
        QTest::addColumn<int>("strategy");
        QTest::addColumn<int>("fault");
        QTest::addColumn<qint64>("stock");
        for (Strategy s : {Strategy::FunctionV1, Strategy::FunctionV2})
            for (Fault f : {Fault::None, Fault::Pause, Fault::ShortTimeout})
                for (qint64 stock : {400, 5000}) // runs out / does not
                    QTest::addRow("%s-%s-stock%lld", qPrintable(strategyName(s)),
                                  qPrintable(faultName(f)), stock)
                        << int(s) << int(f) << stock;
    }
    void functionsNeverOversellNorDeductTwice()
    {
        QFETCH(int, strategy);
        QFETCH(int, fault);
        QFETCH(qint64, stock);
        LabSettings s = storm({Strategy(strategy)}, Fault(fault), 0.25);
        s.initialStock = stock;
        LabReport report = runLab(s);
        QVERIFY2(report.failure.isEmpty(), qPrintable(report.failure));
        QCOMPARE(report.results.size(), 1);
        StrategyResult &r = report.results[0];
        QVERIFY2(r.ran(), qPrintable(r.verdict()));
        QVERIFY(r.finalStock && r.receipts);
        QCOMPARE(r.oversold(), 0);
        QCOMPARE(r.doubleDeductions(), 0);
        // The invariant the receipts give: every unit that left went to one order.
        QCOMPARE(*r.finalStock + *r.receipts, stock);
        QVERIFY(*r.finalStock >= 0);
        QVERIFY(r.successes <= *r.receipts);
        QCOMPARE(r.unresolved, 0);
        QVERIFY(r.reusedIds > 0);
        if (stock > s.attempts)
            QVERIFY2(r.retriesAnswered > 0, qPrintable(r.verdict()));
        if (Fault(fault) == Fault::ShortTimeout)
            QVERIFY2(r.unknownOutcomes > 0, "the short timeout produced no lost reply");
        QVERIFY2(!r.verdict().contains(QLatin1String("oversold")), qPrintable(r.verdict()));
        QCOMPARE(labKeys(), 0);
    }

    void scriptNeverOversells_data()
    {
        QTest::addColumn<int>("fault");
        for (Fault f : {Fault::None, Fault::Pause, Fault::ShortTimeout})
            QTest::addRow("%s", qPrintable(faultName(f))) << int(f);
    }
    void scriptNeverOversells()
    {
        QFETCH(int, fault);
        LabReport report = runLab(storm({Strategy::Script}, Fault(fault)));
        QVERIFY2(report.failure.isEmpty(), qPrintable(report.failure));
        StrategyResult &r = report.results[0];
        QVERIFY2(r.ran(), qPrintable(r.verdict()));
        QCOMPARE(r.oversold(), 0);
        QVERIFY(r.finalStock && *r.finalStock >= 0);
        QVERIFY(!r.receipts); // the script leaves none
        QCOMPARE(labKeys(), 0);
    }

    // Atomic is not idempotent: the call whose reply was lost ran once the pause ended, and
    // its retry (same order id) ran again.
    void scriptDeductsTwiceWhenARetryFollowsALostReply()
    {
        LabSettings s = storm({Strategy::Script, Strategy::FunctionV1}, Fault::ShortTimeout);
        s.initialStock = 5000; // never runs out: every retry that runs deducts
        LabReport report = runLab(s);
        QVERIFY2(report.failure.isEmpty(), qPrintable(report.failure));
        StrategyResult &script = report.results[0];
        QVERIFY2(script.unknownOutcomes > 0, "no reply was lost");
        QCOMPARE(script.reusedIds, 0); // the doubles come from lost replies only
        QVERIFY2(script.doubleDeductions() > 0, qPrintable(script.verdict()));
        QVERIFY(script.doubleDeductions() <= script.retriesAfterUnknown);
        QCOMPARE(script.sold(), script.successes + script.doubleDeductions());
        QVERIFY(script.verdict().contains(QLatin1String("double deduction")));
        // The same storm through the function: the receipts answer the same retries.
        StrategyResult &function = report.results[1];
        QVERIFY(function.unknownOutcomes > 0);
        QCOMPARE(function.doubleDeductions(), 0);
        QCOMPARE(*function.finalStock + *function.receipts, s.initialStock);
        QCOMPARE(labKeys(), 0);
    }

    // Reused order ids deduct again through the script; the function answers them.
    void reusedOrderIdsDeductTwiceThroughTheScriptOnly()
    {
        LabSettings s = storm({Strategy::Script, Strategy::FunctionV1}, Fault::None, 0.3);
        s.initialStock = 5000;
        LabReport report = runLab(s);
        StrategyResult &script = report.results[0];
        QVERIFY(script.reusedIds > 0);
        QCOMPARE(script.doubleDeductions(), script.duplicateAcks);
        QCOMPARE(script.duplicateAcks, script.reusedIds);
        StrategyResult &function = report.results[1];
        QCOMPARE(function.retriesAnswered, function.reusedIds);
        QCOMPARE(function.doubleDeductions(), 0);
    }

    // Whether the race happens depends on the scheduler: the accounting must be right either
    // way.
    void naiveOversellIsCountedRight()
    {
        LabSettings s = storm({Strategy::Naive}, Fault::None);
        s.initialStock = 50;
        s.connections = 32;
        s.pipeline = 1;
        s.attempts = 2000;
        for (int round = 0; round < 3; ++round) {
            LabReport report = runLab(s);
            QVERIFY2(report.failure.isEmpty(), qPrintable(report.failure));
            StrategyResult &r = report.results[0];
            QVERIFY(r.finalStock);
            // Every acknowledged DECRBY took one unit, and nothing else wrote.
            QCOMPARE(r.sold(), r.successes);
            QCOMPARE(*r.finalStock, s.initialStock - r.successes);
            QCOMPARE(r.oversold(), std::max<qint64>(0, -*r.finalStock));
            QCOMPARE(r.doubleDeductions(), 0);
            QCOMPARE(r.successes + r.insufficient, s.attempts);
            if (r.oversold() > 0)
                QVERIFY2(
                    r.verdict().startsWith(QStringLiteral("oversold %1 unit").arg(r.oversold())),
                    qPrintable(r.verdict()));
            else
                QVERIFY(r.verdict().startsWith(QLatin1String("no oversell")));
            QCOMPARE(r.toJson().value(QLatin1String("oversold")).toInteger(), r.oversold());
        }
        QCOMPARE(labKeys(), 0);
    }

    // One connection: the storm writes and then reads its own socket (lab/BlockingLane), with
    // the same accounting.
    void oneConnectionStorms_data()
    {
        QTest::addColumn<int>("fault");
        QTest::newRow("none") << int(Fault::None);
        QTest::newRow("pause") << int(Fault::Pause);
    }
    void oneConnectionStorms()
    {
        QFETCH(int, fault);
        LabSettings s =
            storm({Strategy::Naive, Strategy::Script, Strategy::FunctionV1}, Fault(fault), 0.25);
        s.connections = 1;
        s.pipeline = 3;
        s.attempts = 600;
        s.initialStock = 450;
        LabReport report = runLab(s);
        QVERIFY2(report.failure.isEmpty(), qPrintable(report.failure));
        for (StrategyResult &r : report.results) {
            QVERIFY2(r.ran(), qPrintable(r.verdict()));
            QCOMPARE(r.attempts, s.attempts);
            QCOMPARE(r.unknownOutcomes, 0);
            QCOMPARE(r.oversold(), std::max<qint64>(0, -*r.finalStock));
        }
        StrategyResult &script = report.results[1];
        QVERIFY(script.reusedIds > 0);
        QCOMPARE(script.oversold(), 0);
        QCOMPARE(script.doubleDeductions(), script.duplicateAcks);
        StrategyResult &function = report.results[2];
        QCOMPARE(function.doubleDeductions(), 0);
        QCOMPARE(*function.finalStock + *function.receipts, s.initialStock);
        if (Fault(fault) == Fault::Pause)
            QVERIFY(function.faultNote.startsWith(QLatin1String("CLIENT PAUSE 300 WRITE")));
        QCOMPARE(labKeys(), 0);
    }

    // The blocking lane logs in as the transport does: the ACL user, and a refusal said.
    void oneConnectionStormLogsIn()
    {
        QVERIFY(m_c->call({"ACL", "SETUSER", "labuser", "on", ">lab-pw", "~*", "+@all"}).ok());
        redis::ConnectionOptions options = m_redis.options();
        options.username = QStringLiteral("labuser");
        options.password = QStringLiteral("lab-pw");
        LabSettings s = storm({Strategy::FunctionV1}, Fault::None);
        s.connections = 1;
        LabReport report = LabRun(s, LabTarget{options, inventory::KeySchema()}).run();
        QVERIFY2(report.failure.isEmpty(), qPrintable(report.failure));
        QVERIFY2(report.results[0].ran(), qPrintable(report.results[0].verdict()));
        QCOMPARE(*report.results[0].receipts, s.initialStock);
        // The control connection (the transport) refuses first; the lane's own check is
        // exercised when only it logs in.
        options.password = QStringLiteral("wrong");
        report = LabRun(s, LabTarget{options, inventory::KeySchema()}).run();
        QVERIFY(!report.failure.isEmpty());
        QVERIFY(m_c->call({"ACL", "DELUSER", "labuser"}).ok());
        QCOMPARE(labKeys(), 0);
    }

    void cancelStopsAndRemovesKeys()
    {
        LabSettings s = storm({Strategy::FunctionV1, Strategy::Script}, Fault::None);
        s.attempts = 5000000;
        s.initialStock = 1000000;
        std::atomic<bool> cancel{false};
        qint64 seen = 0;
        LabReport report = runLab(s, &cancel, [&](int, qint64 done) {
            seen = done;
            if (done > 200)
                cancel = true;
        });
        QVERIFY(seen > 200);
        QVERIFY(report.cancelled);
        QCOMPARE(report.results.size(), 2);
        QVERIFY(report.results[0].cancelled);
        QVERIFY(report.results[0].attempts < s.attempts);
        QVERIFY(!report.results[1].skipped.isEmpty()); // never started
        // What ran is still accounted: the receipts were read before they were removed.
        StrategyResult &r = report.results[0];
        QCOMPARE(*r.finalStock + *r.receipts, s.initialStock);
        QCOMPARE(labKeys(), 0);
    }

    void missingFunctionIsSkippedWithAReason()
    {
        QVERIFY(
            m_c->call({"FUNCTION", "LOAD", "REPLACE", testsupport::previousReleaseSource()}).ok());
        LabReport report = runLab(storm({Strategy::FunctionV2, Strategy::FunctionV1}, Fault::None));
        QVERIFY(m_c->call({"FUNCTION", "LOAD", "REPLACE",
                           testsupport::functionSource("inventory_lib_v1.lua")})
                    .ok());
        QVERIFY(
            report.results[0].skipped.contains(QLatin1String("inventory_deduct_v2 is not loaded")));
        QVERIFY(report.results[0].verdict().startsWith(QLatin1String("not run:")));
        QVERIFY(report.results[1].ran());
    }

    void badSettingsAreRefusedBeforeAnything()
    {
        LabSettings s;
        s.connections = 0;
        s.retryShare = 1.5;
        const QStringList p = s.problems();
        QCOMPARE(p.size(), 2);
        QVERIFY(p[0].startsWith(QLatin1String("connections: give 1 to 200, not 0")));
        QVERIFY(p[1].startsWith(QLatin1String("retry share:")));
        s = LabSettings();
        s.fault = Fault::ShortTimeout;
        s.clientTimeoutMs = 500;
        s.pauseMs = 300;
        QVERIFY(s.problems().join(' ').contains(QLatin1String("shorter than the pause")));
        const auto before = m_c->call({"DBSIZE"});
        const LabReport report = runLab(s);
        QVERIFY(report.failure.contains(QLatin1String("shorter than the pause")));
        QCOMPARE(testsupport::render(m_c->call({"DBSIZE"})), testsupport::render(before));
    }

    // The one rule for labels: local and test run (the demo is local), an unlabelled loopback
    // host is local, staging and production (and unknown labels) are refused.
    void labelRule()
    {
        using session::Environment;
        QVERIFY(labAllowed(Environment::Local));
        QVERIFY(labAllowed(Environment::Test));
        QVERIFY(!labAllowed(Environment::Staging));
        QVERIFY(!labAllowed(Environment::Production));
        QVERIFY(!labAllowed(std::nullopt));
        QVERIFY(labAllowed(session::defaultEnvironmentForHost(QStringLiteral("127.0.0.1"))));
        QVERIFY(!labAllowed(session::defaultEnvironmentForHost(QStringLiteral("redis.example"))));
        QVERIFY(labRefusal(Environment::Production, QStringLiteral("production"))
                    ->contains(QLatin1String("labelled production")));
    }

    void cliRefusesProductionAndStaging_data()
    {
        QTest::addColumn<QString>("label");
        QTest::newRow("production") << QStringLiteral("production");
        QTest::newRow("staging") << QStringLiteral("staging");
    }
    void cliRefusesProductionAndStaging()
    {
        QFETCH(QString, label);
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        QVERIFY(m_c->call({"CONFIG", "RESETSTAT"}).ok());
        const testsupport::CliRun run =
            testsupport::runCli(cliArgs({"--strategy", "naive", "--environment", label, "--json"}));
        QCOMPARE(run.exitCode, 4);
        QVERIFY2(run.err.contains("labelled " + label.toUtf8()), run.err.constData());
        QVERIFY(run.out.isEmpty());
        // Nothing reached the server: no write or read of the lab counted since the reset.
        const auto after = m_c->call({"INFO", "commandstats"});
        QVERIFY(after.ok());
        for (const char *cmd : {"cmdstat_decrby", "cmdstat_set:", "cmdstat_get:", "cmdstat_fcall",
                                "cmdstat_evalsha", "cmdstat_client"})
            QVERIFY2(!after->bytes().contains(cmd), cmd);
        QCOMPARE(labKeys(), 0);
    }

    void cliJsonAndExitCodes()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        const testsupport::CliRun run = testsupport::runCli(cliArgs(
            {"--strategy", "fcall-v1,naive", "--stock", "100", "--connections", "8", "--attempts",
             "300", "--pipeline", "2", "--retry-share", "0.2", "--environment", "test", "--json"}));
        QCOMPARE(run.exitCode, 0);
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        const QJsonObject f = QJsonDocument::fromJson(lines[0]).object();
        QCOMPARE(f.value(QLatin1String("strategy")).toString(), QStringLiteral("fcall-v1"));
        for (const char *field : {"successes", "retries_answered", "oversold", "double_deductions",
                                  "final_stock", "ops_per_sec", "p50_ms", "p99_ms", "verdict"})
            QVERIFY2(f.contains(QLatin1String(field)), field);
        QCOMPARE(f.value(QLatin1String("oversold")).toInteger(), 0);
        QCOMPARE(f.value(QLatin1String("double_deductions")).toInteger(), 0);
        QCOMPARE(f.value(QLatin1String("final_stock")).toInteger()
                     + f.value(QLatin1String("receipts")).toInteger(),
                 100);
        QVERIFY(f.value(QLatin1String("ops_per_sec")).toDouble() > 0);
        QVERIFY(f.value(QLatin1String("p99_ms")).toDouble()
                >= f.value(QLatin1String("p50_ms")).toDouble());
        const QJsonObject n = QJsonDocument::fromJson(lines[1]).object();
        QCOMPARE(n.value(QLatin1String("strategy")).toString(), QStringLiteral("naive"));
        QCOMPARE(n.value(QLatin1String("oversold")).toInteger(),
                 std::max<qint64>(0, -n.value(QLatin1String("final_stock")).toInteger()));
        QCOMPARE(labKeys(), 0);

        // Unlabelled loopback is local: allowed. Bad values: usage, nothing sent.
        QCOMPARE(
            testsupport::runCli(cliArgs({"--strategy", "script", "--attempts", "10"})).exitCode, 0);
        for (const QStringList &bad :
             {QStringList{"--strategy", "bogus"},
              QStringList{"--strategy", "naive", "--connections", "0"},
              QStringList{"--strategy", "naive", "--connections", "201"},
              QStringList{"--strategy", "naive", "--retry-share", "x"},
              QStringList{"--strategy", "naive", "--fault", "fire"}, QStringList{}}) {
            const testsupport::CliRun r = testsupport::runCli(cliArgs(bad));
            QVERIFY2(r.exitCode == 2, qPrintable(bad.join(' ') + ": " + r.err));
            QVERIFY(!r.err.isEmpty());
        }
        const testsupport::CliRun down = testsupport::runCli(
            {"lab", "--url", "redis://127.0.0.1:1", "--strategy", "naive", "--timeout-ms", "500"});
        QCOMPARE(down.exitCode, 3);
    }

    void clusterIsRefusedClearly()
    {
        testsupport::RedisCluster cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
        LabRun run(storm({Strategy::Naive}, Fault::None),
                   LabTarget{cluster.nodes().first(), inventory::KeySchema()});
        const LabReport report = run.run();
        QVERIFY2(report.failure.contains(QLatin1String("standalone server only")),
                 qPrintable(report.failure));
        QVERIFY(report.results.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstLab)
#include "tst_lab.moc"
