// SPDX-License-Identifier: GPL-3.0-or-later
#include "DemoDataPanel.h"

#include "ui/common/Palette.h"
#include "ui/common/TableSizing.h"
#include "ui/common/TextStyle.h"

#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ui {

DemoDataPanel::DemoDataPanel(QWidget *parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
    , m_anomalies(new QTableWidget(0, 3, this))
{
    auto *box = new QGroupBox(tr("Demo data"), this);
    auto *inner = new QVBoxLayout(box);
    m_summary->setObjectName(QStringLiteral("demoSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_anomalies->setObjectName(QStringLiteral("demoAnomalies"));
    m_anomalies->setHorizontalHeaderLabels(
        {tr("Planted problem"), tr("Key"), tr("Why it matters")});
    m_anomalies->verticalHeader()->hide();
    m_anomalies->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_anomalies->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_anomalies->setAlternatingRowColors(true);
    m_anomalies->setWordWrap(false);
    m_anomalies->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_anomalies->horizontalHeader()->setStretchLastSection(true);
    m_anomalies->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_anomalies->hide();
    inner->addWidget(m_summary);
    inner->addWidget(m_anomalies);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(box);
    boldGroupTitles(this);
    setSeeding();
}

void DemoDataPanel::setSeeding()
{
    m_summary->setText(tr("Loading <tt>inventory_lib_v1</tt> and seeding demo SKUs and orders…"));
    m_anomalies->hide();
}

void DemoDataPanel::setReport(const demo::SeedReport &r, const demo::SeedOptions &o)
{
    const QLocale locale;
    const qint64 lastOrder = o.firstOrderId + o.orderCount - 1;
    m_summary->setText(
        tr("A private redis-server with generated data; it stops when the console exits. "
           "<b>%1 SKUs</b> (<tt>%2</tt> … <tt>%3</tt>) and <b>%4 idempotency receipts</b> "
           "written by real <tt>FCALL inventory_deduct_v1</tt> calls for orders %5–%6, with "
           "TTLs from minutes to 7 days; %7 retried orders answered <tt>{2, recorded}</tt> and "
           "%8 were refused for insufficient stock. %9 keys in %10 round trips. Planted on "
           "purpose, for you to find:")
            .arg(r.stockKeys)
            .arg(QString::fromUtf8(demo::stockKey(demo::skuId(0))).toHtmlEscaped(),
                 QString::fromUtf8(demo::stockKey(demo::skuId(r.stockKeys - 1))).toHtmlEscaped())
            .arg(r.receipts)
            .arg(o.firstOrderId)
            .arg(lastOrder)
            .arg(r.duplicates)
            .arg(r.insufficient)
            .arg(locale.toString(r.keyCount))
            .arg(r.roundTrips));
    m_anomalies->setRowCount(int(r.anomalies.size()));
    for (int row = 0; row < r.anomalies.size(); ++row) {
        const demo::Anomaly &a = r.anomalies.at(row);
        const QString key = QString::fromUtf8(a.key);
        const QStringList cells{demo::anomalyKindName(a.kind), key, a.description};
        for (int col = 0; col < cells.size(); ++col) {
            auto *item = new QTableWidgetItem(cells.at(col));
            item->setToolTip(cells.at(col));
            m_anomalies->setItem(row, col, item);
        }
    }
    fitHeightToRows(m_anomalies, 1, 12);
    m_anomalies->show();
}

void DemoDataPanel::setFailed(const QString &error)
{
    m_summary->setText(
        tr("<span style=\"color:%1\"><b>Seeding the demo data failed:</b> %2</span><br>"
           "The server is still usable; its contents may be incomplete.")
            .arg(Palette::error().name(), error.toHtmlEscaped()));
    m_anomalies->hide();
}

} // namespace ui
