// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChartsTab.h"

#include "OutcomesPage.h"
#include "ReceiptExpiryPage.h"
#include "ServerChartsPage.h"
#include "SlowLogPage.h"
#include "StockChartPage.h"
#include "TimeChartPanel.h"
#include "metrics/ServerSampler.h"
#include "metrics/StockWatcher.h"
#include "ui/common/TabTitles.h"

namespace ui {

ChartsTab::ChartsTab(redis::CommandSender &reads, inventory::DeductionHistory *history,
                     const QString &auditPath, browse::InventoryScan *scan, QWidget *parent)
    : QTabWidget(parent)
    , m_sampler(new metrics::ServerSampler(reads, this))
    , m_watcher(new metrics::StockWatcher(reads, this))
    , m_server(new ServerChartsPage(*m_sampler))
    , m_slowLog(new SlowLogPage(reads))
    , m_stock(new StockChartPage(*m_watcher))
    , m_outcomes(new OutcomesPage(history, auditPath))
    , m_expiry(new ReceiptExpiryPage(scan))
{
    setObjectName(QStringLiteral("chartsTab"));
    setDocumentMode(true);
    addNamedTab(this, m_server, tr("Server"), QStringLiteral("server"));
    addNamedTab(this, m_slowLog, tr("Slow log"), QStringLiteral("slow log"));
    addNamedTab(this, m_stock, tr("Stock"), QStringLiteral("stock"));
    addNamedTab(this, m_outcomes, tr("Outcomes"), QStringLiteral("outcomes"));
    addNamedTab(this, m_expiry, tr("Receipt expiry"), QStringLiteral("receipt expiry"));
    connect(this, &QTabWidget::currentChanged, this, [this](int) {
        if (currentWidget() == m_expiry)
            m_expiry->refresh();
    });
}

ChartsTab::~ChartsTab()
{
    // The pages hold references to the sampler and the watcher: stop them first.
    m_sampler->stop();
    m_watcher->stop();
}

QList<ChartPanel *> ChartsTab::panels() const
{
    QList<ChartPanel *> out = m_server->panels();
    out << m_stock->panel();
    out << m_outcomes->panels();
    out << m_expiry->panel();
    return out;
}

void ChartsTab::watchStock(const QByteArray &sku, const QByteArray &stockKey)
{
    m_watcher->watch(sku, stockKey);
    if (!m_watcher->isRunning())
        m_watcher->start();
    setCurrentWidget(m_stock);
}

bool ChartsTab::showPage(const QString &name)
{
    // By the pages' English names: --tab charts/stock works in every language.
    const int page = findNamedTab(this, name);
    if (page >= 0)
        setCurrentIndex(page);
    return page >= 0;
}

void ChartsTab::showEvent(QShowEvent *event)
{
    QTabWidget::showEvent(event);
    if (m_started)
        return;
    m_started = true;
    m_sampler->start();
}

} // namespace ui
