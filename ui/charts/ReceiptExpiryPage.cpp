#include "ReceiptExpiryPage.h"

#include "ChartPanel.h"
#include "ChartView.h"
#include "CountAxis.h"
#include "browse/InventoryScan.h"
#include "metrics/ReceiptExpiry.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QDateTime>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <QValueAxis>

namespace ui {

ReceiptExpiryPage::ReceiptExpiryPage(browse::InventoryScan *scan, QWidget *parent)
    : QWidget(parent)
    , m_scan(scan)
    , m_panel(new ChartPanel(tr("Receipt expiry from the last scan"), new QChart, false))
    , m_set(new QBarSet(tr("receipts")))
    , m_buckets(new QBarCategoryAxis)
    , m_counts(new QValueAxis)
    , m_summary(new QLabel)
{
    QChart *c = m_panel->chart();
    auto *series = new QBarSeries;
    m_set->setColor(QColor(0x1a73e8));
    series->append(m_set);
    c->addSeries(series);
    // A bucket of 1 next to one of 500 is no visible bar: the count is written on each.
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsFormat(QStringLiteral("@value"));
    m_buckets->setTitleText(tr("expires in (from now)"));
    m_counts->setTitleText(tr("receipts"));
    m_counts->setLabelFormat(QStringLiteral("%d"));
    c->addAxis(m_buckets, Qt::AlignBottom);
    c->addAxis(m_counts, Qt::AlignLeft);
    series->attachAxis(m_buckets);
    series->attachAxis(m_counts);
    c->legend()->hide();
    QStringList categories;
    for (int b = 0; b < metrics::ReceiptExpiry::BucketCount; ++b) {
        categories << metrics::ReceiptExpiry::label(metrics::ReceiptExpiry::Bucket(b));
        *m_set << 0;
    }
    m_buckets->setCategories(categories);
    m_panel->view()->showValuesOf(m_set, categories, tr("receipts"));
    auto *recount = new QPushButton(tr("Recount"));
    recount->setToolTip(tr("Count again from the last scan, at the current time"));
    m_panel->addButton(recount);
    m_summary->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_panel, 1);
    layout->addWidget(m_summary);
    connect(recount, &QPushButton::clicked, this, &ReceiptExpiryPage::refresh);
    if (m_scan)
        connect(m_scan, &browse::InventoryScan::finished, this, [this] {
            m_scanned = true;
            m_scannedAt = QDateTime::currentDateTime();
            refresh();
        });
    refresh();
}

void ReceiptExpiryPage::refresh()
{
    if (!m_scan || (!m_scanned && m_scan->store().receiptCount() == 0)) {
        m_summary->setText(QString());
        m_panel->view()->setEmptyText(
            tr("No scan yet — open the Keys tab to scan; receipts are counted from its result"));
        return;
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const metrics::ReceiptExpiry e = metrics::receiptExpiry(m_scan->store(), now);
    qint64 top = 0;
    for (int b = 0; b < metrics::ReceiptExpiry::BucketCount; ++b) {
        m_set->replace(b, double(e.counts[size_t(b)]));
        top = qMax(top, e.counts[size_t(b)]);
    }
    setCountRange(m_counts, double(top));
    using R = metrics::ReceiptExpiry;
    m_summary->setText(
        tr("%1 receipts in the scan%7, counted at %2. Expiring within a minute: %3, an hour: %4, a "
           "day: %5, a "
           "week: %6. A retry of those orders is answered \"already applied\" only until its "
           "receipt expires; after that it deducts again.")
            .arg(e.receipts)
            .arg(QDateTime::fromMSecsSinceEpoch(now).toString(QStringLiteral("HH:mm:ss")))
            .arg(e.within(R::Minute))
            .arg(e.within(R::Hour))
            .arg(e.within(R::Day))
            .arg(e.within(R::Week))
            .arg(m_scannedAt.isValid()
                     ? tr(" of %1").arg(m_scannedAt.toString(QStringLiteral("HH:mm:ss")))
                     : QString()));
    m_panel->view()->setEmptyText(e.receipts == 0 ? tr("The last scan found no receipt")
                                                  : QString());
}

} // namespace ui
