#pragma once

#include <QDateTime>
#include <QWidget>

class QBarSet;
class QBarCategoryAxis;
class QLabel;
class QValueAxis;

namespace browse {
class InventoryScan;
}

namespace ui {

class ChartPanel;

// How many receipts of the last scan expire within the next minute, hour, day, week: while a
// receipt lives, retrying its order is answered "already applied"; after, it deducts again.
class ReceiptExpiryPage : public QWidget
{
    Q_OBJECT
public:
    explicit ReceiptExpiryPage(browse::InventoryScan *scan, QWidget *parent = nullptr);
    ChartPanel *panel() const { return m_panel; }

public slots:
    void refresh();

private:
    browse::InventoryScan *m_scan;
    ChartPanel *m_panel;
    QBarSet *m_set;
    QBarCategoryAxis *m_buckets;
    QValueAxis *m_counts;
    QLabel *m_summary;
    bool m_scanned = false;
    QDateTime m_scannedAt; // when the scan counted here finished
};

} // namespace ui
