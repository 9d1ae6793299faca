// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReceiptExpiryPage.h"

#include "ChartPanel.h"
#include "ChartView.h"
#include "browse/InventoryScan.h"
#include "core/Csv.h"
#include "ui/common/Palette.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QDateTime>
#include <QLabel>
#include <QLogValueAxis>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

namespace ui {

namespace {

using R = metrics::ReceiptExpiry;

// "expired<br>3": the count under the bar, readable whatever the bar's height (axis labels are
// HTML); the bucket alone before anything was counted.
QStringList categories(const std::optional<R> &e)
{
    QStringList out;
    for (int b = 0; b < R::BucketCount; ++b)
        out << (e ? QStringLiteral("%1<br>%2")
                        .arg(R::label(R::Bucket(b)), QLocale().toString(e->counts[size_t(b)]))
                  : R::label(R::Bucket(b)));
    return out;
}

QByteArray countsCsv(const std::optional<R> &e)
{
    QByteArray out = "bucket,receipts\r\n";
    for (int b = 0; e && b < R::BucketCount; ++b)
        out += core::csvCell(R::label(R::Bucket(b)).toUtf8()) + ','
               + QByteArray::number(e->counts[size_t(b)]) + "\r\n";
    return out;
}

} // namespace

ReceiptExpiryPage::ReceiptExpiryPage(browse::InventoryScan *scan, QWidget *parent)
    : QWidget(parent)
    , m_scan(scan)
    , m_panel(new ChartPanel(tr("Receipt expiry from the last scan"), new QChart, false))
    , m_set(new QBarSet(tr("receipts")))
    , m_buckets(new QBarCategoryAxis)
    , m_counts(new QLogValueAxis)
    , m_summary(new QLabel)
{
    QChart *c = m_panel->chart();
    auto *series = new QBarSeries;
    m_set->setColor(Palette::series());
    series->append(m_set);
    c->addSeries(series);
    m_buckets->setTitleText(tr("expires in (from now), receipts"));
    m_counts->setTitleText(tr("receipts (log scale)"));
    m_counts->setBase(10);
    m_counts->setLabelFormat(QStringLiteral("%.0f"));
    m_counts->setMinorTickCount(0);
    c->addAxis(m_buckets, Qt::AlignBottom);
    c->addAxis(m_counts, Qt::AlignLeft);
    series->attachAxis(m_buckets);
    series->attachAxis(m_counts);
    c->legend()->hide();
    for (int b = 0; b < R::BucketCount; ++b)
        *m_set << Floor;
    m_buckets->setCategories(categories(m_counted));
    m_counts->setRange(Floor, 10);
    // No hover tooltip: every count is already written under its bar. Save CSV writes the
    // counts rather than the bars' heights (an empty bucket is drawn up to Floor).
    m_panel->setCsvSource([this] { return countsCsv(m_counted); });
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
    showCounts(metrics::receiptExpiry(m_scan->store(), QDateTime::currentMSecsSinceEpoch()));
}

void ReceiptExpiryPage::showCounts(const metrics::ReceiptExpiry &e)
{
    m_counted = e;
    qint64 top = 0;
    for (int b = 0; b < R::BucketCount; ++b) {
        const qint64 n = e.counts[size_t(b)];
        m_set->replace(b, n > 0 ? double(n) : Floor);
        top = qMax(top, n);
    }
    m_buckets->setCategories(categories(m_counted));
    // Whole decades with room above the tallest bar, so its height still reads.
    m_counts->setRange(Floor, std::pow(10.0, std::ceil(std::log10(qMax(10.0, 2.0 * top)))));
    m_summary->setText(
        tr("%1 receipts in the scan%7, counted at %2. Already expired: %8; without a TTL: %9. "
           "Expiring within a minute: %3, an hour: %4, a day: %5, a week: %6. A retry of those "
           "orders is answered \"already applied\" only until its receipt expires; after that "
           "it deducts again.")
            .arg(e.receipts)
            .arg(QDateTime::fromMSecsSinceEpoch(e.nowMs).toString(QStringLiteral("HH:mm:ss")))
            .arg(e.within(R::Minute))
            .arg(e.within(R::Hour))
            .arg(e.within(R::Day))
            .arg(e.within(R::Week))
            .arg(m_scannedAt.isValid()
                     ? tr(" of %1").arg(m_scannedAt.toString(QStringLiteral("HH:mm:ss")))
                     : QString())
            .arg(e.counts[R::Expired])
            .arg(e.counts[R::NoTtl]));
    m_panel->view()->setEmptyText(e.receipts == 0 ? tr("The last scan found no receipt")
                                                  : QString());
}

} // namespace ui
