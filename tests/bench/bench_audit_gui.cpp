// SPDX-License-Identifier: GPL-3.0-or-later
// The audit viewer over a big log: writes BENCH-sized audit.jsonl (default 1,000,000 records,
// i.e. lines: write-ahead attempt/outcome pairs of FCALL deductions, script deductions that met
// NOSCRIPT, key deletes, library loads carrying their Lua source), opens it in AuditViewerPanel
// offscreen and measures the longest gap between 5 ms heartbeat ticks from the panel's
// construction until it has loaded everything (target: no gap over 50 ms), the time to fully
// loaded, the RSS, and what one more write then costs to show (one reload).
//   bench_audit_gui [--records N] [--log PATH (kept; default a temporary file)] [--show]
#include "GuiBench.h"
#include "inventory/AuditLog.h"
#include "ui/deduct/AuditViewerPanel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSaveFile>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include <sys/resource.h>

using inventory::AuditRecord;

namespace {

long peakRssMb()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024;
}

long currentRssMb()
{
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> fields = f.readAll().split(' ');
    return fields.size() > 1 ? fields.at(1).toLong() * (sysconf(_SC_PAGESIZE) / 1024) / 1024 : -1;
}

// About 4 KB of Lua, as a library load carries it.
QByteArray librarySource()
{
    QByteArray s = "#!lua name=inventory_lib_v1\n-- version: 1.0.0\n";
    while (s.size() < 4000)
        s += "local function check(n) if not n then return redis.error_reply('ERR') end end\n";
    return s;
}

// Writes `records` lines of a plausible log; returns the bytes written.
qint64 writeLog(const QString &path, int records)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return -1;
    const QByteArray source = librarySource();
    qint64 t = 1790000000000; // ms
    int written = 0, n = 0;
    QByteArray buffer;
    const auto put = [&](AuditRecord r, const QString &id, AuditRecord::Phase phase) {
        r.timeUtc = QDateTime::fromMSecsSinceEpoch(t += 7, Qt::UTC);
        r.phase = phase;
        r.attemptId = id;
        buffer += r.toJsonLine() + '\n';
        ++written;
        if (buffer.size() > (1 << 20)) {
            f.write(buffer);
            buffer.clear();
        }
    };
    const auto pair = [&](AuditRecord r, const QString &result) {
        const QString id = QStringLiteral("00000000-0000-4000-8000-%1").arg(n, 12, 10, QChar('0'));
        put(r, id, AuditRecord::Phase::Attempt);
        r.result = result;
        r.durationMs = 1 + n % 5;
        put(r, id, AuditRecord::Phase::Outcome);
    };
    while (written < records) {
        ++n;
        const QByteArray sku = "sku-" + QByteArray::number(1000 + n % 5000);
        const QByteArray order = QByteArray::number(900000 + n);
        AuditRecord r;
        r.osUser = QStringLiteral("support");
        r.profile = QStringLiteral("staging");
        r.server = QStringLiteral("10.0.0.5:6379");
        r.runId = QStringLiteral("6f1c2a9e0d3b4c5a8e7f6a5b4c3d2e1f0a9b8c7d");
        if (n % 1000 == 0) {
            r.action = QStringLiteral("function-load");
            r.command = {"FUNCTION", "LOAD", "REPLACE", source};
            r.detail = QStringLiteral("backup /var/lib/inventory/backups/%1.rdb").arg(n);
            pair(r, QStringLiteral("loaded inventory_lib_v1 1.0.0"));
        } else if (n % 100 == 0) {
            r.action = QStringLiteral("delete");
            r.command = {"DEL", "idem:{" + sku + "}:" + order};
            pair(r, QStringLiteral("deleted"));
        } else if (n % 50 == 0) {
            r.action = QStringLiteral("deduct");
            r.detail = QStringLiteral("script mode; order %1").arg(QString::fromLatin1(order));
            r.command = {"EVALSHA", "b1946ac92492d2347c6235b4d2611184", "1",
                         "stock:{" + sku + "}:available", "1"};
            pair(r, QStringLiteral("not run: NOSCRIPT (the script is not loaded); loading it"));
            AuditRecord load = r;
            load.action = QStringLiteral("script-load");
            load.command = {"SCRIPT", "LOAD", source.left(600)};
            pair(load, QStringLiteral("loaded: sha1 b1946ac92492d2347c6235b4d2611184"));
            pair(r, QStringLiteral("deducted: 1, %1 left").arg(n % 977));
        } else {
            r.action = QStringLiteral("deduct");
            r.detail = QStringLiteral("function mode");
            r.command = {"FCALL",
                         "inventory_deduct_v1",
                         "2",
                         "stock:{" + sku + "}:available",
                         "idem:{" + sku + "}:" + order,
                         QByteArray::number(1 + n % 3),
                         "604800"};
            pair(r, QStringLiteral("deducted: %1, %2 left").arg(1 + n % 3).arg(n % 977));
        }
    }
    f.write(buffer);
    return f.size();
}

QByteArray loadAverage()
{
    QFile f(QStringLiteral("/proc/loadavg"));
    return f.open(QIODevice::ReadOnly) ? f.readAll().split(' ').mid(0, 3).join(' ') : QByteArray();
}

} // namespace

int main(int argc, char **argv)
{
    const bool show = offscreenUnlessShow(argc, argv);
    QApplication app(argc, argv);
    QCommandLineParser p;
    p.addHelpOption();
    p.addOption({"records", "lines to write", "n", "1000000"});
    p.addOption({"log", "write the log here and keep it (default: a temporary file)", "path"});
    p.addOption({"show", "stay open when loaded, for a screenshot"});
    p.process(app);

    QTemporaryDir dir;
    const QString path = p.isSet("log") ? p.value("log") : dir.filePath("audit.jsonl");
    QTextStream out(stdout);
    QElapsedTimer clock;
    clock.start();
    const qint64 bytes = writeLog(path, p.value("records").toInt());
    if (bytes < 0) {
        QTextStream(stderr) << "cannot write " << path << '\n';
        return 1;
    }
    out << "audit log: " << p.value("records") << " records, " << bytes / (1 << 20)
        << " MB, written in " << QString::number(clock.elapsed() / 1000.0, 'f', 1)
        << " s; RSS before opening " << currentRssMb() << " MB" << Qt::endl;

    // The console has its main window up before the viewer opens: the process's first window
    // (fonts, style) is not the viewer's cost. A window of the same widgets pays for it here.
    {
        QWidget warm;
        auto *layout = new QVBoxLayout(&warm);
        layout->addWidget(new QLineEdit(&warm));
        layout->addWidget(new QTableView(&warm));
        layout->addWidget(new QPlainTextEdit(&warm));
        warm.show();
        QCoreApplication::processEvents();
    }

    StallMeter heartbeat(clock, 5);

    // The machine alone: the same heartbeat over an idle event loop for 2 s first, so that a
    // stall caused by other processes on the machine can be told from the viewer's.
    qint64 idleWorst = 0, idleOver50 = 0, idleTicks = 0;
    std::unique_ptr<ui::AuditViewerPanel> panel;
    qint64 openedAt = 0;
    QTimer::singleShot(2000, &app, [&] {
        idleWorst = std::exchange(heartbeat.worst, 0);
        idleOver50 = std::exchange(heartbeat.over50, 0);
        idleTicks = std::exchange(heartbeat.ticks, 0);
        // Constructed inside the measured event loop: its own cost counts as a stall.
        openedAt = clock.elapsed();
        QElapsedTimer step;
        step.start();
        panel = std::make_unique<ui::AuditViewerPanel>(path);
        const qint64 made = step.restart();
        panel->resize(1366, 768);
        panel->show();
        if (qEnvironmentVariableIsSet("BENCH_STALLS"))
            QTextStream(stderr) << "panel made in " << made << " ms, shown in " << step.elapsed()
                                << " ms\n";
        QObject::connect(panel.get(), &ui::AuditViewerPanel::loaded, &app, [&] {
            static bool first = true;
            if (!std::exchange(first, false))
                return;
            const qint64 loadedMs = clock.elapsed() - openedAt;
            const long rssLoaded = currentRssMb();
            // Keep the heartbeat going a little: painting the filled table counts too.
            QTimer::singleShot(500, &app, [&, loadedMs, rssLoaded] {
                heartbeat.stop();
                // One more write, then the reload the console does after it.
                AuditRecord r;
                r.action = QStringLiteral("delete");
                r.command = {"DEL", "idem:{sku-1}:1"};
                r.result = QStringLiteral("deleted");
                inventory::AuditLog(path).append(r);
                QElapsedTimer one;
                one.start();
                panel->reload();
                const qint64 reloadUs = one.nsecsElapsed() / 1000;
                // Typing in the filter: the rows are filtered on the GUI thread.
                one.restart();
                panel->findChild<QLineEdit *>(QStringLiteral("textFilter"))
                    ->setText(QStringLiteral("sku-1042"));
                const qint64 filterMs = one.elapsed();
                const int filtered = panel->model()->rowCount();
                // The same typed a key at a time: the first key looks at every row, each
                // next one only at the rows the previous one left.
                auto *filter = panel->findChild<QLineEdit *>(QStringLiteral("textFilter"));
                filter->clear();
                const QString typed = QStringLiteral("sku-1042");
                qint64 firstKeyMs = 0, laterKeysMs = 0;
                for (qsizetype n = 1; n <= typed.size(); ++n) {
                    one.restart();
                    filter->setText(typed.left(n));
                    qint64 &slowest = n == 1 ? firstKeyMs : laterKeysMs;
                    slowest = std::max(slowest, one.elapsed());
                }
                out << "idle event loop before opening (the machine alone): longest gap "
                    << idleWorst << " ms (" << idleOver50 << " of " << idleTicks
                    << " ticks over 50 ms); load average " << QString::fromLatin1(loadAverage())
                    << Qt::endl;
                out << "gui: fully loaded in " << QString::number(loadedMs / 1000.0, 'f', 2)
                    << " s (" << panel->model()->totalCount() << " rows); longest event-loop stall "
                    << heartbeat.worst << " ms (" << heartbeat.over50 << " of " << heartbeat.ticks
                    << " ticks over 50 ms); RSS " << rssLoaded << " MB loaded, peak " << peakRssMb()
                    << " MB; one more write shown in " << reloadUs
                    << " us (reload reads only it); text filter over all rows " << filterMs
                    << " ms (" << filtered << " rows match); typed a key at a time: first key "
                    << firstKeyMs << " ms, longest later key " << laterKeysMs << " ms" << Qt::endl;
                if (!show)
                    app.exit(0);
            });
        });
    });
    heartbeat.start();
    return app.exec();
}
