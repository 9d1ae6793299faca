// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "browse/KeyAction.h"
#include "browse/ReceiptTableModel.h"
#include "browse/SkuTableModel.h"

#include <QWidget>

class QCheckBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace browse {
class InventoryScan;
}

namespace ui {

// The SKU view: SKUs with stock, stock TTL, receipts, soonest receipt expiry and anomalies;
// selecting one lists its receipts below (order, recorded remaining, live TTL, expiry).
class SkuBrowserView : public QWidget
{
    Q_OBJECT
public:
    explicit SkuBrowserView(browse::InventoryScan &scan, QWidget *parent = nullptr);

    browse::SkuTableModel &skuModel() { return m_skus; }
    browse::ReceiptTableModel &receiptModel() { return m_receipts; }
    QTableView *skuTable() const { return m_skuTable; }
    QTableView *receiptTable() const { return m_receiptTable; }

    // Coalesced store changes, a bounded number of new rows per call (a frame's worth); false
    // while more remain.
    bool sync();
    void tick(); // a second passed
    void selectSku(uint32_t sku);
    // The SKUs on screen and the receipts listed: what the refresh timer re-reads.
    std::vector<uint32_t> visibleSkus() const;
    void setWritable(bool writable, const QString &why);
    // Filter again with the current text and box (after anomalies became final): the
    // selection and the receipts pane follow, so the pane never shows a SKU the filter hid.
    void reapplyFilter();
    void setExpiryWarningMs(qint64 ms);
    QString receiptsTitle() const;

signals:
    void actionRequested(const browse::KeyAction &action);
    void watchStockRequested(const QByteArray &sku, const QByteArray &stockKey);
    void status(const QString &message);

private:
    QHBoxLayout *createFilterRow();
    QWidget *createReceiptPane(QWidget *parent);
    void connectButtons();
    void addContextActions();
    void applyFilter();
    void showReceiptsOfCurrent();
    void updateActions();
    void updateReceiptsTitle();
    QByteArray currentKey(bool *isReceipt) const;
    qint64 currentExpiry() const; // of the key the buttons act on
    // The SKU whose stock key the buttons act on, if that key exists; else None.
    uint32_t currentStockSku() const;

    browse::InventoryScan &m_scan;
    browse::SkuTableModel m_skus;
    browse::ReceiptTableModel m_receipts;
    QLineEdit *m_filter = nullptr;
    QCheckBox *m_anomaliesOnly = nullptr;
    QTableView *m_skuTable = nullptr;
    QTableView *m_receiptTable = nullptr;
    QLabel *m_receiptsTitle = nullptr;
    QPushButton *m_setTtl = nullptr, *m_removeTtl = nullptr, *m_delete = nullptr;
    QPushButton *m_setStock = nullptr;
    QPushButton *m_copyKey = nullptr, *m_copyValue = nullptr;
    bool m_writable = false;
    QString m_readOnlyWhy;
};

} // namespace ui
