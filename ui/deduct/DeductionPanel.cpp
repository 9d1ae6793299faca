// SPDX-License-Identifier: GPL-3.0-or-later
#include "DeductionPanel.h"

#include "ConfirmDeductionDialog.h"
#include "DeductionForm.h"
#include "ResultCard.h"
#include "inventory/InventoryLog.h"
#include "inventory/PriorDeductions.h"
#include "inventory/ReceiptForecast.h"
#include "ui/common/NoticeBanner.h"
#include "ui/common/OutcomeStyle.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QTableView>
#include <QTime>
#include <QVBoxLayout>

namespace ui {

using namespace inventory;

DeductionPanel::DeductionPanel(redis::CommandSender &sender, const DeductionContext &ctx,
                               QWidget *parent)
    : QWidget(parent)
    , m_sender(sender)
    , m_ctx(ctx)
{
    m_notice = new NoticeBanner(NoticeBanner::Kind::Danger, this);
    m_notice->setObjectName(QStringLiteral("readOnlyNotice"));
    m_notice->setTextFormat(Qt::PlainText);

    m_form = new DeductionForm(ctx, this);
    auto *formBox = new QGroupBox(tr("Deduction"), this);
    (new QVBoxLayout(formBox))->addWidget(m_form);

    m_card = new ResultCard(this);
    auto *cardBox = new QGroupBox(tr("Result"), this);
    (new QVBoxLayout(cardBox))->addWidget(m_card);

    auto *top = new QHBoxLayout;
    top->addWidget(formBox, 5);
    top->addWidget(cardBox, 6);

    m_history = new DeductionHistory(this);
    auto *proxy = new HistoryColorProxy(this);
    proxy->setSourceModel(m_history);
    m_historyView = new QTableView(this);
    m_historyView->setObjectName(QStringLiteral("deductionHistory"));
    m_historyView->setModel(proxy);
    m_historyView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_historyView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_historyView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_historyView->verticalHeader()->hide();
    // Every column fits its longest text ("Already applied", "receipt gone: a retry deducts"); the
    // last check takes what is left, and a narrow window scrolls instead of cutting words.
    QHeaderView *header = m_historyView->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setStretchLastSection(true);
    header->setMinimumSectionSize(48);
    m_historyView->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_historyView->setTextElideMode(Qt::ElideNone);
    m_historyView->setWordWrap(false);
    auto *historyBox = new QGroupBox(tr("This session's deductions (select one to see it and "
                                        "check it again)"),
                                     this);
    (new QVBoxLayout(historyBox))->addWidget(m_historyView);

    auto *topWidget = new QWidget(this);
    topWidget->setLayout(top);
    top->setContentsMargins(0, 0, 0, 0);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(topWidget);
    split->addWidget(historyBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_notice);
    layout->addWidget(split, 1);

    for (auto key :
         {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto *shortcut = new QShortcut(key, this);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, this, &DeductionPanel::runFromForm);
    }
    connect(m_form, &DeductionForm::runRequested, this, &DeductionPanel::runFromForm);
    connect(m_card, &ResultCard::checkRequested, this, &DeductionPanel::check);
    connect(m_card, &ResultCard::retryRequested, this, &DeductionPanel::retry);
    connect(m_historyView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (const auto *e = m_history->entryAt(current.row()))
                    showEntry(e->id);
            });
}

void DeductionPanel::setContext(const DeductionContext &ctx)
{
    m_ctx = ctx;
    m_form->setContext(ctx);
}

void DeductionPanel::prefill(const QString &sku, const QString &orderId)
{
    m_form->setSku(sku);
    if (!orderId.isEmpty())
        m_form->setOrderId(orderId);
    m_form
        ->findChild<QWidget *>(orderId.isEmpty() ? QStringLiteral("order")
                                                 : QStringLiteral("quantity"))
        ->setFocus();
}

void DeductionPanel::setReadOnlyNotice(const QString &notice)
{
    m_readOnlyNotice = notice;
    m_notice->setNotice(notice);
}

void DeductionPanel::setSkuDirectory(const SkuDirectory *directory)
{
    m_directory = directory;
    m_form->setSkuDirectory(directory);
}

void DeductionPanel::runFromForm()
{
    if (m_running || m_dialog)
        return;
    if (!m_form->validateAll())
        return; // the form shows why, next to each field
    confirmAndRun(m_form->plan(), int(ConfirmDeductionDialog::Kind::First), QString());
}

void DeductionPanel::confirmAndRun(const DeductionPlan &plan, int kind, const QString &note)
{
    auto *dialog = new ConfirmDeductionDialog(plan, m_ctx, ConfirmDeductionDialog::Kind(kind),
                                              m_readOnlyNotice, m_environment, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog = dialog;
    connect(dialog, &QDialog::accepted, this, [this, plan, note] { execute(plan, note); });
    describeBefore(dialog, plan);
    dialog->open(); // window-modal, without a nested event loop
}

void DeductionPanel::describeBefore(ConfirmDeductionDialog *dialog, const DeductionPlan &plan)
{
    // A read: it passes a read-only session's gate. The dialog is its context, so a reply
    // after Cancel is dropped.
    readKey(
        m_sender, plan.stockKey, dialog,
        [dialog](const KeyReading &k) {
            dialog->setCurrentStock(
                tr("%1 (read at %2)")
                    .arg(k.text(), QTime::currentTime().toString(QStringLiteral("HH:mm:ss"))));
        },
        m_ctx.timeoutMs);
    // The function reads the receipt before the stock: one already there decides the call,
    // and the person confirming should know that before sending it.
    if (plan.request.mode == DeductionMode::Function)
        checkReceipt(
            m_sender, plan.receiptKey, dialog,
            [dialog, order = plan.request.orderId](const ReceiptStatus &s) {
                dialog->setReceiptForecast(receiptForecast(s, order));
            },
            m_ctx.timeoutMs);
    if (m_directory && m_directory->hasScan())
        dialog->setKnownAnomalies(m_directory->anomalies(plan.request.sku));
    // The audit log holds other sessions' and inventory-cli's calls too; it is read here,
    // once per confirmation, so what it says is current.
    const auto audit = AuditLog::read(m_ctx.auditLogPath);
    const QList<PriorDeduction> prior = mergePrior(
        priorInHistory(*m_history, plan),
        priorInAudit(pairAttempts(audit.records), plan, m_ctx.schema, m_ctx.serverAddress));
    dialog->setRepeatWarning(repeatWarning(plan, prior), repeatMayDeductTwice(plan, prior));
}

void DeductionPanel::execute(const DeductionPlan &plan, const QString &note)
{
    if (m_running)
        return;
    m_running = true;
    m_form->runButton()->setEnabled(false);
    m_card->showRunning(plan, !note.isEmpty());
    DeductionOptions options;
    options.note = note;
    deduct(
        m_sender, m_ctx, plan, this, [this](const DeductionResult &r) { onFinished(r); }, options);
}

void DeductionPanel::onFinished(const DeductionResult &result)
{
    m_running = false;
    m_form->runButton()->setEnabled(true);
    if (result.outcome.kind == OutcomeKind::StockMissing)
        m_form->noteMissingStock(result.plan.request.sku);
    const int id = m_history->add(result);
    showEntry(id);
    const int row = m_history->rowOf(id);
    m_historyView->selectRow(row);
    m_historyView->scrollTo(m_historyView->model()->index(row, 0));
    emit deductionFinished(result);
}

void DeductionPanel::showEntry(int entryId)
{
    if (const auto *e = m_history->entry(entryId))
        m_card->showEntry(*e);
}

void DeductionPanel::check(int entryId)
{
    const auto *e = m_history->entry(entryId);
    if (!e)
        return;
    m_card->setChecking(true);
    const DeductionPlan &plan = e->result.plan;
    auto after = [this, entryId] {
        if (m_card->entryId() == entryId)
            showEntry(entryId);
    };
    if (plan.request.mode == DeductionMode::Function) {
        checkReceipt(
            m_sender, plan.receiptKey, this,
            [this, entryId, after](const ReceiptStatus &s) {
                m_history->setReceiptCheck(entryId, s);
                after();
            },
            m_ctx.timeoutMs);
    } else {
        readKey(
            m_sender, plan.stockKey, this,
            [this, entryId, after](const KeyReading &k) {
                m_history->setStockCheck(entryId, k);
                after();
            },
            m_ctx.timeoutMs);
    }
}

void DeductionPanel::retry(int entryId)
{
    const auto *e = m_history->entry(entryId);
    if (!e || m_running || m_dialog)
        return;
    const DeductionResult &r = e->result;
    const bool function = r.plan.request.mode == DeductionMode::Function;
    const bool mayDoubleDeduct = !function && r.outcome.kind == OutcomeKind::Unknown;
    using Kind = ConfirmDeductionDialog::Kind;
    const Kind kind = mayDoubleDeduct ? Kind::ScriptRetry
                      : function      ? Kind::RetrySameOrder
                                      : Kind::First;
    const QString note =
        mayDoubleDeduct
            ? tr("script retry after an unknown outcome, acknowledged: may "
                 "deduct twice")
            : tr("retry of history entry %1 (%2)").arg(entryId).arg(outcomeName(r.outcome.kind));
    qCInfo(lcInventory) << "retry requested" << entryId << outcomeName(r.outcome.kind);
    // Planned again from the same request: the keys follow the current profile's schema.
    confirmAndRun(planDeduction(r.plan.request, m_ctx.schema), int(kind), note);
    if (m_dialog && e->stockCheck)
        m_dialog->setEvidence(scriptCheckVerdict(r, *e->stockCheck));
    else if (m_dialog && e->receiptCheck)
        m_dialog->setEvidence(e->receiptVerdict());
}

} // namespace ui
