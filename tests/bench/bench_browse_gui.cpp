// SPDX-License-Identifier: GPL-3.0-or-later
// The key browser under load: loads BrowserPanel over a live keyspace and measures the
// longest gap between 10 ms heartbeat ticks while the full scan runs (target < 50 ms), the
// scan time and the peak RSS (BENCH_STALLS=1 prints every gap over 30 ms as it happens). The
// socket is read on the GUI thread, as the console's scan lane has it, unless
// --socket-on-transport-thread.
// With --show it stays open instead, for screenshots:
//   bench_browse_gui --port N [--show [--tab sku|order|keys|anomalies] [--order ID]
//                    [--sku SKU] [--pattern GLOB] [--filter TEXT] [--anomalies-only]
//                    [--dialog]]
#include "GuiBench.h"
#include "browse/InventoryScan.h"
#include "redis/RedisClient.h"
#include "ui/browse/BrowserPanel.h"
#include "ui/browse/FlatKeyView.h"
#include "ui/browse/SkuBrowserView.h"

#include <QApplication>
#include <QCheckBox>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTextStream>
#include <QTimer>

#include <sys/resource.h>

namespace {

long peakRssKb()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

} // namespace

int main(int argc, char **argv)
{
    const bool show = offscreenUnlessShow(argc, argv);
    QApplication app(argc, argv);
    QCommandLineParser p;
    p.addHelpOption();
    p.addOption({"port", "server port", "port"});
    p.addOption({"count", "SCAN COUNT (default: the key browser's own)", "n"});
    p.addOption({"socket-on-transport-thread",
                 "read the scan's socket on the shared transport thread (before 2026-12-02) "
                 "rather than on the GUI thread, as ConsoleSession::scanRouter() has it"});
    p.addOption({"show", "stay open for a screenshot"});
    p.addOption({"tab", "sku | order | keys | anomalies", "tab", "sku"});
    p.addOption({"order", "order id to look up", "id"});
    p.addOption({"sku", "SKU to select", "sku"});
    p.addOption({"pattern", "flat view pattern", "glob"});
    p.addOption({"filter", "SKU filter text", "text"});
    p.addOption({"anomalies-only", "SKU view: only SKUs with anomalies"});
    p.addOption({"dialog", "select the SKU's first receipt and open the delete confirmation "
                           "(writes go to this server: use a scratch one)"});
    p.process(app);

    redis::ConnectionOptions o;
    o.port = quint16(p.value("port").toUInt());
    o.commandTimeoutMs = 30000;
    o.onCallerThread = !p.isSet("socket-on-transport-thread");
    redis::RedisClient client(o);
    client.open();
    if (!client.waitUntilReady(5000)) {
        QTextStream(stderr) << "connect failed: " << client.stateDetail().english << '\n';
        return 1;
    }
    browse::InventoryScan scan(client, inventory::KeySchema());
    ui::BrowserPanel panel(scan, inventory::KeySchema());
    panel.setAutoScan(false);
    if (p.isSet("dialog"))
        panel.setWriteSender(&client);
    if (p.isSet("count"))
        panel.setScanCount(p.value("count").toInt());
    panel.setWindowTitle(QStringLiteral("Key browser — 127.0.0.1:%1").arg(o.port));
    panel.resize(1400, 900);
    panel.show();

    QElapsedTimer clock;
    StallMeter heartbeat(clock, 10, [&](QTextStream &err) {
        err << ", " << panel.inventoryScan().scanner().keysSeen() << " keys, running "
            << panel.inventoryScan().isRunning();
    });

    QObject::connect(&panel, &ui::BrowserPanel::scanFinished, &app, [&](bool complete) {
        if (!show) {
            // Keep the heartbeat going a little: the end of a scan (final sync, anomaly list,
            // totals) runs on the event loop too and counts.
            const qint64 scanMs = panel.inventoryScan().scanner().elapsedMs();
            QTimer::singleShot(500, &app, [&, complete, scanMs] {
                heartbeat.stop();
                QTextStream(stdout)
                    << "gui scan: " << (complete ? "complete" : "INCOMPLETE") << ", "
                    << panel.inventoryScan().scanner().keysSeen() << " keys in "
                    << QString::number(scanMs / 1000.0, 'f', 2) << " s; longest event-loop stall "
                    << heartbeat.worst << " ms (" << heartbeat.over50 << " of " << heartbeat.ticks
                    << " ticks over 50 ms); SKU rows " << panel.skuView()->skuModel().rowCount()
                    << "; peak RSS " << peakRssKb() / 1024 << " MB\n";
                app.exit(complete ? 0 : 1);
            });
            return;
        }
        heartbeat.stop();
        ui::SkuBrowserView *skus = panel.skuView();
        if (p.isSet("filter") || p.isSet("anomalies-only")) {
            skus->findChild<QLineEdit *>(QStringLiteral("skuFilter"))->setText(p.value("filter"));
            skus->findChild<QCheckBox *>(QStringLiteral("anomaliesOnly"))
                ->setChecked(p.isSet("anomalies-only"));
        }
        QTimer::singleShot(400, &panel, [&, skus] {
            const uint32_t sku = panel.inventoryScan().store().findSku(p.value("sku").toUtf8());
            if (sku != browse::KeyspaceStore::None)
                skus->selectSku(sku);
            else if (skus->skuModel().rowCount() > 0)
                skus->skuTable()->selectRow(0);
            const QString tab = p.value("tab");
            if (tab == QLatin1String("order"))
                panel.lookUpOrder(p.value("order").toUtf8());
            else if (tab == QLatin1String("keys")) {
                panel.tabs()->setCurrentIndex(2);
                panel.flatView()->scan(p.value("pattern").toUtf8());
            } else if (tab == QLatin1String("anomalies"))
                panel.tabs()->setCurrentIndex(3);
            if (p.isSet("dialog")) {
                skus->receiptTable()->selectRow(0);
                QTimer::singleShot(200, skus, [skus] {
                    skus->findChild<QPushButton *>(QStringLiteral("deleteReceipt"))->click();
                });
            }
        });
    });
    clock.start();
    heartbeat.start();
    panel.rescan();
    return app.exec();
}
