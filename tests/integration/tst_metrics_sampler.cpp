// SPDX-License-Identifier: GPL-3.0-or-later
// The chart models fed from a real redis-server: one sample's decoding, rates, the FCALL latency
// histogram, the round trip and its budget, watched stock, the slow log and receipt expiry.
#include "SamplerRun.h"
#include "ServerTest.h"
#include "browse/InventoryScan.h"
#include "metrics/ReceiptExpiry.h"
#include "metrics/ServerSampler.h"
#include "metrics/SlowLog.h"
#include "metrics/StockWatcher.h"
#include "overview/ServerOverview.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

using namespace metrics;

namespace {

// calls= of one command in INFO commandstats ("info", "latency|histogram"), -1 if unreadable.
qint64 commandCalls(redis::CommandSender &c, const QByteArray &command)
{
    const auto info = c.call({"INFO", "commandstats"});
    if (!info.ok())
        return -1;
    const auto stats = decodeCommandStats(overview::parseInfo(info->bytes()));
    return stats ? stats->value(command, 0) : -1;
}

redis::Command deduct(const QByteArray &order)
{
    return {"FCALL", "inventory_deduct_v1", "2", "stock:{42}:available", "idem:{42}:" + order, "1",
            "600"};
}

} // namespace

class TstMetricsSampler : public testsupport::ServerTest
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCOMPARE(startServer(QStringLiteral("inventory_lib_v1.lua")), QString());
        QCOMPARE(testsupport::render(m_c->call({"CONFIG", "SET", "maxmemory", "100mb"})),
                 QStringLiteral("+OK"));
    }

    void init() { QVERIFY(m_c->call({"FLUSHALL", "SYNC"}).ok()); }

    // One batch decodes into every value the charts show.
    void oneSampleFromTheServer()
    {
        QVERIFY(m_c->call(deduct("1")).ok()); // stock missing, still an FCALL
        const auto s = decodeSample(m_c->callBatch(sampleCommands()));
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().message.english));
        QVERIFY(s->usedMemory > 100'000);
        QCOMPARE(s->maxMemory, 100LL * 1024 * 1024);
        QVERIFY(s->clients >= 1);
        QVERIFY(s->totalCommands > 0);
        QVERIFY(s->histogramKnown);
        QVERIFY(s->fcallCalls() >= 1);
        QCOMPARE(s->fcallLatency.calls, s->commandCalls.value("fcall"));
        QVERIFY(!s->fcallLatency.buckets.isEmpty());
        // Cumulative buckets: the last holds every call; p50 and p99 are bucket bounds.
        QCOMPARE(s->fcallLatency.buckets.last().second, s->fcallLatency.calls);
        QVERIFY(s->fcallLatency.percentileUs(0.5) >= 1);
        QVERIFY(s->fcallLatency.percentileUs(0.99) >= s->fcallLatency.percentileUs(0.5));
    }

    // A refused LATENCY HISTOGRAM leaves the histogram unknown; INFO of the wrong shape fails
    // the sample with the field named.
    void strictDecoding()
    {
        const auto info = m_c->call({"INFO", "memory", "stats", "clients", "commandstats"});
        QVERIFY(info.ok());
        redis::RedisError refused = redis::RedisError::fromServer("ERR unknown command 'LATENCY'");
        const auto noHistogram = decodeSample({info, refused});
        QVERIFY(noHistogram.ok());
        QVERIFY(!noHistogram->histogramKnown);
        QVERIFY(noHistogram->histogramProblem.contains(QLatin1String("unknown command")));

        const auto broken = decodeSample(
            {redis::Reply::bulk("# Memory\r\nused_memory:12x\r\n"), redis::Reply::array({})});
        QVERIFY(!broken.ok());
        QVERIFY2(broken.error().message.english.contains(QLatin1String("used_memory")),
                 qPrintable(broken.error().message.english));
        const auto notText = decodeSample({redis::Reply::integer(3), redis::Reply::array({})});
        QVERIFY(!notText.ok());
    }

    // Rates come from counters: commands sent between samples show as ops/s, FCALLs as
    // FCALL/s, and the server-side latency percentiles of the FCALLs appear.
    void ratesFromTheServer()
    {
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "100000"}).ok());
        ServerSampler sampler(*m_c);
        sampler.setInterval(300);
        QSignalSpy sampled(&sampler, &ServerSampler::sampled);
        sampler.start();
        QTRY_VERIFY_WITH_TIMEOUT(sampled.size() >= 1, 5000);
        QCOMPARE(sampler.nodeCount(), 1);
        QList<redis::Command> work;
        for (int i = 0; i < 40; ++i)
            work << deduct(QByteArray::number(1000 + i)) << redis::Command{"PING"};
        QVERIFY(m_c->callBatch(work).size() == 80);
        const NodeSeries &n = sampler.node(0);
        QTRY_VERIFY_WITH_TIMEOUT(n.fcallSinceStart.calls >= 40, 5000);
        QVERIFY(!n.opsPerSec.isEmpty());
        double maxOps = 0, maxFcall = 0;
        for (size_t i = 0; i < n.opsPerSec.size(); ++i)
            maxOps = qMax(maxOps, n.opsPerSec.at(i).value);
        for (size_t i = 0; i < n.fcallPerSec.size(); ++i)
            maxFcall = qMax(maxFcall, n.fcallPerSec.at(i).value);
        QVERIFY2(maxOps > 0, qPrintable(QString::number(maxOps)));
        QVERIFY2(maxFcall > 0, qPrintable(QString::number(maxFcall)));
        QVERIFY(maxOps >= maxFcall); // every FCALL is a command
        QVERIFY(!n.fcallP50Us.isEmpty());
        QVERIFY(n.fcallP99Us.last()->value >= n.fcallP50Us.last()->value);
        QCOMPARE(n.maxMemory.last()->value, 100.0 * 1024 * 1024);
        QVERIFY(n.usedMemory.last()->value > 100'000);
        QVERIFY(n.roundTripUs.last()->value > 0);
        QVERIFY(n.roundTripP99Us.last()->value >= n.roundTripP50Us.last()->value);
        QVERIFY(n.clients.last()->value >= 1);
        QVERIFY(n.lastError.isEmpty());
    }

    // The round trip charted is the network's and the server's: a reply that waits while this
    // thread is busy (a modal dialog on the GUI thread) is not counted as network time.
    void roundTripExcludesAStalledCaller()
    {
        // Long beside any round trip, even a sanitized one on a loaded machine: a third of it
        // is the bound.
        constexpr qint64 stallMs = 1500;
        ServerSampler sampler(*m_c);
        QSignalSpy sampled(&sampler, &ServerSampler::sampled);
        sampler.sampleNow();
        // The stimulus, not a wait: the server answers at once while this thread cannot run
        // the callback.
        QElapsedTimer busy;
        busy.start();
        while (busy.elapsed() < stallMs) {
        }
        QTRY_VERIFY_WITH_TIMEOUT(sampled.size() == 1, 5000);
        QVERIFY(!sampler.node(0).roundTripUs.isEmpty());
        const double us = sampler.node(0).roundTripUs.last()->value;
        QVERIFY2(us > 0 && us < stallMs * 1000 / 3,
                 qPrintable(QStringLiteral("%1 µs for a %2 ms stall").arg(us).arg(stallMs)));
        QCOMPARE(sampler.node(0).roundTripP99Us.last()->value, us);
    }

    // At 1 s, the sampler sends at most one batch (INFO + LATENCY HISTOGRAM) per node per
    // second: counted by the server itself, over a run of five samples however long it took.
    void roundTripBudget()
    {
        QVERIFY(m_c->call({"CONFIG", "RESETSTAT"}).ok());
        ServerSampler sampler(*m_c);
        sampler.setInterval(1000);
        const qint64 elapsedMs = testsupport::sampleUntil(sampler, 1, 5);
        QVERIFY(elapsedMs >= 0);
        QTRY_VERIFY(sampler.node(0).samples == sampler.node(0).batchesSent);
        const qint64 infos = commandCalls(*m_c, "info");
        const qint64 histograms = commandCalls(*m_c, "latency|histogram");
        // A sample at start, then one per second.
        const qint64 budget = testsupport::sampleBudget(elapsedMs, 1000);
        QVERIFY2(infos >= 5 && infos <= budget,
                 qPrintable(QStringLiteral("%1 INFO in %2 ms").arg(infos).arg(elapsedMs)));
        QCOMPARE(histograms, infos);
        QCOMPARE(sampler.node(0).batchesSent, infos);
        QVERIFY(sampler.node(0).samples <= budget);
    }

    // A watched SKU's stock, one GET per SKU per interval; a missing key is a gap with a reason.
    void watchedStock()
    {
        QVERIFY(m_c->call({"SET", "stock:{7}:available", "10"}).ok());
        StockWatcher w(*m_c);
        w.setInterval(200);
        QSignalSpy sampled(&w, &StockWatcher::sampled);
        QVERIFY(w.watch("7", "stock:{7}:available"));
        QVERIFY(!w.watch("7", "stock:{7}:available"));
        QVERIFY(w.watch("8", "stock:{8}:available"));
        w.start();
        QTRY_VERIFY(sampled.size() >= 1);
        QCOMPARE(w.at(0).stock.last()->value, 10.0);
        QVERIFY(w.at(1).stock.isEmpty());
        QVERIFY(w.at(1).problem.contains(QLatin1String("does not exist")));
        QVERIFY(m_c->call({"DECRBY", "stock:{7}:available", "3"}).ok());
        QTRY_COMPARE(w.at(0).stock.last()->value, 7.0);
        QVERIFY(m_c->call({"SET", "stock:{8}:available", "1.5"}).ok());
        QTRY_VERIFY(w.at(1).problem.contains(QLatin1String("not an integer")));
        w.unwatch("7");
        QCOMPARE(w.count(), 1);
        QCOMPARE(w.at(0).sku, QByteArray("8"));
    }

    // SLOWLOG GET, with FCALL entries marked.
    void slowLog()
    {
        QVERIFY(m_c->call({"SLOWLOG", "RESET"}).ok());
        QVERIFY(m_c->call({"CONFIG", "SET", "slowlog-log-slower-than", "0"}).ok());
        QVERIFY(m_c->call(deduct("5")).ok());
        QVERIFY(m_c->call({"GET", "slowlog-marker"}).ok());
        QVERIFY(m_c->call({"CONFIG", "SET", "slowlog-log-slower-than", "10000"}).ok());
        SlowLogReader reader(*m_c);
        QSignalSpy done(&reader, &SlowLogReader::finished);
        reader.read();
        QTRY_COMPARE(done.size(), 1);
        const auto entries = done.at(0).at(0).value<QList<SlowLogEntry>>();
        QVERIFY(done.at(0).at(1).toStringList().isEmpty());
        int scripts = 0, gets = 0;
        for (const SlowLogEntry &e : entries) {
            scripts += e.isScript() ? 1 : 0;
            gets += e.args.value(1) == "slowlog-marker" && !e.isScript() ? 1 : 0;
            QCOMPARE(e.node, m_c->address());
        }
        QCOMPARE(scripts, 1);
        QCOMPARE(gets, 1);
        SlowLogModel model;
        model.setEntries(entries);
        QCOMPARE(model.rowCount(), entries.size());
        int marked = 0;
        for (int r = 0; r < model.rowCount(); ++r)
            marked += model.index(r, 0).data(SlowLogModel::ScriptRole).toBool() ? 1 : 0;
        QCOMPARE(marked, 1);
    }

    // Receipt expiry buckets from a real scan.
    void receiptExpiryFromAScan()
    {
        const qint64 min = 60, hour = 3600, day = 86400;
        QList<redis::Command> seed{{"SET", "stock:{9}:available", "5"},
                                   {"SET", "idem:{9}:a", "4", "EX", QByteArray::number(30)},
                                   {"SET", "idem:{9}:b", "4", "EX", QByteArray::number(50)},
                                   {"SET", "idem:{9}:c", "4", "EX", QByteArray::number(30 * min)},
                                   {"SET", "idem:{9}:d", "4", "EX", QByteArray::number(5 * hour)},
                                   {"SET", "idem:{9}:e", "4", "EX", QByteArray::number(3 * day)},
                                   {"SET", "idem:{9}:f", "4", "EX", QByteArray::number(30 * day)},
                                   {"SET", "idem:{9}:g", "4"}};
        for (const auto &r : m_c->callBatch(seed))
            QVERIFY(r.ok());
        browse::InventoryScan scan(*m_c, inventory::KeySchema());
        QSignalSpy finished(&scan, &browse::InventoryScan::finished);
        scan.start({});
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QVERIFY(finished.at(0).at(0).toBool());
        const ReceiptExpiry e = receiptExpiry(scan.store(), QDateTime::currentMSecsSinceEpoch());
        QCOMPARE(e.receipts, 7);
        QCOMPARE(e.counts[ReceiptExpiry::Minute], 2);
        QCOMPARE(e.counts[ReceiptExpiry::Hour], 1);
        QCOMPARE(e.counts[ReceiptExpiry::Day], 1);
        QCOMPARE(e.counts[ReceiptExpiry::Week], 1);
        QCOMPARE(e.counts[ReceiptExpiry::Later], 1);
        QCOMPARE(e.counts[ReceiptExpiry::NoTtl], 1);
        QCOMPARE(e.within(ReceiptExpiry::Hour), 3);
        QCOMPARE(e.within(ReceiptExpiry::Week), 5);
        // Two minutes on, the two short ones have expired since the scan.
        const ReceiptExpiry later =
            receiptExpiry(scan.store(), QDateTime::currentMSecsSinceEpoch() + 2 * 60'000);
        QCOMPARE(later.counts[ReceiptExpiry::Expired], 2);
    }
};

QTEST_GUILESS_MAIN(TstMetricsSampler)
#include "tst_metrics_sampler.moc"
