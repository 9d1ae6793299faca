// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "inventory/DeductionContext.h"
#include "inventory/ReceiptForecast.h"
#include "profiles/Environment.h"

#include <QDialog>

class QPushButton;
class QCheckBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QTableWidget;
class QVBoxLayout;

namespace ui {

class NoticeBanner;

// Shows exactly what will be sent before a deduction: where (profile, server), the keys with
// their slots, every argument, and the same command for redis-cli, with a button that copies
// it (shell-quoted: it works when pasted). In Script mode a retry after an unknown outcome
// must be acknowledged ("may deduct twice") before Run is enabled, and so must a script call
// for an order that earlier calls may already have deducted.
class ConfirmDeductionDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Kind { First, RetrySameOrder, ScriptRetry };
    // `environment` is shown as the window's banner shows it: a write to production must look
    // like one here too.
    ConfirmDeductionDialog(const inventory::DeductionPlan &plan,
                           const inventory::DeductionContext &ctx, Kind kind,
                           const QString &readOnlyNotice, profiles::Environment environment,
                           QWidget *parent = nullptr);

    // What is known so far (e.g. the last stock check before a script retry); shown under
    // the introduction.
    void setEvidence(const QString &text);
    // The stock read just before the dialog opened (e.g. "12", "missing"), and when.
    void setCurrentStock(const QString &text);
    // Function mode: what the order's receipt, read just before the dialog opened, says the
    // call will do (a receipt already there answers it); a failed read says it could not read.
    void setReceiptForecast(const inventory::ReceiptForecast &forecast);
    // What the last key scan flagged about this SKU ("stock has a TTL", ...); empty hides it.
    void setKnownAnomalies(const QStringList &anomalies);
    // Earlier calls for the same order (see inventory::repeatWarning). With `mayDeductTwice`
    // Run stays disabled until the acknowledgement is ticked.
    void setRepeatWarning(const QString &text, bool mayDeductTwice);

    QString redisCliCommand() const { return m_cli; }
    // The node named as the one that runs the call (on a cluster, the slot's owner).
    QString serverText() const;
    QString environmentText() const;
    QPushButton *runButton() const { return m_run; }
    QPushButton *copyButton() const { return m_copy; }
    // ScriptRetry, or a script repeat of an order (setRepeatWarning), else nullptr.
    QCheckBox *acknowledgement() const { return m_ack; }
    QString currentStockText() const;
    QString repeatWarningText() const;
    QString receiptNowText() const;

private:
    static QString introText(Kind kind, bool function);
    void addIntroduction(QVBoxLayout *layout, Kind kind, bool function,
                         const QString &readOnlyNotice);
    QFormLayout *buildWhereSection(const inventory::DeductionPlan &plan,
                                   const inventory::DeductionContext &ctx, bool function);
    QTableWidget *buildArgumentsTable(const inventory::DeductionPlan &plan, bool function);
    void addRedisCliSection(QVBoxLayout *layout, const inventory::DeductionPlan &plan,
                            const inventory::DeductionContext &ctx);
    QDialogButtonBox *buildButtons(Kind kind);
    void requireAcknowledgement();

    QString m_cli;
    QPushButton *m_run;
    QPushButton *m_copy;
    QCheckBox *m_ack = nullptr;
    QLabel *m_evidence;
    QLabel *m_server;
    QLabel *m_environment;
    QLabel *m_stock;
    QLabel *m_receipt = nullptr; // Function mode only
    QLabel *m_anomalies;
    NoticeBanner *m_warning;
    QVBoxLayout *m_ackSlot;
    QFormLayout *m_where;
};

} // namespace ui
