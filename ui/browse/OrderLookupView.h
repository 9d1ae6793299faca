// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "TopologyWait.h"
#include "browse/InventoryScan.h"
#include "browse/KeyAction.h"
#include "browse/OrderReport.h"
#include "browse/ReceiptTableModel.h"
#include "browse/RowRefresher.h"

#include <QWidget>

class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTextBrowser;

namespace ui {

// "Did order 9001 deduct, how much was left, when does the receipt expire?": type an order id,
// every receipt for it across SKUs is found (SCAN MATCH over the receipt family, never KEYS)
// and explained line by line (deducted, stock left after it, safe to retry until when), with a
// warning when the retry window is about to close and a way to the order's audit records.
class OrderLookupView : public QWidget
{
    Q_OBJECT
public:
    OrderLookupView(redis::CommandSender &reader, inventory::KeySchema schema,
                    QWidget *parent = nullptr);

    void lookUp(const QByteArray &orderId);
    bool isSearching() const { return m_scan.isRunning(); }
    // The sentences as plain text (what the result pane says).
    QString resultText() const;
    browse::InventoryScan &scan() { return m_scan; }
    browse::ReceiptTableModel &model() { return m_model; }

    void tick();
    void refresh(); // re-read the receipts shown (one round trip)
    void setWritable(bool writable, const QString &why);
    // Receipts expiring within this window are flagged (default browse::DefaultExpiryWarningMs).
    void setExpiryWarningMs(qint64 ms);
    // Starts typing a new order id: focus on the input, its text selected.
    void focusInput();
    // The audit log whose records narrow a missing receipt (empty: the default one).
    void setAuditLogPath(const QString &path) { m_auditLogPath = path; }
    // See TopologyWait: a lookup asked for before discovery runs once it is known.
    void setTopologyKnown(bool known) { m_topologyWait.setKnown(known); }

signals:
    void actionRequested(const browse::KeyAction &action);
    void status(const QString &message);
    // "Show in audit log": this order's records for one SKU (empty: in every SKU). Order and
    // SKU are the bytes as typed/stored, decoded as UTF-8.
    void auditRecordsRequested(const QString &sku, const QString &order);

protected:
    // The explanation's HTML carries palette colours: written again in the new ones.
    void changeEvent(QEvent *event) override;

private:
    QHBoxLayout *createInputRow();
    QWidget *createReceiptPane(QWidget *parent);
    void connectSearch();
    void connectActions();
    void onSearchFinished(bool complete, const QString &error);
    void start(const QByteArray &orderId);
    void render();
    void readEvidence();
    void readAuditNote();
    void updateActions();
    void requestAuditRecords();

    browse::InventoryScan m_scan;
    browse::ReceiptTableModel m_model;
    browse::RowRefresher m_refresher;
    QByteArray m_orderId;
    browse::OrderEvidence m_evidence;
    quint64 m_generation = 0;
    QString m_auditLogPath;
    qsizetype m_nodesAsked = 0;
    QLineEdit *m_input = nullptr;
    QPushButton *m_go = nullptr;
    QLabel *m_progress = nullptr;
    QTextBrowser *m_result = nullptr;
    QTableView *m_table = nullptr;
    QPushButton *m_copyKey = nullptr, *m_setTtl = nullptr, *m_delete = nullptr;
    QPushButton *m_audit = nullptr;
    qint64 m_warnWithinMs;
    QString m_rendered;
    bool m_writable = false;
    QString m_readOnlyWhy;
    TopologyWait m_topologyWait;
};

} // namespace ui
