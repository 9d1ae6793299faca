// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTabWidget>

namespace browse {
class InventoryScan;
}
namespace inventory {
class DeductionHistory;
}
namespace metrics {
class ServerSampler;
class StockWatcher;
} // namespace metrics
namespace redis {
class CommandSender;
}

namespace ui {

class ChartPanel;
class OutcomesPage;
class ReceiptExpiryPage;
class ServerChartsPage;
class SlowLogPage;
class StockChartPage;

// The Charts tab: Server, Slow log, Stock, Outcomes, Receipt expiry. Sampling starts the first
// time the tab is shown and then goes on while the window is open, so the last hour is whole
// when the user comes back (one pipelined round trip per node per second; the Sample box
// stops it). A console whose Charts tab is never opened sends nothing for it.
class ChartsTab : public QTabWidget
{
    Q_OBJECT
public:
    ChartsTab(redis::CommandSender &reads, inventory::DeductionHistory *history,
              const QString &auditPath, browse::InventoryScan *scan, QWidget *parent = nullptr);
    ~ChartsTab() override;

    metrics::ServerSampler &sampler() { return *m_sampler; }
    metrics::StockWatcher &stockWatcher() { return *m_watcher; }
    // Every chart, for export and the readiness report; each renders with
    // panel->view()->renderImage(size).
    QList<ChartPanel *> panels() const;
    // Watches a SKU's stock (reading starts at once) and shows the Stock page.
    void watchStock(const QByteArray &sku, const QByteArray &stockKey);
    // Shows the sub-tab whose title starts with `name` (case-insensitive).
    bool showPage(const QString &name);

protected:
    void showEvent(QShowEvent *event) override;

private:
    metrics::ServerSampler *m_sampler;
    metrics::StockWatcher *m_watcher;
    ServerChartsPage *m_server;
    SlowLogPage *m_slowLog;
    StockChartPage *m_stock;
    OutcomesPage *m_outcomes;
    ReceiptExpiryPage *m_expiry;
    bool m_started = false;
};

} // namespace ui
