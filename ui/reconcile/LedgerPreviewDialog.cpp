// SPDX-License-Identifier: GPL-3.0-or-later
#include "LedgerPreviewDialog.h"

#include "ui/common/NoticeBanner.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>
#include <memory>

namespace ui {

LedgerPreviewDialog::LedgerPreviewDialog(const core::Result<ReconcileRequest, QString> &request,
                                         QWidget *parent)
    : QDialog(parent)
    , m_notice(new NoticeBanner(NoticeBanner::Kind::Info, this))
    , m_about(new QLabel(this))
    , m_table(new QTableWidget(0, 6, this))
{
    setWindowTitle(tr("Ledger preview"));
    m_about->setWordWrap(true);
    m_table->setHorizontalHeaderLabels(
        {tr("Row"), tr("Order"), tr("SKU"), tr("Quantity"), tr("State"), tr("Time")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_about);
    layout->addWidget(m_notice);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(760, 480);
    if (!request) {
        m_notice->setNotice(NoticeBanner::Kind::Danger,
                            tr("Nothing was read: %1").arg(request.error()));
        return;
    }
    const ReconcileRequest r = request.value();
    m_about->setText(tr("The first %1 rows of %2 as a run will read them: the columns and "
                        "states mapped, each row checked. Nothing is written.")
                         .arg(Rows)
                         .arg(r.spec.description()));
    m_notice->setNotice(NoticeBanner::Kind::Info, tr("Reading the first rows…"));
    m_reading = true;
    auto result = std::make_shared<ledger::LedgerPreview>();
    QThread *thread =
        QThread::create([r, result] { *result = ledger::previewLedger(r.spec, r.password, Rows); });
    connect(thread, &QThread::finished, this, [this, result] { showPreview(*result); });
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->start();
}

QString LedgerPreviewDialog::noticeText() const
{
    return m_notice->text();
}

void LedgerPreviewDialog::showPreview(const ledger::LedgerPreview &p)
{
    m_reading = false;
    if (!p.openError.isEmpty()) {
        m_notice->setNotice(NoticeBanner::Kind::Danger,
                            tr("Could not open the ledger: %1").arg(p.openError));
        emit previewShown();
        return;
    }
    m_table->setRowCount(int(p.rows.size()));
    for (int i = 0; i < p.rows.size(); ++i) {
        const ledger::LedgerRow &row = p.rows[i];
        const QString time =
            row.timeMs == ledger::NoTime
                ? (p.hasTime ? tr("(none)") : tr("(no time column mapped)"))
                : QDateTime::fromMSecsSinceEpoch(row.timeMs, Qt::UTC).toString(Qt::ISODate);
        const QStringList cells{QString::number(row.number),  QString::fromUtf8(row.orderId),
                                QString::fromUtf8(row.sku),   QString::number(row.quantity),
                                ledger::stateName(row.state), time};
        for (int c = 0; c < cells.size(); ++c)
            m_table->setItem(i, c, new QTableWidgetItem(cells[c]));
    }
    m_table->resizeColumnsToContents();
    if (!p.rowError.isEmpty())
        m_notice->setNotice(NoticeBanner::Kind::Warning,
                            tr("A run would stop here: %1. Fix the column or state mapping (or "
                               "the ledger) before running.")
                                .arg(p.rowError));
    else if (p.rows.isEmpty())
        m_notice->setNotice(NoticeBanner::Kind::Warning, tr("The ledger has no rows."));
    else
        m_notice->setNotice(
            NoticeBanner::Kind::Success,
            p.more ? tr("These %1 rows map cleanly; the ledger has more.").arg(p.rows.size())
                   : tr("All %1 rows of the ledger map cleanly.").arg(p.rows.size()));
    emit previewShown();
}

} // namespace ui
