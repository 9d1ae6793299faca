// SPDX-License-Identifier: GPL-3.0-or-later
// A console window on a real 3-primary Redis Cluster, offscreen: the status bar says what it
// talks to, the key browser shows keys of every primary with the node and slot each lives in,
// a deduction goes straight to the primary owning its slot, keys in two slots are refused
// before anything is sent, the overview has one row per node, and a primary that
// stops answering (SIGSTOP) is named as down while the other nodes' keys stay. On a
// standalone server none of that clutters the window.
#include "AuditTrail.h"
#include "DialogAnswer.h"
#include "RedisFixture.h"
#include "browse/ModelRoles.h"
#include "overview/ServerOverview.h"
#include "redis/Slot.h"
#include "ui/ClusterNodesBox.h"
#include "ui/MainWindow.h"
#include "ui/ServerOverviewPanel.h"
#include "ui/browse/BrowserPanel.h"
#include "ui/browse/FlatKeyView.h"
#include "ui/browse/KeyActionDialog.h"
#include "ui/browse/SkuBrowserView.h"
#include "ui/deduct/ConfirmDeductionDialog.h"
#include "ui/deduct/DeductionForm.h"
#include "ui/deduct/DeductionPanel.h"
#include "ui/deduct/ResultCard.h"
#include "ui/functions/NodeMatrixView.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using testsupport::RedisCluster;
using testsupport::StandaloneRedis;

namespace {

QString labelText(QWidget *root, const char *name)
{
    auto *l = root->findChild<QLabel *>(QLatin1String(name));
    return l ? l->text() : QStringLiteral("<no label %1>").arg(QLatin1String(name));
}

std::unique_ptr<ui::MainWindow> openWindow(const redis::ConnectionOptions &o,
                                           const QString &stockTemplate = {},
                                           const QString &receiptTemplate = {},
                                           const QStringList &announcedMap = {})
{
    profiles::ConnectionProfile profile;
    profile.name = QStringLiteral("cluster");
    profile.host = o.host;
    profile.port = o.port;
    profile.environment = QStringLiteral("test");
    profile.timeoutMs = 2000;
    profile.announcedMap = announcedMap;
    if (!stockTemplate.isEmpty()) {
        profile.stockKeyTemplate = stockTemplate;
        profile.receiptKeyTemplate = receiptTemplate;
    }
    auto w = std::make_unique<ui::MainWindow>(
        std::make_unique<session::ConsoleSession>(profile, o.password));
    w->resize(1400, 900);
    w->show();
    return w;
}

// "calls=N" of one command in INFO commandstats (0 when it never ran).
qint64 calls(redis::RedisClient &node, const QByteArray &command)
{
    const auto info = overview::parseInfo(node.call({"INFO", "commandstats"})->bytes());
    const QByteArray stat = info.value("cmdstat_" + command);
    const qsizetype at = stat.indexOf("calls=");
    return at < 0 ? 0 : stat.mid(at + 6, stat.indexOf(',', at) - at - 6).toLongLong();
}

// The MOVED replies a node has sent (INFO errorstats).
qint64 movedReplies(redis::RedisClient &node)
{
    const auto info = overview::parseInfo(node.call({"INFO", "errorstats"})->bytes());
    const QByteArray stat = info.value("errorstat_MOVED");
    return stat.isEmpty() ? 0 : stat.mid(stat.indexOf('=') + 1).toLongLong();
}

} // namespace

class TstClusterConsole : public QObject
{
    Q_OBJECT

    RedisCluster m_cluster;
    QTemporaryDir m_data;
    QList<QByteArray> m_skus; // m_skus[i]: a SKU whose slot node i serves
    QList<std::shared_ptr<redis::RedisClient>> m_nodes;

    QString address(int node) const
    {
        return QStringLiteral("127.0.0.1:%1").arg(m_cluster.nodes().at(node).port);
    }

    static browse::SkuTableModel &skus(ui::MainWindow &w)
    {
        return w.findChild<ui::BrowserPanel *>()->skuView()->skuModel();
    }

    // The row of a SKU in the browser's SKU table, -1 when it is not shown.
    static int rowOf(browse::SkuTableModel &model, const QByteArray &sku)
    {
        for (int row = 0; row < model.rowCount(); ++row)
            if (model.index(row, browse::SkuTableModel::Sku).data(browse::RawBytesRole) == sku)
                return row;
        return -1;
    }

    // Opens the Keys tab and waits for the scan that began once the topology was known.
    static void scanKeys(ui::MainWindow &w)
    {
        auto *panel = w.findChild<ui::BrowserPanel *>();
        QSignalSpy finished(panel, &ui::BrowserPanel::scanFinished);
        QVERIFY(w.showTab(QStringLiteral("Keys")));
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() >= 1, 20000);
    }

private slots:
    void initTestCase()
    {
        qputenv("INVENTORY_DATA_DIR", m_data.path().toUtf8());
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString()));
        for (int i = 0; i < 3; ++i)
            m_nodes << std::shared_ptr<redis::RedisClient>(m_cluster.connectNode(i));
        // Redis does not copy libraries between primaries: each is loaded on its own.
        for (auto &node : m_nodes)
            QVERIFY(node->call({"FUNCTION", "LOAD", "REPLACE",
                                testsupport::functionSource("inventory_lib_v1.lua")})
                        .ok());
        // One SKU per primary: a node refuses (MOVED) a key whose slot it does not serve.
        for (int i = 0; i < 3; ++i) {
            for (int n = 0; n < 1000; ++n) {
                const QByteArray sku = "sku-" + QByteArray::number(n);
                if (m_skus.contains(sku))
                    continue;
                if (m_nodes[i]->call({"SET", "stock:{" + sku + "}:available", "50"}).ok()) {
                    QVERIFY(m_nodes[i]
                                ->call({"SET", "idem:{" + sku + "}:order-1", "7", "EX", "3600"})
                                .ok());
                    m_skus << sku;
                    break;
                }
            }
        }
        QCOMPARE(m_skus.size(), 3);
    }

    void cleanup()
    {
        // A test that failed with a primary stopped must not leave it stopped.
        for (int i = 0; i < 3; ++i)
            ::kill(pid_t(m_cluster.pid(i)), SIGCONT);
    }

    void statusBarAndBrowserShowEveryPrimary()
    {
        auto w = openWindow(m_cluster.nodes().first());
        QTRY_COMPARE_WITH_TIMEOUT(labelText(w.get(), "serverMode"),
                                  QStringLiteral("cluster, 3 primaries"), 10000);
        // The seed's own role would describe one node of three.
        QVERIFY(!w->findChild<QLabel *>(QStringLiteral("serverRole"))->isVisible());

        browse::SkuTableModel &model = skus(*w);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        scanKeys(*w);
        QCOMPARE(model.columnCount(), int(browse::SkuTableModel::ColumnCount));
        QCOMPARE(model.headerData(browse::SkuTableModel::Node, Qt::Horizontal).toString(),
                 QStringLiteral("Node"));
        for (int i = 0; i < 3; ++i) {
            const int row = rowOf(model, m_skus[i]);
            QVERIFY2(row >= 0, m_skus[i].constData());
            const QByteArray key = "stock:{" + m_skus[i] + "}:available";
            // The node KEYS lists the key on, and the slot the server computes.
            QCOMPARE(m_nodes[i]->call({"KEYS", key})->array()->size(), 1);
            QCOMPARE(model.index(row, browse::SkuTableModel::Node).data().toString(), address(i));
            QCOMPARE(model.index(row, browse::SkuTableModel::Slot).data().toLongLong(),
                     m_nodes[0]->call({"CLUSTER", "KEYSLOT", key})->toInteger());
        }
        // Per node progress, one entry per primary.
        const QString nodes = labelText(w.get(), "scanNodes");
        for (int i = 0; i < 3; ++i)
            QVERIFY2(nodes.contains(address(i) + " done"), qPrintable(nodes));
        // Walked through the key browser's own lane, which found every primary itself.
        for (int i = 0; i < 3; ++i) {
            const QByteArray clients = m_nodes[i]->call({"CLIENT", "LIST"})->bytes();
            QVERIFY2(clients.contains(" name=inventory-console-scans "), clients.constData());
        }

        // The SKU's receipts carry the same node.
        auto *view = w->findChild<ui::BrowserPanel *>()->skuView();
        view->selectSku(model.skuAt(rowOf(model, m_skus[2])));
        browse::ReceiptTableModel &receipts = view->receiptModel();
        QTRY_COMPARE(receipts.rowCount(), 1);
        QCOMPARE(receipts.index(0, browse::ReceiptTableModel::Node).data().toString(), address(2));

        // The All keys view too: every key of the pattern, from whichever primary holds it.
        ui::FlatKeyView *flat = w->findChild<ui::BrowserPanel *>()->flatView();
        flat->scan("stock:{*");
        browse::FlatKeyModel &keys = flat->model();
        QTRY_COMPARE_WITH_TIMEOUT(keys.rowCount(), int(m_skus.size()), 10000);
        QCOMPARE(keys.columnCount(), int(browse::FlatKeyModel::ColumnCount));
        QCOMPARE(keys.headerData(browse::FlatKeyModel::Node, Qt::Horizontal).toString(),
                 QStringLiteral("Node"));
        for (int i = 0; i < 3; ++i) {
            const QByteArray key = "stock:{" + m_skus[i] + "}:available";
            int row = -1;
            for (int r = 0; r < keys.rowCount(); ++r)
                if (keys.index(r, browse::FlatKeyModel::Key).data(browse::KeyRole).toByteArray()
                    == key)
                    row = r;
            QVERIFY2(row >= 0, key.constData());
            QCOMPARE(keys.index(row, browse::FlatKeyModel::Node).data().toString(), address(i));
            QCOMPARE(keys.index(row, browse::FlatKeyModel::Slot).data().toLongLong(),
                     m_nodes[0]->call({"CLUSTER", "KEYSLOT", key})->toInteger());
        }

        // The overview: one row per node, with its slots and keys.
        QTableWidget *table = w->findChild<ui::ClusterNodesBox *>()->table();
        w->refreshAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), 3, 10000);
        QTRY_VERIFY(!table->item(0, ui::ClusterNodesBox::Keys)->text().isEmpty());
        for (int row = 0; row < 3; ++row) {
            QCOMPARE(table->item(row, ui::ClusterNodesBox::Role)->text(),
                     QStringLiteral("primary"));
            QVERIFY(table->item(row, ui::ClusterNodesBox::Slots)->text().contains('-'));
            QVERIFY2(table->item(row, ui::ClusterNodesBox::Libraries)
                         ->text()
                         .startsWith("inventory_lib_v1 "),
                     qPrintable(table->item(row, ui::ClusterNodesBox::Libraries)->text()));
            int node = -1;
            for (int i = 0; i < 3; ++i)
                if (table->item(row, ui::ClusterNodesBox::Node)->text() == address(i))
                    node = i;
            QVERIFY(node >= 0 && node < 3);
            QCOMPARE(table->item(row, ui::ClusterNodesBox::Keys)->text(),
                     QLocale().toString(m_nodes[node]->call({"DBSIZE"})->toInteger()));
        }
    }

    void aDeductionGoesStraightToTheOwningPrimary()
    {
        auto w = openWindow(m_cluster.nodes().first());
        QTRY_COMPARE_WITH_TIMEOUT(labelText(w.get(), "serverMode"),
                                  QStringLiteral("cluster, 3 primaries"), 10000);
        qint64 fcalls[3], moved[3];
        for (int i = 0; i < 3; ++i) {
            fcalls[i] = calls(*m_nodes[i], "fcall");
            moved[i] = movedReplies(*m_nodes[i]);
        }
        auto *panel = w->findChild<ui::DeductionPanel *>();
        QVERIFY(w->showTab(QStringLiteral("Deductions")));
        // Node 2 is not the seed: a command sent to the seed would come back MOVED.
        panel->prefill(QString::fromUtf8(m_skus[2]), QStringLiteral("order-77"));
        auto *quantity = panel->findChild<QLineEdit *>(QStringLiteral("quantity"));
        quantity->selectAll();
        QTest::keyClicks(quantity, QStringLiteral("3"));
        panel->runFromForm();
        QTRY_VERIFY(panel->pendingConfirmation());
        // Issue 28: the confirmation named the seed and gave redis-cli without -c. It names
        // node 2, the slot's owner, and a redis-cli -c line aimed at it.
        const QString owner = QStringLiteral("127.0.0.1:%1").arg(m_cluster.nodes().at(2).port);
        QCOMPARE(panel->pendingConfirmation()->serverText(), owner);
        const QString cli = panel->pendingConfirmation()->redisCliCommand();
        QVERIFY2(cli.startsWith(QStringLiteral("redis-cli -c -h 127.0.0.1 -p %1 FCALL ")
                                    .arg(m_cluster.nodes().at(2).port)),
                 qPrintable(cli));
        QTest::mouseClick(panel->pendingConfirmation()->runButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(panel->resultCard()->entryId() != 0, 10000);
        QCOMPARE(panel->resultCard()->titleText(), QStringLiteral("Deducted — remaining 47"));
        QCOMPARE(m_nodes[2]->call({"GET", "stock:{" + m_skus[2] + "}:available"})->bytes(),
                 QByteArray("47"));
        QCOMPARE(calls(*m_nodes[2], "fcall"), fcalls[2] + 1);
        // The run_id shown (and audited) is the node's that ran it, not the seed's.
        const QByteArray runId =
            overview::parseInfo(m_nodes[2]->call({"INFO", "server"})->bytes()).value("run_id");
        const QString detail = labelText(panel->resultCard(), "resultDetail");
        QVERIFY2(detail.contains("server run_id " + QString::fromLatin1(runId.left(12))),
                 qPrintable(detail));
        for (int i = 0; i < 3; ++i) {
            if (i != 2)
                QCOMPARE(calls(*m_nodes[i], "fcall"), fcalls[i]);
            QCOMPARE(movedReplies(*m_nodes[i]), moved[i]);
        }
        QVERIFY(m_nodes[2]->call({"SET", "stock:{" + m_skus[2] + "}:available", "50"}).ok());
        QVERIFY(m_nodes[2]->call({"DEL", "idem:{" + m_skus[2] + "}:order-77"}).ok());
    }

    // Issue 28: a key action on a cluster names, in its confirmation and its audit record, the
    // primary owning the key's slot and that node's run_id, not the seed's.
    void aKeyActionNamesAndAuditsTheOwningPrimary()
    {
        auto w = openWindow(m_cluster.nodes().first());
        QTRY_COMPARE_WITH_TIMEOUT(labelText(w.get(), "serverMode"),
                                  QStringLiteral("cluster, 3 primaries"), 10000);
        scanKeys(*w);
        auto *panel = w->findChild<ui::BrowserPanel *>();
        panel->skuView()->selectSku(panel->inventoryScan().store().findSku(m_skus[2]));
        QString badge, node;
        testsupport::answerNextDialog<ui::KeyActionDialog>(
            "confirmAction", [&](ui::KeyActionDialog *d) {
                badge = d->findChild<QLabel *>("environmentBadge")->text();
                node = d->findChild<QLabel *>("commandNode")->text();
                d->findChild<QLineEdit *>("newStock")->setText("51");
            });
        QSignalSpy audited(panel, &ui::BrowserPanel::auditRecorded);
        panel->skuView()->findChild<QPushButton *>("setStock")->click();
        QCOMPARE(badge, QStringLiteral("TEST"));
        QCOMPARE(node, "Runs on " + address(2));
        QTRY_COMPARE_WITH_TIMEOUT(audited.count(), 1, 10000);
        QCOMPARE(m_nodes[2]->call({"GET", "stock:{" + m_skus[2] + "}:available"})->bytes(),
                 QByteArray("51"));
        const auto trail = testsupport::readAuditTrail(w->session().auditLogPath());
        QVERIFY2(trail.problem.isEmpty(), qPrintable(trail.problem));
        const inventory::AuditRecord &r = trail.writes.last();
        QCOMPARE(r.action, QStringLiteral("set_stock"));
        QCOMPARE(r.server, address(2));
        QCOMPARE(r.runId, QString::fromLatin1(
                              overview::parseInfo(m_nodes[2]->call({"INFO", "server"})->bytes())
                                  .value("run_id")));
        QVERIFY(m_nodes[2]->call({"SET", "stock:{" + m_skus[2] + "}:available", "50"}).ok());
    }

    void keysInTwoSlotsAreRefusedUnsent()
    {
        // Templates without a hash tag put the stock and the receipt in different slots.
        auto w = openWindow(m_cluster.nodes().first(), QStringLiteral("stock:<sku>"),
                            QStringLiteral("idem:<sku>:<order>"));
        QTRY_COMPARE_WITH_TIMEOUT(labelText(w.get(), "serverMode"),
                                  QStringLiteral("cluster, 3 primaries"), 10000);
        qint64 fcalls[3];
        for (int i = 0; i < 3; ++i)
            fcalls[i] = calls(*m_nodes[i], "fcall");
        auto *panel = w->findChild<ui::DeductionPanel *>();
        QVERIFY(w->showTab(QStringLiteral("Deductions")));
        panel->prefill(QStringLiteral("42"), QStringLiteral("9001"));
        auto *quantity = panel->findChild<QLineEdit *>(QStringLiteral("quantity"));
        quantity->selectAll();
        QTest::keyClicks(quantity, QStringLiteral("1"));
        // The plan refuses it before anything is asked (the router would too, unsent).
        // runFromForm opens its confirmation before it returns when there is one
        // (tst_deduct_panel's differentSlotsRefuseInline), and nothing is sent without one.
        panel->runFromForm();
        QVERIFY(!panel->pendingConfirmation());
        const QString refusal = labelText(panel, "slotMessage");
        QVERIFY2(refusal.startsWith("Refused:") && refusal.contains("different cluster slots"),
                 qPrintable(refusal));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(calls(*m_nodes[i], "fcall"), fcalls[i]);
    }

    void aStoppedPrimaryIsNamedAndTheOthersKeysStay()
    {
        auto w = openWindow(m_cluster.nodes().first());
        QTRY_COMPARE_WITH_TIMEOUT(labelText(w.get(), "serverMode"),
                                  QStringLiteral("cluster, 3 primaries"), 10000);
        auto *panel = w->findChild<ui::BrowserPanel *>();
        panel->setScanTimeoutMs(1500);
        scanKeys(*w);
        QVERIFY(rowOf(skus(*w), m_skus[2]) >= 0);
        auto *matrix = w->findChild<ui::NodeMatrixView *>();
        QVERIFY(matrix);
        QTRY_VERIFY_WITH_TIMEOUT(matrix->summary()->text().startsWith("In line"), 20000);

        QCOMPARE(::kill(pid_t(m_cluster.pid(2)), SIGSTOP), 0);
        auto resume = qScopeGuard([&] { ::kill(pid_t(m_cluster.pid(2)), SIGCONT); });
        QSignalSpy finished(panel, &ui::BrowserPanel::scanFinished);
        panel->rescan();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() >= 1, 20000);
        QCOMPARE(finished.first().first().toBool(), false);
        const QString nodes = labelText(w.get(), "scanNodes");
        QVERIFY2(nodes.contains(address(2) + " FAILED"), qPrintable(nodes));
        QVERIFY2(panel->statusText().startsWith("Scan incomplete: node " + address(2))
                     && panel->statusText().contains("the keys of the other nodes are shown"),
                 qPrintable(panel->statusText()));
        browse::SkuTableModel &model = skus(*w);
        QVERIFY(rowOf(model, m_skus[0]) >= 0);
        QVERIFY(rowOf(model, m_skus[1]) >= 0);
        QCOMPARE(rowOf(model, m_skus[2]), -1);
        // The status bar names the primary that is down once its connection gave up.
        QTRY_VERIFY_WITH_TIMEOUT(labelText(w.get(), "serverMode").contains("down: " + address(2)),
                                 20000);
        // The Libraries tab reads the nodes again: it no longer says "In line" about them.
        QTRY_VERIFY_WITH_TIMEOUT(
            matrix->summary()->text().startsWith("Not every node could be checked"), 20000);
        resume.dismiss();
        QCOMPARE(::kill(pid_t(m_cluster.pid(2)), SIGCONT), 0);
        QTRY_COMPARE_WITH_TIMEOUT(labelText(w.get(), "serverMode"),
                                  QStringLiteral("cluster, 3 primaries"), 30000);
    }

    // The cluster calls the primary healthy, but this console cannot reach it (the profile
    // maps it to a port nothing listens on): the status bar still names it down, by the
    // address the console tried.
    void aPrimaryThisConsoleCannotReachIsNamedDown()
    {
        const quint16 closed = demo::LocalRedisServer::freePort();
        const QString tried = QStringLiteral("127.0.0.1:%1").arg(closed);
        auto w = openWindow(m_cluster.nodes().first(), {}, {},
                            {QStringLiteral("%1=%2").arg(address(2), tried)});
        QTRY_COMPARE_WITH_TIMEOUT(labelText(w.get(), "serverMode"),
                                  QStringLiteral("cluster, 3 primaries, 1 down: ") + tried, 20000);
    }

    void aStandaloneServerHasNoNodeColumns()
    {
        StandaloneRedis redis;
        QVERIFY2(redis.start(), qPrintable(redis.errorString()));
        QVERIFY(redis.connect()->call({"SET", "stock:{1}:available", "5"}).ok());
        auto w = openWindow(redis.options());
        QTRY_COMPARE_WITH_TIMEOUT(labelText(w.get(), "serverMode"), QStringLiteral("standalone"),
                                  10000);
        scanKeys(*w);
        browse::SkuTableModel &model = skus(*w);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.columnCount(), int(browse::SkuTableModel::Slot));
        QVERIFY(!w->findChild<QLabel *>(QStringLiteral("scanNodes"))->isVisible());
        QVERIFY(!w->findChild<ui::ClusterNodesBox *>()->isVisibleTo(w.get()));
    }
};

QTEST_MAIN(TstClusterConsole)
#include "tst_cluster_console.moc"
