// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ReconcileJob.h"
#include "core/Result.h"
#include "ledger/LedgerPreview.h"

#include <QDialog>

class QLabel;
class QTableWidget;

namespace ui {

class NoticeBanner;

// The first rows of the ledger as a run will read them, with the column and state mappings of
// the form: order, SKU, quantity, the state it maps to, the time. A row that does not validate
// is shown with why, so a wrong mapping is seen before a run. Read on a thread of its own (a
// PostgreSQL connect may take its timeout), read-only as a run opens it; nothing is kept.
class LedgerPreviewDialog : public QDialog
{
    Q_OBJECT
public:
    static constexpr int Rows = 20;

    LedgerPreviewDialog(const core::Result<ReconcileRequest, QString> &request,
                        QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }
    QString noticeText() const;
    bool isReading() const { return m_reading; }

signals:
    void previewShown();

private:
    void showPreview(const ledger::LedgerPreview &preview);

    NoticeBanner *m_notice;
    QLabel *m_about;
    QTableWidget *m_table;
    bool m_reading = false;
};

} // namespace ui
