// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "inventory/DeductionContext.h"
#include "inventory/SkuDirectory.h"

#include <QSet>
#include <QWidget>

class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QTimer;
class QVBoxLayout;

namespace ui {

// The inputs of one deduction: SKU, order id, quantity, receipt TTL, mode. Validates as the
// contract does while typing (a field's message appears once it has been edited, all of them
// on a run attempt) and shows both keys with their cluster slots. Enter moves to the next
// field; the panel owns Ctrl+Enter.
class DeductionForm : public QWidget
{
    Q_OBJECT
public:
    explicit DeductionForm(const inventory::DeductionContext &ctx, QWidget *parent = nullptr);

    void setContext(const inventory::DeductionContext &ctx); // resets the TTL to the default
    void setSku(const QString &sku);
    void setOrderId(const QString &orderId);
    // The last key scan, for suggestions when a SKU has no stock key (not owned; nullptr:
    // none). The placeholder names the schema's stock key either way.
    void setSkuDirectory(const inventory::SkuDirectory *directory);
    // The server answered "stock key missing" for this SKU: say so under the field, with the
    // nearest SKUs of the last scan, until the SKU changes.
    void noteMissingStock(const QByteArray &sku);
    QString skuSuggestionText() const;

    inventory::DeductionRequest request() const;
    inventory::DeductionPlan plan() const;
    // Shows every problem (also of untouched fields) and focuses the first bad field.
    // Returns true when the plan may be sent.
    bool validateAll();

    QPushButton *runButton() const { return m_run; }

signals:
    void runRequested();

private:
    void addSkuField(QFormLayout *form);
    QVBoxLayout *buildModeChoice();
    void addKeyRows(QFormLayout *form);
    void connectFields();
    void refresh();
    void refreshSuggestions();
    QLineEdit *addField(QFormLayout *form, const QString &label, const QString &name,
                        QLabel **message);
    void showProblem(QLabel *label, QLineEdit *edit, const std::optional<QString> &problem,
                     const QString &field);

    inventory::DeductionContext m_ctx;
    QLineEdit *m_sku;
    QLineEdit *m_order;
    QLineEdit *m_quantity;
    QLineEdit *m_ttl;
    QLabel *m_skuMessage = nullptr;
    QLabel *m_orderMessage = nullptr;
    QLabel *m_quantityMessage = nullptr;
    QLabel *m_ttlMessage = nullptr;
    QLabel *m_ttlHuman;
    QLabel *m_skuSuggestion;
    QTimer *m_suggestTimer;
    const inventory::SkuDirectory *m_directory = nullptr;
    QByteArray m_missingSku;
    QRadioButton *m_function;
    QRadioButton *m_script;
    QLabel *m_modeHint;
    QLabel *m_stockKey;
    QLabel *m_receiptKey;
    QLabel *m_slotMessage;
    QPushButton *m_run;
    QSet<QString> m_touched;
    bool m_showAll = false;
};

} // namespace ui
