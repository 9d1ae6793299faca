// SPDX-License-Identifier: GPL-3.0-or-later
#include "DeductionForm.h"

#include "ui/common/Palette.h"
#include "ui/common/TextStyle.h"

#include "core/Bytes.h"
#include "inventory/ReceiptCheck.h"

#include <QButtonGroup>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QTimer>
#include <QVBoxLayout>

namespace ui {

using namespace inventory;

namespace {

// A hint that comes and goes while someone types keeps its line: the fields below never move
// under the pointer (an order id typed into the field that slid under it went to the wrong one).
void retainSpace(QWidget *w)
{
    QSizePolicy p = w->sizePolicy();
    p.setRetainSizeWhenHidden(true);
    w->setSizePolicy(p);
}
} // namespace

DeductionForm::DeductionForm(const DeductionContext &ctx, QWidget *parent)
    : QWidget(parent)
    , m_ctx(ctx)
{
    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    addSkuField(form);
    m_order = addField(form, tr("Order &id"), QStringLiteral("order"), &m_orderMessage);
    m_quantity = addField(form, tr("&Quantity"), QStringLiteral("quantity"), &m_quantityMessage);
    m_quantity->setPlaceholderText(tr("1 to 1,000,000"));
    m_ttl = addField(form, tr("Rec&eipt TTL (s)"), QStringLiteral("ttl"), &m_ttlMessage);
    m_ttlHuman = new QLabel(this);
    setTextColour(m_ttlHuman, Palette::muted());
    form->addRow(QString(), m_ttlHuman);
    form->addRow(tr("Mode"), buildModeChoice());
    addKeyRows(form);

    m_run = new QPushButton(tr("Run deduction…  (Ctrl+Enter)"), this);
    m_run->setObjectName(QStringLiteral("runButton"));
    m_run->setDefault(false);
    m_run->setAutoDefault(false);
    connect(m_run, &QPushButton::clicked, this, &DeductionForm::runRequested);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_run);
    layout->addStretch(1);

    connectFields();
    setContext(ctx);
}

void DeductionForm::addSkuField(QFormLayout *form)
{
    m_sku = addField(form, tr("&SKU"), QStringLiteral("sku"), &m_skuMessage);
    m_skuSuggestion = new QLabel(this);
    m_skuSuggestion->setObjectName(QStringLiteral("skuSuggestion"));
    m_skuSuggestion->setWordWrap(true);
    setTextColour(m_skuSuggestion, Palette::warning());
    m_skuSuggestion->hide();
    retainSpace(m_skuSuggestion);
    // A suggested SKU is a link: clicking it fills the field.
    connect(m_skuSuggestion, &QLabel::linkActivated, this, [this](const QString &link) {
        setSku(QString::fromUtf8(QByteArray::fromPercentEncoding(link.toLatin1())));
        m_order->setFocus();
    });
    // Under the SKU field, with its message: a row of its own would add the form's spacing.
    if (auto *column = form->itemAt(form->rowCount() - 1, QFormLayout::FieldRole)->layout())
        column->addWidget(m_skuSuggestion);
    // Finding the nearest SKUs is a pass over the scan: once typing pauses, not per key.
    m_suggestTimer = new QTimer(this);
    m_suggestTimer->setSingleShot(true);
    m_suggestTimer->setInterval(250);
    connect(m_suggestTimer, &QTimer::timeout, this, &DeductionForm::refreshSuggestions);
}

QVBoxLayout *DeductionForm::buildModeChoice()
{
    // No parent until the form's layout is installed: they join the focus chain after the
    // run button then, so Tab goes from the fields to Run before the mode.
    m_function = new QRadioButton(tr("F&unction: FCALL inventory_deduct_v1 (once per order)"));
    m_script = new QRadioButton(tr("Sc&ript: EVALSHA stock_decrement.lua (not idempotent)"));
    m_function->setChecked(true);
    auto *modes = new QButtonGroup(this);
    modes->addButton(m_function);
    modes->addButton(m_script);
    auto *modeBox = new QVBoxLayout;
    modeBox->setSpacing(2);
    modeBox->addWidget(m_function);
    modeBox->addWidget(m_script);
    m_modeHint = new QLabel(this);
    m_modeHint->setWordWrap(true);
    setTextColour(m_modeHint, Palette::muted());
    modeBox->addWidget(m_modeHint);
    return modeBox;
}

void DeductionForm::addKeyRows(QFormLayout *form)
{
    m_stockKey = new QLabel(this);
    m_receiptKey = new QLabel(this);
    for (QLabel *l : {m_stockKey, m_receiptKey}) {
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        l->setTextFormat(Qt::PlainText); // keys are data: never read as markup
        l->setWordWrap(true);
    }
    m_slotMessage = new QLabel(this);
    m_slotMessage->setWordWrap(true);
    m_slotMessage->setTextFormat(Qt::PlainText);
    m_slotMessage->setObjectName(QStringLiteral("slotMessage"));
    form->addRow(tr("Stock key"), m_stockKey);
    form->addRow(tr("Receipt key"), m_receiptKey);
    form->addRow(QString(), m_slotMessage);
}

void DeductionForm::connectFields()
{
    // Enter moves on, as in a paper form (skipping the TTL in Script mode), from the last
    // field to the run button.
    const QList<QLineEdit *> order{m_sku, m_order, m_quantity, m_ttl};
    const QList<QWidget *> stops{m_sku, m_order, m_quantity, m_ttl, m_run};
    for (qsizetype i = 0; i < order.size(); ++i)
        connect(order[i], &QLineEdit::returnPressed, this, [stops, i] {
            for (qsizetype j = i + 1; j < stops.size(); ++j)
                if (stops[j]->isEnabled()) {
                    stops[j]->setFocus();
                    return;
                }
        });
    for (QLineEdit *e : order)
        connect(e, &QLineEdit::textEdited, this, [this, e] {
            m_touched.insert(e->objectName());
            refresh();
        });
    connect(m_sku, &QLineEdit::textChanged, m_suggestTimer, qOverload<>(&QTimer::start));
    connect(m_function, &QRadioButton::toggled, this, [this] { refresh(); });
}

QLineEdit *DeductionForm::addField(QFormLayout *form, const QString &label, const QString &name,
                                   QLabel **message)
{
    auto *edit = new QLineEdit(this);
    edit->setObjectName(name);
    auto *msg = new QLabel(this);
    msg->setObjectName(name + QStringLiteral("Message"));
    setTextColour(msg, Palette::error());
    msg->setTextFormat(Qt::PlainText);
    msg->setWordWrap(true);
    msg->hide();
    retainSpace(msg);
    auto *column = new QVBoxLayout;
    column->setSpacing(1);
    column->addWidget(edit);
    column->addWidget(msg);
    auto *l = new QLabel(label, this);
    l->setBuddy(edit);
    form->addRow(l, column);
    *message = msg;
    return edit;
}

void DeductionForm::setContext(const DeductionContext &ctx)
{
    m_ctx = ctx;
    m_ttl->setText(QString::number(ctx.defaultTtlSeconds));
    // The demo's SKUs look like this; the key it names shows where a SKU sits in the schema.
    m_sku->setPlaceholderText(
        tr("e.g. sku-1001 (the <sku> of %1)").arg(ctx.schema.stockTemplate()));
    refresh();
}

void DeductionForm::setSku(const QString &sku)
{
    m_sku->setText(sku);
    m_touched.insert(QStringLiteral("sku"));
    refresh();
}

void DeductionForm::setSkuDirectory(const SkuDirectory *directory)
{
    m_directory = directory;
    refreshSuggestions();
}

void DeductionForm::noteMissingStock(const QByteArray &sku)
{
    m_missingSku = sku;
    refreshSuggestions();
}

QString DeductionForm::skuSuggestionText() const
{
    return m_skuSuggestion->isHidden() ? QString() : m_skuSuggestion->text();
}

void DeductionForm::refreshSuggestions()
{
    const QByteArray sku = m_sku->text().toUtf8();
    const bool valid = !sku.isEmpty() && !m_ctx.schema.skuProblem(sku);
    const bool scanSaysMissing =
        valid && m_directory && m_directory->hasScan() && !m_directory->hasStock(sku);
    const bool serverSaysMissing = valid && sku == m_missingSku;
    if (!scanSaysMissing && !serverSaysMissing) {
        m_skuSuggestion->hide();
        retainSpace(m_skuSuggestion);
        m_skuSuggestion->clear();
        return;
    }
    const QString key = core::escapeBytes(m_ctx.schema.stockKey(sku), 80).toHtmlEscaped();
    QString text = serverSaysMissing ? tr("The server has no stock key %1.").arg(key)
                                     : tr("The last key scan found no stock key %1.").arg(key);
    const QList<QByteArray> near =
        m_directory && m_directory->hasScan() ? m_directory->nearest(sku, 3) : QList<QByteArray>{};
    if (!near.isEmpty()) {
        QStringList links;
        for (const QByteArray &n : near)
            links << QStringLiteral("<a href=\"%1\">%2</a>")
                         .arg(QString::fromLatin1(n.toPercentEncoding()),
                              core::escapeBytes(n, 60).toHtmlEscaped());
        text += QLatin1Char(' ') + tr("Nearest existing SKUs: %1").arg(links.join(", "));
    } else if (!m_directory || !m_directory->hasScan()) {
        text += QLatin1Char(' ') + tr("Scan the keys (Keys tab) to see which SKUs exist.");
    }
    m_skuSuggestion->setText(text);
    m_skuSuggestion->show();
}

void DeductionForm::setOrderId(const QString &orderId)
{
    m_order->setText(orderId);
    m_touched.insert(QStringLiteral("order"));
    refresh();
}

DeductionRequest DeductionForm::request() const
{
    DeductionRequest r;
    r.sku = m_sku->text().toUtf8();
    r.orderId = m_order->text().toUtf8();
    r.quantity = m_quantity->text().toUtf8();
    r.ttlSeconds = m_ttl->text().toUtf8();
    r.mode = m_function->isChecked() ? DeductionMode::Function : DeductionMode::Script;
    return r;
}

DeductionPlan DeductionForm::plan() const
{
    return planDeduction(request(), m_ctx.schema);
}

bool DeductionForm::validateAll()
{
    m_showAll = true;
    refresh();
    const DeductionPlan p = plan();
    for (QLineEdit *e : {m_sku, m_order, m_quantity, m_ttl})
        if (p.problemFor(e->objectName()) || (e == m_sku && p.problemFor(QStringLiteral("keys")))) {
            e->setFocus();
            e->selectAll();
            break;
        }
    return p.ok();
}

void DeductionForm::showProblem(QLabel *label, QLineEdit *edit,
                                const std::optional<QString> &problem, const QString &field)
{
    const bool show = problem && (m_showAll || m_touched.contains(field)) && edit->isEnabled();
    label->setVisible(show);
    label->setText(show ? *problem : QString());
    edit->setStyleSheet(
        show ? QStringLiteral("QLineEdit { border: 1px solid %1; }").arg(Palette::error().name())
             : QString());
}

void DeductionForm::refresh()
{
    const bool function = m_function->isChecked();
    m_ttl->setEnabled(function);
    m_order->setPlaceholderText(function ? tr("e.g. 9001 (the receipt is per order)")
                                         : tr("optional: recorded in history and audit"));
    m_modeHint->setText(function ? tr("A retry with the same order id is safe: it deducts at most "
                                      "once while the receipt lives.")
                                 : tr("No receipt: a retry after a lost reply may deduct twice."));
    const DeductionPlan p = plan();
    showProblem(m_skuMessage, m_sku, p.problemFor(QStringLiteral("sku")), QStringLiteral("sku"));
    showProblem(m_orderMessage, m_order, p.problemFor(QStringLiteral("order")),
                QStringLiteral("order"));
    showProblem(m_quantityMessage, m_quantity, p.problemFor(QStringLiteral("quantity")),
                QStringLiteral("quantity"));
    showProblem(m_ttlMessage, m_ttl, p.problemFor(QStringLiteral("ttl")), QStringLiteral("ttl"));

    const qint64 ttl = m_ttl->text().toLongLong();
    m_ttlHuman->setText(
        function && !p.problemFor(QStringLiteral("ttl"))
            ? tr("= %1; profile default %2 s").arg(humanDuration(ttl)).arg(m_ctx.defaultTtlSeconds)
            : (function ? QString() : tr("not used in Script mode")));

    const bool haveSku = !m_sku->text().isEmpty();
    m_stockKey->setText(haveSku
                            ? tr("%1   slot %2").arg(core::escapeBytes(p.stockKey)).arg(p.stockSlot)
                            : tr("(enter a SKU)"));
    if (!function)
        m_receiptKey->setText(tr("none in Script mode"));
    else
        m_receiptKey->setText(
            haveSku && !m_order->text().isEmpty()
                ? tr("%1   slot %2").arg(core::escapeBytes(p.receiptKey)).arg(p.receiptSlot)
                : tr("(enter a SKU and an order id)"));
    if (const auto slot = p.problemFor(QStringLiteral("keys"))) {
        setTextColour(m_slotMessage, Palette::error());
        m_slotMessage->setText(tr("Refused: %1").arg(*slot));
    } else if (function && haveSku && !m_order->text().isEmpty()) {
        setTextColour(m_slotMessage, Palette::muted());
        m_slotMessage->setText(
            tr("Both keys hash to slot %1: on a cluster, one node runs the call.")
                .arg(p.stockSlot));
    } else {
        m_slotMessage->clear();
    }
}

} // namespace ui
