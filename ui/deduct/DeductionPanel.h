// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "inventory/DeductionContext.h"
#include "inventory/DeductionHistory.h"
#include "inventory/SkuDirectory.h"
#include "profiles/Environment.h"
#include "redis/CommandSender.h"

#include <QPointer>
#include <QWidget>

class QTableView;

namespace ui {

class ConfirmDeductionDialog;
class DeductionForm;
class NoticeBanner;
class ResultCard;

// Manual deductions: the form, a confirmation with the exact command, the result card, and
// this session's history (each entry re-checkable: select it, then Check receipt).
// Writes go through `sender` (give it the session's gated sender: a read-only session then
// refuses, and the card says that nothing was sent). Every write is in the audit log before
// its result is shown.
class DeductionPanel : public QWidget
{
    Q_OBJECT
public:
    // `sender` is not owned and must outlive the panel.
    DeductionPanel(redis::CommandSender &sender, const inventory::DeductionContext &ctx,
                   QWidget *parent = nullptr);

    // Another profile or server; the history stays (its entries name their keys).
    void setContext(const inventory::DeductionContext &ctx);
    // From the key browser: fills the SKU (and the order id when given) and focuses the next
    // empty field.
    void prefill(const QString &sku, const QString &orderId = {});
    // A line shown above the form and in the confirmation (e.g. the write gate's refusal
    // message while the session is read-only); empty hides it.
    void setReadOnlyNotice(const QString &notice);
    // The session's environment, badged in every confirmation as the window's banner shows it.
    void setEnvironment(profiles::Environment environment) { m_environment = environment; }
    profiles::Environment environment() const { return m_environment; }
    // The key browser's last scan: SKU suggestions in the form, known anomalies in the
    // confirmation. Not owned; nullptr (the default): neither.
    void setSkuDirectory(const inventory::SkuDirectory *directory);

    inventory::DeductionHistory *history() const { return m_history; }
    DeductionForm *form() const { return m_form; }
    ResultCard *resultCard() const { return m_card; }
    // The confirmation on screen, if any (tests press its buttons).
    ConfirmDeductionDialog *pendingConfirmation() const { return m_dialog; }
    bool isRunning() const { return m_running; }

public slots:
    void runFromForm(); // what Ctrl+Enter and the Run button do

signals:
    void deductionFinished(const inventory::DeductionResult &result);

private:
    void confirmAndRun(const inventory::DeductionPlan &plan, int kind, const QString &note);
    void execute(const inventory::DeductionPlan &plan, const QString &note);
    void onFinished(const inventory::DeductionResult &result);
    void check(int entryId);
    void retry(int entryId);
    void showEntry(int entryId);
    // Fills the confirmation with what is known before the call: the stock now, the SKU's
    // known anomalies, earlier calls for the same order.
    void describeBefore(ConfirmDeductionDialog *dialog, const inventory::DeductionPlan &plan);

    redis::CommandSender &m_sender;
    inventory::DeductionContext m_ctx;
    NoticeBanner *m_notice;
    DeductionForm *m_form;
    ResultCard *m_card;
    inventory::DeductionHistory *m_history;
    QTableView *m_historyView;
    QPointer<ConfirmDeductionDialog> m_dialog;
    // Until told: the most careful badge, never a reassuring one.
    profiles::Environment m_environment = profiles::Environment::Production;
    QString m_readOnlyNotice;
    const inventory::SkuDirectory *m_directory = nullptr;
    bool m_running = false;
};

} // namespace ui
