// SPDX-License-Identifier: GPL-3.0-or-later
// Every chart of the Charts tab rendered offscreen from a real server's data: not blank, its
// empty state while there is nothing to draw, and Save PNG / Save CSV writing what is drawn.
#include "AuditTrail.h"
#include "FileMode.h"
#include "ServerTest.h"
#include "browse/InventoryScan.h"
#include "inventory/AuditLoader.h"
#include "inventory/AuditLog.h"
#include "inventory/DeductionHistory.h"
#include "metrics/ServerSampler.h"
#include "metrics/StockWatcher.h"
#include "ui/charts/ChartPanel.h"
#include "ui/charts/ChartView.h"
#include "ui/charts/ChartsTab.h"
#include "ui/charts/OutcomesPage.h"
#include "ui/charts/TimeChartPanel.h"

#include <QApplication>
#include <QChart>
#include <QDateTimeAxis>
#include <QDir>
#include <QLabel>
#include <QLineSeries>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {

// Pixels of a clear colour (series, bars): axes, grid and text are grey or black, the
// background white, so an empty chart has none outside its legend markers.
int colouredPixels(const QImage &image)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += c.hsvSaturation() > 80 && c.value() > 60 ? 1 : 0;
        }
    return n;
}

// Where the PNGs go: the test's output directory (build/tests/test-output/tst_charts_render/),
// so a person can look at them afterwards.
QString outputDir()
{
    const QString dir = qEnvironmentVariable("INVENTORY_TEST_OUTPUT_DIR", QDir::tempPath())
                        + QStringLiteral("/charts");
    QDir().mkpath(dir);
    return dir;
}

inventory::DeductionResult result(inventory::OutcomeKind kind)
{
    inventory::DeductionResult r;
    r.outcome.kind = kind;
    r.outcome.remaining = 3;
    r.startedUtc = QDateTime::currentDateTimeUtc();
    return r;
}

} // namespace

class TstChartsRender : public testsupport::ServerTest
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.jsonl")); }

    // The tab shown and sampled every 300 ms until `samples` samples are in: its FCALL latency
    // chart, or null when the samples did not come.
    static ui::ChartPanel *sampledLatencyPanel(ui::ChartsTab &tab, int samples)
    {
        tab.resize(1300, 900);
        tab.show(); // starts sampling
        tab.sampler().setInterval(300);
        const auto sampled = [&] {
            return tab.sampler().nodeCount() == 1 && tab.sampler().node(0).samples >= samples;
        };
        if (!QTest::qWaitFor(sampled, 10000))
            return nullptr;
        return tab.findChild<ui::ChartPanel *>(
            QStringLiteral("chart-fcall-latency-server-vs-console-round-trip"));
    }

private slots:
    void initTestCase()
    {
        QCOMPARE(startServer(QStringLiteral("inventory_lib_v1.lua")), QString());
        QVERIFY(m_c->call({"CONFIG", "SET", "maxmemory", "64mb"}).ok());
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "500"}).ok());
        for (const QByteArray ttl : {"20", "600", "5000", "200000", "2000000"})
            QVERIFY(m_c->call({"SET", "idem:{42}:r" + ttl, "9", "EX", ttl}).ok());
        // Two deductions in the audit log: one deducted, one insufficient.
        inventory::AuditLog log(auditPath());
        for (const char *result :
             {"deducted: remaining 7", "insufficient: stock 0 (nothing changed)"}) {
            inventory::AuditRecord rec;
            rec.action = QStringLiteral("deduct");
            rec.command = {"FCALL", "inventory_deduct_v1"};
            const auto a = log.appendAttempt(rec);
            QVERIFY(a.ok());
            rec.result = QLatin1String(result);
            QVERIFY(log.appendOutcome(rec, a->attemptId).ok());
        }
    }

    // An audit log past AuditLoader::InlineReadBytes is read on a worker: the page opens at
    // once, says it is reading, and draws the outcomes when the read is done.
    void bigAuditLogIsReadOnAWorker()
    {
        const QString path = m_dir.filePath(QStringLiteral("big-audit.jsonl"));
        int n = 0;
        const QByteArray lines =
            testsupport::bigDeductLog(3 * inventory::AuditLoader::InlineReadBytes, &n,
                                      [] { return inventory::AuditRecord(); });
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(lines);
        f.close();
        inventory::DeductionHistory history;
        ui::OutcomesPage page(&history, path);
        auto *status = page.findChild<QLabel *>(QStringLiteral("auditStatus"));
        QVERIFY(status);
        QVERIFY2(status->text().startsWith(QLatin1String("Reading ")), qPrintable(status->text()));
        page.refreshAudit(); // during the read: once more after it, not a second reader
        QTRY_VERIFY_WITH_TIMEOUT(
            status->text().startsWith(QStringLiteral("%1 deductions in the period").arg(n)), 30000);
    }

    // A record another writer appends (inventory-cli in a terminal, another window) shows
    // up on the page on screen, with nobody telling it.
    void recordsAppendedElsewhereShowUp()
    {
        inventory::DeductionHistory history;
        ui::OutcomesPage page(&history, auditPath());
        page.show();
        auto *status = page.findChild<QLabel *>(QStringLiteral("auditStatus"));
        QVERIFY(status);
        const QRegularExpression count(QStringLiteral("^(\\d+) deductions in the period"));
        QTRY_VERIFY(count.match(status->text()).hasMatch());
        const int before = count.match(status->text()).captured(1).toInt();

        inventory::AuditLog other(auditPath());
        inventory::AuditRecord rec;
        rec.action = QStringLiteral("deduct");
        rec.command = {"FCALL", "inventory_deduct_v1"};
        const auto a = other.appendAttempt(rec);
        QVERIFY(a.ok());
        rec.result = QStringLiteral("deducted: remaining 6");
        QVERIFY(other.appendOutcome(rec, a->attemptId).ok());
        QTRY_COMPARE_WITH_TIMEOUT(count.match(status->text()).captured(1).toInt(), before + 1,
                                  10000);
    }

    // Nothing sampled, watched, deducted or scanned: every chart says why it is empty.
    void emptyStates()
    {
        inventory::DeductionHistory history;
        ui::ChartsTab tab(*m_c, &history, m_dir.filePath(QStringLiteral("none.jsonl")), nullptr);
        for (ui::ChartPanel *p : tab.panels()) {
            QVERIFY2(!p->view()->emptyText().isEmpty(), qPrintable(p->fileStem()));
            const QImage image = p->view()->renderImage(QSize(600, 300));
            QCOMPARE(image.size(), QSize(600, 300));
        }
        QVERIFY(tab.panels().size() >= 9);
    }

    // An idle server: the round-trip lines draw, the server's FCALL lines cannot; the chart
    // says no FCALL ran over what was sampled (not "the last 5 minutes" after a few seconds),
    // and the words go once an FCALL gives a line to draw.
    void fcallLatencySaysWhyItIsEmpty()
    {
        inventory::DeductionHistory history;
        ui::ChartsTab tab(*m_c, &history, m_dir.filePath(QStringLiteral("none.jsonl")), nullptr);
        ui::ChartPanel *latency = sampledLatencyPanel(tab, 3);
        QVERIFY(latency);
        const QString idle = latency->view()->emptyText();
        QVERIFY2(idle.contains(QRegularExpression(
                     QStringLiteral("^No FCALL ran in the \\d+ s sampled up to \\d\\d:\\d\\d:"
                                    "\\d\\d:\\nno server FCALL p50/p99 to draw\\n"))),
                 qPrintable(idle));
        QVERIFY2(idle.endsWith(QLatin1String("(the lines are the console's own round trip)")),
                 qPrintable(idle));
        QVERIFY(m_c->call({"FCALL", "inventory_deduct_v1", "2", "stock:{42}:available",
                           "idem:{42}:latency-chart", "1", "600"})
                    .ok());
        QTRY_VERIFY_WITH_TIMEOUT(latency->view()->emptyText().isEmpty(), 10000);

        // A user the server refuses LATENCY: the chart says it could not read, and why.
        QVERIFY(m_c->call({"ACL", "SETUSER", "nolatency", "reset", "on", ">nl-pw", "~*", "&*",
                           "+@all", "-latency"})
                    .ok());
        auto options = m_redis.options();
        options.username = QStringLiteral("nolatency");
        options.password = QStringLiteral("nl-pw");
        auto refused = m_redis.connect(options);
        QCOMPARE(refused->state(), redis::ConnectionState::Ready);
        ui::ChartsTab denied(*refused, &history, m_dir.filePath(QStringLiteral("none.jsonl")),
                             nullptr);
        ui::ChartPanel *deniedLatency = sampledLatencyPanel(denied, 2);
        QVERIFY(deniedLatency);
        const QString why = deniedLatency->view()->emptyText();
        QVERIFY2(why.startsWith(QLatin1String("Could not read the server's FCALL latency:\n")),
                 qPrintable(why));
        // The server's own words after the colon: here, the ACL refusal of LATENCY.
        QVERIFY2(why.section(QLatin1Char('\n'), 1, 1).contains(QLatin1String("permission")),
                 qPrintable(why));
        QVERIFY2(!why.contains(QLatin1String("No FCALL ran")), qPrintable(why));
    }

    void everyChartDrawsRealData()
    {
        browse::InventoryScan scan(*m_c, inventory::KeySchema());
        QSignalSpy scanned(&scan, &browse::InventoryScan::finished);
        scan.start({});
        QTRY_COMPARE_WITH_TIMEOUT(scanned.size(), 1, 20000);

        inventory::DeductionHistory history;
        ui::ChartsTab tab(*m_c, &history, auditPath(), &scan);
        tab.resize(1300, 900);
        tab.show(); // starts sampling
        tab.sampler().setInterval(300);
        tab.watchStock("42", "stock:{42}:available");
        tab.stockWatcher().setInterval(300);
        history.add(result(inventory::OutcomeKind::Deducted));
        history.add(result(inventory::OutcomeKind::Deducted));
        history.add(result(inventory::OutcomeKind::AlreadyApplied));

        QTRY_VERIFY_WITH_TIMEOUT(
            tab.sampler().nodeCount() == 1 && tab.sampler().node(0).samples >= 2, 10000);
        for (int i = 0; i < 30; ++i)
            QVERIFY(m_c->call({"FCALL", "inventory_deduct_v1", "2", "stock:{42}:available",
                               "idem:{42}:o" + QByteArray::number(i), "1", "600"})
                        .ok());
        const metrics::NodeSeries &n = tab.sampler().node(0);
        QTRY_VERIFY_WITH_TIMEOUT(
            n.fcallSinceStart.calls >= 30 && n.fcallP50Us.size() >= 1 && n.samples >= 5, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(tab.stockWatcher().at(0).stock.size() >= 3, 10000);
        tab.showPage(QStringLiteral("Outcomes")); // reads the audit log again

        // The same charts with nothing to draw: what the data adds is what differs.
        inventory::DeductionHistory none;
        ui::ChartsTab empty(*m_c, &none, m_dir.filePath(QStringLiteral("none.jsonl")), nullptr);
        QHash<QString, int> baseline;
        for (ui::ChartPanel *p : empty.panels())
            baseline.insert(p->fileStem(), colouredPixels(p->view()->renderImage(QSize(900, 450))));

        const QString dir = outputDir();
        QStringList blank;
        for (ui::ChartPanel *p : tab.panels()) {
            const QString name = p->fileStem();
            QVERIFY2(p->view()->emptyText().isEmpty(),
                     qPrintable(name + QStringLiteral(": ") + p->view()->emptyText()));
            const QString file = dir + QLatin1Char('/') + name + QStringLiteral(".png");
            QVERIFY2(p->savePng(file, QSize(900, 450)), qPrintable(file));
            QCOMPARE(testsupport::fileMode(file), 0600);
            const QImage back(file);
            QCOMPARE(back.size(), QSize(900, 450));
            const int coloured = colouredPixels(back);
            QVERIFY(baseline.contains(name));
            if (coloured < baseline.value(name) + 60)
                blank << QStringLiteral("%1: %2 coloured pixels, %3 when empty")
                             .arg(name)
                             .arg(coloured)
                             .arg(baseline.value(name));
        }
        qInfo() << "chart images in" << dir;
        QVERIFY2(blank.isEmpty(), qPrintable(blank.join(QStringLiteral("; "))));
    }

    // Pause holds the time axis where it is while points keep coming; a rubber-band zoom
    // pauses too; resuming follows the latest point again.
    void pauseAndZoomHoldTheRange()
    {
        ui::TimeChartPanel panel(QStringLiteral("Test"), QStringLiteral("units"));
        QLineSeries *line = panel.addSeries(QStringLiteral("a"), QStringLiteral("units"));
        const qint64 t0 = QDateTime::currentMSecsSinceEpoch();
        const auto axisEnd = [&] {
            return qobject_cast<QDateTimeAxis *>(panel.chart()->axes(Qt::Horizontal).value(0))
                ->max()
                .toMSecsSinceEpoch();
        };
        for (int i = 0; i < 10; ++i) {
            panel.append(line, t0 + i * 1000, i);
            panel.follow(t0 + i * 1000);
        }
        QCOMPARE(axisEnd(), t0 + 9000);
        panel.setPaused(true);
        panel.append(line, t0 + 10'000, 10);
        panel.follow(t0 + 10'000);
        QCOMPARE(axisEnd(), t0 + 9000);
        QCOMPARE(line->count(), 11); // kept while paused
        panel.setPaused(false);
        panel.follow(t0 + 10'000);
        QCOMPARE(axisEnd(), t0 + 10'000);
        emit panel.view()->zoomedByUser();
        QVERIFY(panel.isPaused());
        // Beyond the capacity, the oldest points go: one in, one out.
        panel.setCapacity(5);
        panel.append(line, t0 + 11'000, 11);
        QCOMPARE(line->count(), 5);
        QCOMPARE(line->at(0).y(), 7.0);
    }

    // Save CSV writes every point a chart draws: the watched stock falling as it is read.
    void csvOfTheStockChart()
    {
        QVERIFY(m_c->call({"SET", "stock:{5}:available", "20"}).ok());
        inventory::DeductionHistory history;
        ui::ChartsTab tab(*m_c, &history, auditPath(), nullptr);
        tab.watchStock("5", "stock:{5}:available");
        tab.stockWatcher().setInterval(200);
        QTRY_VERIFY(tab.stockWatcher().at(0).stock.size() >= 1);
        QVERIFY(m_c->call({"DECRBY", "stock:{5}:available", "4"}).ok());
        QTRY_VERIFY(tab.stockWatcher().at(0).stock.last()->value == 16.0);
        ui::ChartPanel *stock = nullptr;
        for (ui::ChartPanel *p : tab.panels())
            if (p->fileStem().contains(QLatin1String("stock")))
                stock = p;
        QVERIFY(stock);
        const QString file = m_dir.filePath(QStringLiteral("stock.csv"));
        QVERIFY(stock->saveCsv(file));
        QCOMPARE(testsupport::fileMode(file), 0600);
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QCOMPARE(lines.first().trimmed(), QByteArray("series,time_utc,value"));
        QList<QByteArray> values;
        for (const QByteArray &line : lines.mid(1)) {
            if (line.trimmed().isEmpty())
                continue;
            const QList<QByteArray> cells = line.trimmed().split(',');
            QCOMPARE(cells.size(), 3);
            QCOMPARE(cells[0], QByteArray("5"));
            QVERIFY2(
                QDateTime::fromString(QString::fromLatin1(cells[1]), Qt::ISODateWithMs).isValid(),
                cells[1].constData());
            values << cells[2];
        }
        QVERIFY(values.contains("20"));
        QCOMPARE(values.last(), QByteArray("16"));
    }
};

QTEST_MAIN(TstChartsRender)
#include "tst_charts_render.moc"
