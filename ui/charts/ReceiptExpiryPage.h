// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "metrics/ReceiptExpiry.h"

#include <QDateTime>
#include <QWidget>
#include <optional>

class QBarSet;
class QBarCategoryAxis;
class QLabel;
class QLogValueAxis;

namespace browse {
class InventoryScan;
}

namespace ui {

class ChartPanel;

// How many receipts of the last scan expire within the next minute, hour, day, week: while a
// receipt lives, retrying its order is answered "already applied"; after, it deducts again.
// The few expired or TTL-less receipts matter most and sit beside buckets of millions: counts
// go on a logarithmic axis, and each bucket's count is written under its bar.
class ReceiptExpiryPage : public QWidget
{
    Q_OBJECT
public:
    explicit ReceiptExpiryPage(browse::InventoryScan *scan, QWidget *parent = nullptr);
    ChartPanel *panel() const { return m_panel; }
    // The counts drawn, the last refresh's; none before a scan.
    const std::optional<metrics::ReceiptExpiry> &counted() const { return m_counted; }
    // Where a bar of no receipts ends: a log axis has no zero.
    static constexpr double Floor = 0.5;

    // Draws these counts (refresh() counts the last scan's receipts now).
    void showCounts(const metrics::ReceiptExpiry &counted);

public slots:
    void refresh();

private:
    browse::InventoryScan *m_scan;
    ChartPanel *m_panel;
    QBarSet *m_set;
    QBarCategoryAxis *m_buckets;
    QLogValueAxis *m_counts;
    QLabel *m_summary;
    std::optional<metrics::ReceiptExpiry> m_counted;
    bool m_scanned = false;
    QDateTime m_scannedAt; // when the scan counted here finished
};

} // namespace ui
