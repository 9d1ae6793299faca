// SPDX-License-Identifier: GPL-3.0-or-later
// The Reconcile tab, offscreen, against a real redis-server seeded as the demo seeds it and
// the demo's SQLite ledger: every class is found as many times as the planting says; a
// release through the confirmation changes the stock by exactly its quantity, writes the
// release key, is in the audit log with its finding, and the row says "released" only once
// that key is read back; Cancel changes nothing; a production session without its unlock
// sends nothing, even when the dialog is forced; exports are written 0600.
#include "RedisFixture.h"
#include "demo/DemoLedger.h"
#include "demo/DemoSeeder.h"
#include "gate/GatedSender.h"
#include "gate/ReadOnlySender.h"
#include "gate/WriteGate.h"
#include "inventory/AuditLog.h"
#include "ui/reconcile/LedgerForm.h"
#include "ui/reconcile/ReconcileFindingsModel.h"
#include "ui/reconcile/ReconcilePanel.h"
#include "ui/reconcile/RepairDialog.h"

#include <QAbstractItemModelTester>
#include <QItemSelection>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using reconcile::FindingClass;
using testsupport::render;

namespace {
const QByteArray Ttl = "3600";

// The file's permission bits, as ls shows them.
int modeOf(const QString &path)
{
    struct stat st = {};
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 0777) : -1;
}
} // namespace

// A tab over one session's senders: the gate of a profile with this label, and the lanes.
struct Tab
{
    Tab(redis::RedisClient &c, const QString &name, const QString &environment,
        const inventory::DeductionContext &ctx)
        : gate(c, profile(name, environment))
        , gated(c, gate)
        , reads(c)
        , panel({&reads, &reads, &gated, &gate, ctx})
    {}
    static profiles::ConnectionProfile profile(const QString &name, const QString &environment)
    {
        profiles::ConnectionProfile p;
        p.name = name;
        p.environment = environment;
        return p;
    }
    gate::WriteGate gate;
    gate::GatedSender gated;
    gate::ReadOnlySender reads;
    ui::ReconcilePanel panel;
};

class TstReconcilePanel : public QObject
{
    Q_OBJECT

    testsupport::StandaloneRedis m_redis;
    std::unique_ptr<redis::RedisClient> m_c;
    QTemporaryDir m_dir;
    QString m_ledger;
    QMap<QString, int> m_expected;

    inventory::DeductionContext context(const QString &profile) const
    {
        inventory::DeductionContext ctx;
        ctx.profileName = profile;
        ctx.serverAddress = m_c->address();
        ctx.auditLogPath = m_dir.filePath(QStringLiteral("audit.jsonl"));
        ctx.timeoutMs = 3000;
        ctx.defaultTtlSeconds = Ttl.toLongLong();
        return ctx;
    }

    // Runs the panel over the demo ledger and waits for the end.
    static void runOnce(ui::ReconcilePanel &panel)
    {
        QSignalSpy done(&panel, &ui::ReconcilePanel::runFinished);
        panel.run();
        QVERIFY(panel.isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 30000);
        QCOMPARE(done.first().first().toBool(), false); // both sides were read
    }

    // Selects the release candidate of `sku` ("charged but no order": the demo ledger's own
    // SKU has one); its row in the model, or -1.
    static int selectCandidate(ui::ReconcilePanel &panel, const QByteArray &sku)
    {
        QAbstractItemModel *view = panel.findingsView()->model();
        const auto *proxy = qobject_cast<const QSortFilterProxyModel *>(view);
        for (int row = 0; row < view->rowCount(); ++row) {
            const int source = proxy->mapToSource(view->index(row, 0)).row();
            const reconcile::Finding &f = panel.findings()->finding(source);
            if (f.cls == FindingClass::ReleaseCandidate && f.sku == sku) {
                panel.findingsView()->setCurrentIndex(view->index(row, 0));
                return source;
            }
        }
        return -1;
    }

    qint64 stock(const QByteArray &sku) const
    {
        const auto value = m_c->call({"GET", "stock:{" + sku + "}:available"})->string();
        return value ? value.value().toLongLong() : -1;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_c = m_redis.connect();
        const auto seeded = demo::seedDemoBlocking(*m_c);
        QVERIFY2(seeded, qPrintable(seeded ? QString() : seeded.error().english));
        // The demo loads 1.0.0; releases need 1.3.0.
        QCOMPARE(render(m_c->call({"FUNCTION", "LOAD", "REPLACE",
                                   testsupport::functionSource("inventory_lib_v1.lua")})),
                 QStringLiteral("\"inventory_lib_v1\""));
        m_ledger = m_dir.filePath(QStringLiteral("ledger.db"));
        const auto planted = demo::plantDemoLedger(*m_c, {}, m_ledger);
        QVERIFY2(planted, qPrintable(planted ? QString() : planted.error().english));
        m_expected = planted->expected;
        QCOMPARE(modeOf(m_ledger), 0600);
    }

    // Every class on the demo data, counted as the planting says; then a release of a
    // candidate through the dialog, re-checked by reading its key, in the audit log.
    void findsEveryClassAndReleasesOne()
    {
        Tab tab(*m_c, "staging-lab", "staging", context("staging-lab"));
        ui::ReconcilePanel &panel = tab.panel;
        const QString profileName = "staging-lab";
        QAbstractItemModelTester tester(panel.findings());
        panel.setLedger("sqlite://" + m_ledger, "time=created_at", "demo");
        QVERIFY(panel.ledgerForm()->queryPreview().contains("\"created_at\""));
        panel.show();
        runOnce(panel);

        QMap<QString, int> found;
        for (int row = 0; row < panel.findings()->rowCount(); ++row)
            ++found[reconcile::className(panel.findings()->finding(row).cls)];
        QCOMPARE(found, m_expected);
        QVERIFY2(panel.summaryText().contains("need attention"), qPrintable(panel.summaryText()));

        const int row = selectCandidate(panel, "sku-2001");
        QVERIFY(row >= 0);
        const reconcile::Finding f = panel.findings()->finding(row);
        QVERIFY(f.quantity > 0);
        const qint64 before = stock(f.sku);
        QVERIFY2(before >= 0, f.sku.constData());
        const QByteArray releaseKey = "rel:{" + f.sku + "}:" + f.orderId;
        QCOMPARE(m_c->call({"EXISTS", releaseKey})->toInteger(), 0);

        panel.releaseSelected();
        QTRY_VERIFY(panel.pendingRepair());
        ui::RepairDialog *dialog = panel.pendingRepair();
        QCOMPARE(dialog->commandText(),
                 QStringLiteral("FCALL inventory_release_v1 3 stock:{%1}:available idem:{%1}:%2 "
                                "%3 %4 %5")
                     .arg(QString::fromUtf8(f.sku), QString::fromUtf8(f.orderId),
                          QString::fromUtf8(releaseKey))
                     .arg(f.quantity)
                     .arg(QString::fromLatin1(Ttl)));
        QVERIFY(dialog->runButton()->isEnabled());
        QVERIFY(!dialog->unlockButton()->isVisible());
        QList<inventory::RepairResult> repaired;
        connect(&panel, &ui::ReconcilePanel::repairFinished, this,
                [&](const inventory::RepairResult &r) { repaired << r; });
        QTest::mouseClick(dialog->runButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(repaired.size(), 1, 10000);
        QCOMPARE(repaired.first().outcome.kind, inventory::RepairOutcomeKind::Applied);

        QCOMPARE(stock(f.sku), before + f.quantity);
        QCOMPARE(m_c->call({"EXISTS", releaseKey})->toInteger(), 1);
        QVERIFY2(panel.repairText().startsWith("Released:"), qPrintable(panel.repairText()));
        QCOMPARE(panel.findings()->finding(row).orderId, f.orderId);
        QCOMPARE(panel.findings()->finding(row).cls, FindingClass::Released);
        QVERIFY(panel.findings()->status(row).startsWith("released: " + releaseKey));

        // The audit log holds the attempt and its outcome, with the finding that justified it.
        const auto audit = inventory::AuditLog::read(context(profileName).auditLogPath);
        QList<inventory::AuditRecord> release;
        for (const inventory::AuditRecord &r : audit.records)
            if (r.action == "release" && r.command.contains(releaseKey))
                release << r;
        QCOMPARE(release.size(), 2);
        QCOMPARE(release.at(1).phase, inventory::AuditRecord::Phase::Outcome);
        QVERIFY(release.at(1).result.startsWith("released"));
        QVERIFY2(release.at(0).detail.contains("Reconcile finding release_candidate for order "
                                               + QString::fromUtf8(f.orderId)),
                 qPrintable(release.at(0).detail));

        // Exports: the report and the CSV, readable by their owner only.
        for (bool markdown : {false, true}) {
            const QString path = m_dir.filePath(markdown ? "r.md" : "r.csv");
            QVERIFY(!panel.exportTo(path, markdown));
            QCOMPARE(modeOf(path), 0600);
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY(file.readAll().contains(f.orderId));
        }
    }

    // An adjustment of a finding's SKU: the reason is required, the delta applied once per
    // id (the same id again changes nothing), the audit log keeps the reason.
    void adjustmentIsIdempotentAndAudited()
    {
        Tab tab(*m_c, "staging-lab", "staging", context("staging-lab"));
        ui::ReconcilePanel &panel = tab.panel;
        panel.setLedger("sqlite://" + m_ledger, {}, {});
        panel.show();
        runOnce(panel);
        QVERIFY(panel.selectFirst(FindingClass::QuantityDiffers));
        const qint64 before = stock("sku-2001");
        QByteArray id;
        // The correction, its retry (same id, same delta), and the same id with another delta:
        // "already applied" twice, but the third says that its delta was not applied.
        for (int attempt = 0; attempt < 3; ++attempt) {
            const QString deltaText = attempt == 2 ? QStringLiteral("-3") : QStringLiteral("-1");
            panel.adjustSelected();
            QTRY_VERIFY(panel.pendingRepair());
            ui::RepairDialog *dialog = panel.pendingRepair();
            auto *delta = dialog->findChild<QLineEdit *>(QStringLiteral("adjustDelta"));
            auto *reason = dialog->findChild<QPlainTextEdit *>(QStringLiteral("adjustReason"));
            if (attempt == 0)
                id = dialog->findChild<QLineEdit *>(QStringLiteral("adjustId"))->text().toUtf8();
            else // the retry of the same correction keeps its id
                dialog->findChild<QLineEdit *>(QStringLiteral("adjustId"))->setText(id);
            delta->setText(deltaText);
            reason->clear();
            QVERIFY(!dialog->runButton()->isEnabled()); // no reason, no run
            reason->setPlainText(QStringLiteral("shelf count: one unit short"));
            QVERIFY(dialog->runButton()->isEnabled());
            QVERIFY2(dialog->commandText().startsWith(
                         "FCALL inventory_adjust_v1 2 stock:{sku-2001}:available adj:{sku-2001}:"
                         + id + " " + deltaText.toUtf8() + " "),
                     qPrintable(dialog->commandText()));
            QList<inventory::RepairResult> repaired;
            connect(&panel, &ui::ReconcilePanel::repairFinished, this,
                    [&](const inventory::RepairResult &r) { repaired << r; });
            QTest::mouseClick(dialog->runButton(), Qt::LeftButton);
            QTRY_COMPARE_WITH_TIMEOUT(repaired.size(), 1, 10000);
            QCOMPARE(repaired.first().outcome.kind,
                     attempt == 0 ? inventory::RepairOutcomeKind::Applied
                                  : inventory::RepairOutcomeKind::AlreadyApplied);
            QCOMPARE(stock("sku-2001"), before - 1);
            QCOMPARE(repaired.first().otherRecordedAmount(),
                     attempt == 2 ? std::optional<QByteArray>("-1") : std::nullopt);
            if (attempt == 2) {
                bool said = false;
                for (const QLabel *l : panel.findChildren<QLabel *>())
                    said = said || l->text().contains("records a delta of -1, not the -3");
                QVERIFY(said);
            }
            disconnect(&panel, &ui::ReconcilePanel::repairFinished, this, nullptr);
        }
        const auto audit = inventory::AuditLog::read(context("staging-lab").auditLogPath);
        int withReason = 0;
        for (const inventory::AuditRecord &r : audit.records)
            withReason +=
                r.action == "adjust" && r.detail.contains("reason: shelf count: one unit short");
        QCOMPARE(withReason, 6); // three attempts, three outcomes
    }

    // Cancel in the confirmation: nothing written, not even an audit attempt.
    void cancelChangesNothing()
    {
        Tab tab(*m_c, "staging-lab", "staging", context("staging-lab"));
        ui::ReconcilePanel &panel = tab.panel;
        const QString profileName = "staging-lab";
        panel.setLedger("sqlite://" + m_ledger, {}, {});
        panel.show();
        runOnce(panel);
        QVERIFY(panel.selectFirst(FindingClass::ReleaseCandidate));
        const auto before = testsupport::snapshot(*m_c, {});
        const QByteArray auditBefore = [&] {
            QFile f(context(profileName).auditLogPath);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        panel.releaseSelected();
        QTRY_VERIFY(panel.pendingRepair());
        panel.pendingRepair()->reject();
        QTRY_VERIFY(!panel.pendingRepair());
        QCOMPARE(testsupport::snapshotDifference(before, testsupport::snapshot(*m_c, {})),
                 QString());
        QFile f(context(profileName).auditLogPath);
        QCOMPARE(f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray(), auditBefore);
    }

    // Production without the unlock: Run is off and Unlock is offered; forced, the gate
    // still sends nothing, and the row does not claim a release.
    void productionWithoutUnlockRefuses()
    {
        Tab tab(*m_c, "prod", "production", context("prod"));
        ui::ReconcilePanel &panel = tab.panel;
        const QString profileName = "prod";
        panel.setEnvironment(profiles::Environment::Production);
        panel.setLedger("sqlite://" + m_ledger, {}, {});
        panel.show();
        runOnce(panel);
        // Any candidate: the gate refuses before the server is asked anything that writes.
        QVERIFY(panel.selectFirst(FindingClass::ReleaseCandidate));
        const int row = qobject_cast<const QSortFilterProxyModel *>(panel.findingsView()->model())
                            ->mapToSource(panel.findingsView()->currentIndex())
                            .row();
        const auto before = testsupport::snapshot(*m_c, {});
        panel.releaseSelected();
        QTRY_VERIFY(panel.pendingRepair());
        ui::RepairDialog *dialog = panel.pendingRepair();
        QVERIFY(tab.gate.isReadOnly());
        QVERIFY(!dialog->runButton()->isEnabled());
        QVERIFY(dialog->unlockButton()->isVisible());
        QList<inventory::RepairResult> repaired;
        connect(&panel, &ui::ReconcilePanel::repairFinished, this,
                [&](const inventory::RepairResult &r) { repaired << r; });
        dialog->accept(); // as if Run had been pressed anyway
        QTRY_COMPARE_WITH_TIMEOUT(repaired.size(), 1, 10000);
        QCOMPARE(repaired.first().outcome.kind, inventory::RepairOutcomeKind::NotSent);
        QCOMPARE(testsupport::snapshotDifference(before, testsupport::snapshot(*m_c, {})),
                 QString());
        QCOMPARE(panel.findings()->finding(row).cls, FindingClass::ReleaseCandidate);
        QVERIFY(panel.findings()->status(row).startsWith("not released: not sent: read-only"));
        QVERIFY2(panel.repairText().startsWith("Nothing was sent: read-only session"),
                 qPrintable(panel.repairText()));
    }

    // Cancel while the ledger is read (off the GUI thread, which keeps handling events: the
    // progress arrives): the run stops, says so, and concludes nothing.
    void cancelStopsTheRun()
    {
        const QString path = m_dir.filePath(QStringLiteral("long.csv"));
        {
            QFile csv(path);
            QVERIFY(csv.open(QIODevice::WriteOnly));
            QByteArray rows = "order_id,sku,quantity,state\n";
            for (int i = 0; i < 400000; ++i)
                rows += "c" + QByteArray::number(i) + ",zz-1,1,cancelled\n";
            QVERIFY(csv.write(rows) == rows.size());
        }
        Tab tab(*m_c, "staging-lab", "staging", context("staging-lab"));
        ui::ReconcilePanel &panel = tab.panel;
        panel.setLedger(path, {}, {});
        QSignalSpy done(&panel, &ui::ReconcilePanel::runFinished);
        auto *progress = panel.findChild<QLabel *>(QStringLiteral("reconcileProgress"));
        panel.run();
        QTRY_VERIFY_WITH_TIMEOUT(progress->text().startsWith("Reading the ledger: "), 20000);
        panel.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 20000);
        QCOMPARE(done.first().first().toBool(), true);
        QVERIFY2(panel.summaryText().startsWith("Could not check: cancelled after "),
                 qPrintable(panel.summaryText()));
        QCOMPARE(progress->text(), QStringLiteral("Cancelled."));
    }

    // A ledger that cannot be read: "could not check", never an empty "in line".
    void unreadableLedgerCouldNotCheck()
    {
        Tab tab(*m_c, "staging-lab", "staging", context("staging-lab"));
        ui::ReconcilePanel &panel = tab.panel;
        const QString profileName = "staging-lab";
        panel.setLedger(m_dir.filePath("missing.csv"), {}, {});
        QSignalSpy done(&panel, &ui::ReconcilePanel::runFinished);
        panel.run();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 30000);
        QCOMPARE(done.first().first().toBool(), true);
        QVERIFY2(panel.summaryText().startsWith("Could not check"),
                 qPrintable(panel.summaryText()));
        QVERIFY(!panel.summaryText().contains("in line"));
        QCOMPARE(panel.findings()->rowCount(), 0);
    }

    // A selection of release candidates: one confirmation shows every FCALL, each is sent and
    // audited on its own; the first that is not applied stops the rest, which are not sent.
    // Last of the slots: it releases the demo's remaining candidates.
    void aSelectionIsReleasedOneAfterTheOther()
    {
        Tab tab(*m_c, "staging-lab", "staging", context("staging-lab"));
        ui::ReconcilePanel &panel = tab.panel;
        panel.setLedger("sqlite://" + m_ledger, "time=created_at", "demo");
        panel.show();
        // The demo's sku-0999 has no stock key (a discontinued SKU): give it one, so that both
        // of the candidates left can be released.
        QVERIFY(m_c->call({"SET", "stock:{sku-0999}:available", "5"}).ok());
        runOnce(panel);
        const QList<QByteArray> skus{"sku-1001", "sku-0999"};
        QList<reconcile::Finding> chosen;
        const auto selectBoth = [&] {
            chosen.clear();
            panel.findingsView()->clearSelection();
            QItemSelection selection;
            auto *proxy = qobject_cast<QSortFilterProxyModel *>(panel.findingsView()->model());
            for (int row = 0; row < proxy->rowCount(); ++row) {
                const QModelIndex i = proxy->index(row, 0);
                const reconcile::Finding &f =
                    panel.findings()->finding(proxy->mapToSource(i).row());
                if (f.cls == FindingClass::ReleaseCandidate && skus.contains(f.sku)) {
                    selection.select(i, i);
                    chosen << f;
                }
            }
            panel.findingsView()->selectionModel()->select(
                selection, QItemSelectionModel::Select | QItemSelectionModel::Rows);
        };
        selectBoth();
        QCOMPARE(chosen.size(), 2);
        const qint64 before0 = stock(chosen[0].sku), before1 = stock(chosen[1].sku);
        QList<inventory::RepairResult> repaired;
        connect(&panel, &ui::ReconcilePanel::repairFinished, this,
                [&](const inventory::RepairResult &r) { repaired << r; });

        panel.releaseSelected();
        QTRY_VERIFY(panel.pendingRepair());
        ui::RepairDialog *dialog = panel.pendingRepair();
        QCOMPARE(dialog->plans().size(), 2);
        QCOMPARE(dialog->commandText().count(QStringLiteral("FCALL inventory_release_v1 3")), 2);
        QCOMPARE(dialog->runButton()->text(), QStringLiteral("Release 2 orders"));
        QTest::mouseClick(dialog->runButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(repaired.size(), 2, 10000);
        for (const inventory::RepairResult &r : repaired)
            QCOMPARE(r.outcome.kind, inventory::RepairOutcomeKind::Applied);
        QCOMPARE(stock(chosen[0].sku), before0 + chosen[0].quantity);
        QCOMPARE(stock(chosen[1].sku), before1 + chosen[1].quantity);
        QVERIFY2(panel.repairText().startsWith("All 2 releases of the selection were sent"),
                 qPrintable(panel.repairText()));

        // The same two again, with the first one's stock key gone: it is refused, and the
        // second is not sent (no release key, its stock unchanged, nothing in the audit log).
        for (const reconcile::Finding &f : chosen)
            QVERIFY(m_c->call({"DEL", "rel:{" + f.sku + "}:" + f.orderId}).ok());
        runOnce(panel);
        selectBoth();
        QCOMPARE(chosen.size(), 2);
        QVERIFY(m_c->call({"DEL", "stock:{" + chosen[0].sku + "}:available"}).ok());
        const qint64 second = stock(chosen[1].sku);
        const auto auditBefore =
            inventory::AuditLog::read(context("staging-lab").auditLogPath).records.size();
        repaired.clear();
        panel.releaseSelected();
        QTRY_VERIFY(panel.pendingRepair());
        QTest::mouseClick(panel.pendingRepair()->runButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(repaired.size(), 1, 10000);
        QCOMPARE(repaired.first().outcome.kind, inventory::RepairOutcomeKind::StockMissing);
        QVERIFY2(panel.repairText().startsWith("Release 1 of 2 stopped the selection: the 1 "
                                               "after it were not sent."),
                 qPrintable(panel.repairText()));
        QCOMPARE(stock(chosen[1].sku), second);
        QCOMPARE(
            m_c->call({"EXISTS", "rel:{" + chosen[1].sku + "}:" + chosen[1].orderId})->toInteger(),
            0);
        QCOMPARE(inventory::AuditLog::read(context("staging-lab").auditLogPath).records.size(),
                 auditBefore + 2); // the first one's attempt and outcome only
    }
};

QTEST_MAIN(TstReconcilePanel)
#include "tst_reconcile_panel.moc"
