// SPDX-License-Identifier: GPL-3.0-or-later
#include "ResultCard.h"

#include "ui/common/Palette.h"

#include "core/Bytes.h"
#include "inventory/AuditQuery.h"
#include "inventory/RetryProtection.h"
#include "ui/common/OutcomeStyle.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace ui {

using namespace inventory;

ResultCard::ResultCard(QWidget *parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("resultCard"));
    setFrameShape(QFrame::StyledPanel);
    auto *layout = new QVBoxLayout(this);
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("resultTitle"));
    m_title->setTextFormat(Qt::PlainText);
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    m_title->setFont(big);
    m_meaning = new QLabel(this);
    m_meaning->setObjectName(QStringLiteral("resultMeaning"));
    m_next = new QLabel(this);
    m_next->setObjectName(QStringLiteral("resultNext"));
    for (QLabel *l : {m_meaning, m_next}) {
        l->setWordWrap(true);
        l->setTextFormat(Qt::PlainText);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    QFont bold = m_meaning->font();
    bold.setBold(true);
    m_meaning->setFont(bold);
    layout->addWidget(m_title);
    layout->addWidget(m_meaning);
    layout->addWidget(m_next);

    m_rows = new QFormLayout;
    m_rows->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_stockBefore = addRow(tr("Stock just before"), QStringLiteral("stockBefore"));
    m_stockAfter = addRow(tr("Stock just after"), QStringLiteral("stockAfter"));
    m_receipt = addRow(tr("Receipt after"), QStringLiteral("receiptAfter"));
    m_command = addRow(tr("Sent"), QStringLiteral("sentCommand"));
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_detail = addRow(tr("Details"), QStringLiteral("resultDetail"));
    m_check = addRow(tr("Last check"), QStringLiteral("checkResult"));
    layout->addLayout(m_rows);

    m_checkButton = new QPushButton(tr("Check receipt"), this);
    m_checkButton->setObjectName(QStringLiteral("checkReceipt"));
    m_retry = new QPushButton(tr("Retry with the same order id…"), this);
    m_retry->setObjectName(QStringLiteral("retrySameOrder"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_checkButton);
    buttons->addWidget(m_retry);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    layout->addStretch(1);
    connect(m_checkButton, &QPushButton::clicked, this, [this] { emit checkRequested(m_entryId); });
    connect(m_retry, &QPushButton::clicked, this, [this] { emit retryRequested(m_entryId); });
    setAutoFillBackground(true);
    showIdle();
}

QLabel *ResultCard::addRow(const QString &label, const QString &name)
{
    auto *value = new QLabel(this);
    value->setObjectName(name);
    value->setTextFormat(Qt::PlainText);
    value->setWordWrap(true);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_rows->addRow(label, value);
    return value;
}

void ResultCard::setRowVisible(QLabel *value, bool visible)
{
    m_rows->setRowVisible(value, visible);
}

void ResultCard::setRowLabel(QLabel *value, const QString &text)
{
    if (auto *label = qobject_cast<QLabel *>(m_rows->labelForField(value)))
        label->setText(text);
}

void ResultCard::setColor(const QColor &strong, const QColor &tint)
{
    // The title's colour in the card's own style sheet, not in its palette: each new card
    // style sheet repolishes the title and would put back the palette it had before.
    setStyleSheet(QStringLiteral("QFrame#resultCard { background: %1; border: 1px solid %2; "
                                 "border-left: 6px solid %2; } QLabel#resultTitle { color: %2; }")
                      .arg(tint.name(), strong.name()));
}

void ResultCard::showIdle()
{
    m_entryId = 0;
    setColor(Palette::muted(), Palette::idleTint());
    m_title->setText(tr("No deduction yet"));
    m_meaning->setText(tr("Fill in the form and press Run (Ctrl+Enter). You will see the exact "
                          "command before anything is sent."));
    m_next->clear();
    for (QLabel *l : {m_stockBefore, m_stockAfter, m_receipt, m_command, m_detail, m_check})
        setRowVisible(l, false);
    m_checkButton->hide();
    m_retry->hide();
}

void ResultCard::showRunning(const DeductionPlan &plan, bool retry)
{
    m_entryId = 0;
    setColor(Palette::muted(), Palette::idleTint());
    m_title->setText(retry ? tr("Retrying…") : tr("Running…"));
    m_meaning->setText(tr("Sent; waiting for the reply. Until it comes, the outcome is not "
                          "known."));
    m_next->clear();
    for (QLabel *l : {m_stockBefore, m_stockAfter, m_receipt, m_detail, m_check})
        setRowVisible(l, false);
    m_command->setText(commandText(plan.command));
    setRowLabel(m_command, tr("Sending"));
    setRowVisible(m_command, true);
    m_checkButton->hide();
    m_retry->hide();
}

void ResultCard::setChecking(bool checking)
{
    m_checkButton->setEnabled(!checking);
    if (checking) {
        m_check->setText(tr("checking…"));
        setRowVisible(m_check, true);
    }
}

void ResultCard::showEntry(const DeductionHistory::Entry &e)
{
    const DeductionResult &r = e.result;
    const DeductionOutcome &o = r.outcome;
    const bool function = r.plan.request.mode == DeductionMode::Function;
    m_entryId = e.id;
    setColor(outcomeColor(o.kind), outcomeTint(o.kind));
    m_title->setText(outcomeTitle(o.kind) + titleValue(o));
    // The read-back can take back what the reply promised (a receipt evicted right after).
    m_meaning->setText(resultMeaning(r));
    m_next->setText(tr("Next: %1").arg(resultNextStep(r)));
    showReads(r);
    m_command->setText(commandText(r.sent.isEmpty() ? r.plan.command : r.sent.last()));
    setRowLabel(m_command, o.kind == OutcomeKind::NotSent ? tr("Not sent") : tr("Sent"));
    setRowLabel(m_check, function ? tr("Receipt check") : tr("Stock check"));
    setRowVisible(m_command, true);
    showDetail(r);
    showCheck(e);
    showButtons(o.kind, function);
}

// The figure the outcome's title ends with, e.g. " — remaining 11".
QString ResultCard::titleValue(const DeductionOutcome &o)
{
    if (o.kind == OutcomeKind::AlreadyApplied && o.recordedQuantity)
        return tr(" — recorded quantity %1").arg(*o.recordedQuantity);
    if (o.kind == OutcomeKind::AlreadyApplied && o.remaining)
        return tr(" — recorded remaining %1").arg(*o.remaining);
    if (o.remaining)
        return tr(" — remaining %1").arg(*o.remaining);
    if (o.stock)
        return tr(" — stock %1").arg(*o.stock);
    return {};
}

// The stock just before and after, and the receipt: each a read of its own.
void ResultCard::showReads(const DeductionResult &r)
{
    const DeductionOutcome &o = r.outcome;
    const bool function = r.plan.request.mode == DeductionMode::Function;
    m_stockBefore->setText(r.stockBefore.text());
    m_stockAfter->setText(r.stockAfter.read ? r.stockAfter.text()
                                            : tr("not read (use the check below)"));
    setRowVisible(m_stockBefore, o.kind != OutcomeKind::NotSent || r.stockBefore.read);
    setRowVisible(m_stockAfter, o.kind != OutcomeKind::NotSent);
    if (function && r.receiptAfter) {
        const ReceiptStatus &s = *r.receiptAfter;
        m_receipt->setText(!s.ok()    ? tr("read failed: %1").arg(s.error.text)
                           : s.exists ? tr("%1 = %2, TTL %3")
                                            .arg(core::escapeBytes(s.key),
                                                 core::escapeBytes(s.rawValue, 60), s.ttlText())
                                      : tr("%1 does not exist").arg(core::escapeBytes(s.key)));
    } else {
        m_receipt->setText(function ? tr("not read (use Check receipt)")
                                    : tr("none: the script keeps no receipt"));
    }
    setRowVisible(m_receipt, o.kind != OutcomeKind::NotSent);
}

void ResultCard::showDetail(const DeductionResult &r)
{
    const DeductionOutcome &o = r.outcome;
    QStringList detail;
    if (o.kind == OutcomeKind::Unknown)
        detail << tr("no reply after %1 ms").arg(r.durationMs);
    else if (r.durationMs >= 0 && o.kind != OutcomeKind::NotSent)
        detail << tr("reply in %1 ms").arg(r.durationMs);
    if (!r.runId.isEmpty())
        detail << tr("server run_id %1").arg(r.runId.left(12));
    if (r.scriptLoaded)
        detail << tr("NOSCRIPT: the script was loaded and the call sent once more (safe: "
                     "NOSCRIPT proves it had not run)");
    // A server error is in the meaning already; any other reply is shown as it came.
    if (!o.replyText.isEmpty() && o.kind != OutcomeKind::Rejected
        && (o.kind != OutcomeKind::MayHaveWritten || o.outsideContract()))
        detail << tr("reply %1").arg(o.replyText);
    for (const core::Sentence &p : r.auditProblems)
        detail << tr("WARNING: audit record not written: %1").arg(p.text);
    m_detail->setText(detail.join(QStringLiteral("; ")));
    setRowVisible(m_detail, !detail.isEmpty());
}

void ResultCard::showCheck(const DeductionHistory::Entry &e)
{
    if (e.receiptCheck && !e.checkSummary.isEmpty() && e.checkedLocal.isValid()) {
        m_check->setText(
            tr("%1 (checked %2)")
                .arg(e.receiptVerdict(), e.checkedLocal.toString(QStringLiteral("HH:mm:ss"))));
    } else if (e.stockCheck) {
        m_check->setText(tr("%1 (checked %2)")
                             .arg(scriptCheckVerdict(e.result, *e.stockCheck),
                                  e.checkedLocal.toString(QStringLiteral("HH:mm:ss"))));
    } else {
        m_check->clear();
    }
    setRowVisible(m_check, !m_check->text().isEmpty());
}

void ResultCard::showButtons(OutcomeKind kind, bool function)
{
    m_checkButton->setText(function ? tr("Check receipt") : tr("Check stock"));
    m_checkButton->setVisible(kind != OutcomeKind::NotSent);
    m_checkButton->setEnabled(true);
    // A retry is offered when it is the way forward: after an unknown outcome or a send that
    // never happened. In Script mode it needs an explicit acknowledgement (see the dialog).
    const bool retryable = kind == OutcomeKind::Unknown || kind == OutcomeKind::NotSent;
    m_retry->setVisible(retryable);
    m_retry->setText(kind == OutcomeKind::NotSent ? tr("Run again…")
                     : function                   ? tr("Retry with the same order id…")
                                                  : tr("Retry (may deduct twice)…"));
}

QString ResultCard::titleText() const
{
    return m_title->text();
}

QString ResultCard::meaningText() const
{
    return m_meaning->text();
}

QString ResultCard::checkText() const
{
    return m_check->text();
}

} // namespace ui
