// SPDX-License-Identifier: GPL-3.0-or-later
#include "CliRunner.h"
#include "RedisFixture.h"
#include "inventory/AuditLog.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace redis;
using testsupport::runCli;

// inventory-cli given one cluster node's URL works on the whole cluster: deductions reach
// the primary owning each SKU, `keys` counts the SKUs of every primary, `order` finds a
// receipt on any primary, and `ping` and `functions status/diff` answer for the node.
class TstCliCluster : public QObject
{
    Q_OBJECT

    testsupport::RedisCluster m_cluster;
    static constexpr int Skus = 60;

    QString url() const
    {
        return QStringLiteral("redis://127.0.0.1:%1").arg(m_cluster.nodes().first().port);
    }

    // A SKU whose stock lives on a primary other than the seed (node 0), and that primary's
    // index (-1 when none was found).
    std::pair<QString, int> skuOffTheSeed() const
    {
        for (int i = 0; i < Skus; ++i) {
            const QString sku = QStringLiteral("sku-%1").arg(i);
            for (int n = 1; n < 3; ++n)
                if (m_cluster.connectNode(n)
                        ->call({"EXISTS", "stock:{" + sku.toUtf8() + "}:available"})
                        .ok())
                    return {sku, n};
        }
        return {QString(), -1};
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString()));
        // FUNCTION LOAD is not propagated between shards: every primary gets the library.
        const QByteArray library =
            testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua"));
        for (int i = 0; i < 3; ++i) {
            auto node = m_cluster.connectNode(i);
            auto loaded = node->call({"FUNCTION", "LOAD", "REPLACE", library});
            QVERIFY2(loaded.ok(),
                     qPrintable(loaded.ok() ? QString() : loaded.error().message.english));
        }
        for (int i = 0; i < Skus; ++i) {
            const QByteArray key = "stock:{sku-" + QByteArray::number(i) + "}:available";
            // Written on the owning node, found by following the redirect by hand.
            for (int n = 0; n < 3; ++n)
                if (m_cluster.connectNode(n)->call({"SET", key, "10"}).ok())
                    break;
        }
    }

    void deductionsReachEveryPrimary()
    {
        QSet<int> nodesUsed;
        for (int i = 0; i < Skus; i += 7) {
            const QString sku = QStringLiteral("sku-%1").arg(i);
            const auto run =
                runCli({QStringLiteral("deduct"), QStringLiteral("--url"), url(),
                        QStringLiteral("--sku"), sku, QStringLiteral("--order"),
                        QStringLiteral("o-1"), QStringLiteral("--quantity"), QStringLiteral("3")});
            QVERIFY2(run.exitCode == 0, run.out + run.err);
            const QByteArray key = "stock:{" + sku.toUtf8() + "}:available";
            for (int n = 0; n < 3; ++n) {
                auto value = m_cluster.connectNode(n)->call({"GET", key});
                if (value.ok()) {
                    QCOMPARE(value->bytes(), QByteArray("7"));
                    nodesUsed << n;
                }
            }
        }
        QCOMPARE(nodesUsed.size(), 3);
    }

    // Issue 28: a deduction on a SKU the seed does not own was recorded as the seed's, with
    // the owner's run_id. The JSON and the audit record name the node that ran it.
    void deductionNamesTheSlotOwner()
    {
        const auto [sku, owner] = skuOffTheSeed();
        QVERIFY(owner > 0); // not the seed
        const QString ownerAddress =
            QStringLiteral("127.0.0.1:%1").arg(m_cluster.nodes().at(owner).port);
        QByteArray runId;
        for (const QByteArray &l :
             m_cluster.connectNode(owner)->call({"INFO", "server"})->bytes().split('\n'))
            if (l.startsWith("run_id:"))
                runId = l.mid(7).trimmed();
        QTemporaryDir dir;
        const QString audit = dir.filePath("audit.jsonl");
        const auto run =
            runCli({QStringLiteral("deduct"), QStringLiteral("--url"), url(),
                    QStringLiteral("--audit-log"), audit, QStringLiteral("--sku"), sku,
                    QStringLiteral("--order"), QStringLiteral("o-owner"),
                    QStringLiteral("--quantity"), QStringLiteral("1"), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        const QJsonObject j = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(j.value("server").toString(), ownerAddress);
        QCOMPARE(j.value("run_id").toString(), QString::fromLatin1(runId));
        const auto records = inventory::pairAttempts(inventory::AuditLog::read(audit).records);
        QCOMPARE(records.size(), 1);
        QCOMPARE(records.first().server, ownerAddress);
        QCOMPARE(records.first().runId, QString::fromLatin1(runId));
    }

    void pingSaysCluster()
    {
        const auto run = runCli({QStringLiteral("ping"), QStringLiteral("--url"), url()});
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        QVERIFY2(run.out.contains("cluster"), run.out);
        QVERIFY2(run.out.contains("may call inventory_deduct_v1  allowed"), run.out);
    }

    // Receipts written through the CLI on every primary: `order` finds each, whichever node
    // the URL names, and says what its deduction left.
    void orderFindsReceiptsOnEveryPrimary()
    {
        for (int i = 1; i < Skus; i += 7) {
            const QString sku = QStringLiteral("sku-%1").arg(i);
            const auto d = runCli({QStringLiteral("deduct"), QStringLiteral("--url"), url(),
                                   QStringLiteral("--sku"), sku, QStringLiteral("--order"),
                                   QStringLiteral("o-find"), QStringLiteral("--quantity"),
                                   QStringLiteral("2")});
            QVERIFY2(d.exitCode == 0, d.out + d.err);
        }
        const auto run = runCli({QStringLiteral("order"), QStringLiteral("--url"), url(),
                                 QStringLiteral("o-find"), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        for (int i = 1; i < Skus; i += 7)
            QVERIFY2(run.out.contains("idem:{sku-" + QByteArray::number(i) + "}:o-find"), run.out);
        QVERIFY2(run.out.count("o-find") >= (Skus - 1) / 7 + 1, run.out);
    }

    void functionsStatusAndDiffAnswer()
    {
        const auto status = runCli({QStringLiteral("functions"), QStringLiteral("status"),
                                    QStringLiteral("--url"), url()});
        QVERIFY2(status.exitCode == 0, status.out + status.err);
        QVERIFY2(status.out.contains("inventory_lib_v1"), status.out);
        QVERIFY2(status.out.contains("inventory_deduct_v1"), status.out);
        const auto diff =
            runCli({QStringLiteral("functions"), QStringLiteral("diff"), QStringLiteral("--url"),
                    url(), QStringLiteral(INVENTORY_SOURCE_DIR "/functions/inventory_lib_v1.lua")});
        QVERIFY2(diff.exitCode == 0, diff.out + diff.err);
        QVERIFY2(diff.out.contains("no-change"), diff.out);
    }

    void theAnnouncedMapIsWhatTheRouterConnectsTo()
    {
        // A SKU whose primary is not the seed, and a map that sends that primary's announced
        // address to a port nothing listens on: the deduction cannot reach it, and says so.
        const auto [sku, owner] = skuOffTheSeed();
        QVERIFY(owner > 0);
        const QByteArray key = "stock:{" + sku.toUtf8() + "}:available";
        const QByteArray before = m_cluster.connectNode(owner)->call({"GET", key})->bytes();
        const QString announced =
            QStringLiteral("127.0.0.1:%1").arg(m_cluster.nodes().at(owner).port);
        const auto run = runCli(
            {QStringLiteral("deduct"), QStringLiteral("--url"), url(),
             QStringLiteral("--announced-map"), announced + "=127.0.0.1:1", QStringLiteral("--sku"),
             sku, QStringLiteral("--order"), QStringLiteral("o-map"), QStringLiteral("--quantity"),
             QStringLiteral("1"), QStringLiteral("--timeout-ms"), QStringLiteral("1500")});
        QVERIFY2(run.exitCode != 0, run.out + run.err);
        QCOMPARE(m_cluster.connectNode(owner)->call({"GET", key})->bytes(), before);

        // A line that is not a mapping is refused before anything connects.
        const auto bad =
            runCli({QStringLiteral("deduct"), QStringLiteral("--url"), url(),
                    QStringLiteral("--announced-map"), QStringLiteral("10.0.0.5"),
                    QStringLiteral("--sku"), sku, QStringLiteral("--order"),
                    QStringLiteral("o-map"), QStringLiteral("--quantity"), QStringLiteral("1")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--announced-map: '10.0.0.5' is not an address mapping"),
                 bad.err);
    }

    void keysCountsTheSkusOfEveryPrimary()
    {
        const auto run = runCli({QStringLiteral("keys"), QStringLiteral("--url"), url(),
                                 QStringLiteral("--summary"), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        QVERIFY2(run.out.contains("\"skus\":" + QByteArray::number(Skus)), run.out);
    }
};

QTEST_GUILESS_MAIN(TstCliCluster)
#include "tst_cli_cluster.moc"
