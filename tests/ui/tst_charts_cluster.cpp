// SPDX-License-Identifier: GPL-3.0-or-later
// On a cluster, the server charts sample every primary and draw one set of series per node.
#include "RedisFixture.h"
#include "SamplerRun.h"
#include "metrics/ServerSampler.h"
#include "overview/ServerOverview.h"
#include "redis/ClusterRouter.h"
#include "ui/charts/ChartPanel.h"
#include "ui/charts/ServerChartsPage.h"

#include <QAbstractSeries>
#include <QChart>
#include <QTest>

class TstChartsCluster : public QObject
{
    Q_OBJECT

    testsupport::RedisCluster m_cluster;

private slots:
    void initTestCase() { QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString())); }

    void oneSeriesSetPerNode()
    {
        redis::ClusterRouter::Options o;
        o.seed = m_cluster.nodes().first();
        redis::ClusterRouter router(o);
        router.open();
        router.waitUntilDiscovered(5000);
        QCOMPARE(router.scanNodes().size(), 3);

        metrics::ServerSampler sampler(router);
        sampler.setInterval(300);
        ui::ServerChartsPage page(sampler);
        page.resize(1200, 900);
        sampler.start();
        QTRY_COMPARE_WITH_TIMEOUT(sampler.nodeCount(), 3, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(sampler.node(0).samples >= 3 && sampler.node(1).samples >= 3
                                     && sampler.node(2).samples >= 3,
                                 10000);
        QStringList nodes;
        for (int i = 0; i < 3; ++i) {
            nodes << sampler.node(i).name;
            QVERIFY(sampler.node(i).lastError.isEmpty());
            QVERIFY(!sampler.node(i).opsPerSec.isEmpty());
        }
        nodes.removeDuplicates();
        QCOMPARE(nodes.size(), 3);
        // Memory: used and maxmemory per node; every series names its node.
        for (ui::ChartPanel *p : page.panels()) {
            const QList<QAbstractSeries *> series = p->chart()->series();
            if (p->fileStem().contains(QLatin1String("distribution")))
                continue; // bars per node only once FCALLs ran
            QCOMPARE(series.size() % 3, 0);
            for (const QString &node : nodes) {
                int named = 0;
                for (QAbstractSeries *s : series)
                    named += s->name().contains(node) ? 1 : 0;
                QVERIFY2(named == series.size() / 3,
                         qPrintable(p->fileStem() + QStringLiteral(": ") + node));
            }
        }
        // Each node got at most one batch per interval from the sampler.
        for (int i = 0; i < 3; ++i)
            QVERIFY(sampler.node(i).batchesSent <= sampler.node(i).samples + 1);
        sampler.stop();
    }

    // At 1 s, each primary gets at most one sample batch per second, counted by the node.
    void roundTripBudgetPerNode()
    {
        redis::ClusterRouter::Options o;
        o.seed = m_cluster.nodes().first();
        redis::ClusterRouter router(o);
        router.open();
        router.waitUntilDiscovered(5000);
        std::vector<std::unique_ptr<redis::RedisClient>> nodes;
        for (int i = 0; i < 3; ++i) {
            nodes.push_back(m_cluster.connectNode(i));
            QVERIFY(nodes.back()->call({"CONFIG", "RESETSTAT"}).ok());
        }
        metrics::ServerSampler sampler(router);
        // Three samples from each node, however long they take.
        const qint64 elapsedMs = testsupport::sampleUntil(sampler, 3, 3);
        QVERIFY(elapsedMs >= 0);
        const qint64 budget = testsupport::sampleBudget(elapsedMs, 1000);
        for (int i = 0; i < 3; ++i) {
            const auto info = nodes[size_t(i)]->call({"INFO", "commandstats"});
            QVERIFY(info.ok());
            const auto calls = metrics::decodeCommandStats(overview::parseInfo(info->bytes()));
            QVERIFY(calls.ok());
            const qint64 infos = calls->value("info"),
                         histograms = calls->value("latency|histogram");
            QVERIFY2(
                infos >= 3 && infos <= budget,
                qPrintable(
                    QStringLiteral("node %1: %2 INFO in %3 ms").arg(i).arg(infos).arg(elapsedMs)));
            QCOMPARE(histograms, infos);
        }
    }
};

QTEST_MAIN(TstChartsCluster)
#include "tst_charts_cluster.moc"
