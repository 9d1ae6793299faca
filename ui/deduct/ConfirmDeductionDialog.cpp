// SPDX-License-Identifier: GPL-3.0-or-later
#include "ConfirmDeductionDialog.h"

#include "ui/common/EnvironmentStyle.h"
#include "ui/common/NoticeBanner.h"
#include "ui/common/Palette.h"
#include "ui/common/TextStyle.h"

#include "core/Bytes.h"
#include "inventory/RedisCliCommand.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace ui {

using namespace inventory;

namespace {
QLabel *plain(const QString &text, QWidget *parent)
{
    auto *l = new QLabel(text, parent);
    l->setTextFormat(Qt::PlainText);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}
} // namespace

ConfirmDeductionDialog::ConfirmDeductionDialog(const DeductionPlan &plan,
                                               const DeductionContext &ctx, Kind kind,
                                               const QString &readOnlyNotice,
                                               profiles::Environment environment, QWidget *parent)
    : QDialog(parent)
{
    const bool function = plan.request.mode == DeductionMode::Function;
    setWindowTitle(kind == Kind::First            ? tr("Confirm deduction")
                   : kind == Kind::RetrySameOrder ? tr("Retry with the same order id")
                                                  : tr("Retry the script: may deduct twice"));
    setObjectName(QStringLiteral("confirmDeductionDialog"));
    auto *layout = new QVBoxLayout(this);
    // The same badge, text and colour as the window's banner (EnvironmentStyle); the server
    // row below names the node.
    layout->addLayout(environmentBadgeRow(environment, {}, this));
    m_environment = findChild<QLabel *>(QStringLiteral("environmentBadge"));
    addIntroduction(layout, kind, function, readOnlyNotice);
    layout->addLayout(buildWhereSection(plan, ctx, function));
    layout->addWidget(buildArgumentsTable(plan, function));
    addRedisCliSection(layout, plan, ctx);
    m_ackSlot = new QVBoxLayout;
    layout->addLayout(m_ackSlot);
    layout->addWidget(buildButtons(kind));
    resize(720, sizeHint().height());
}

QString ConfirmDeductionDialog::introText(Kind kind, bool function)
{
    if (kind == Kind::RetrySameOrder)
        // "Safe" is a claim on the receipt still being there: say what it rests on.
        return tr("The same call again, with the same order id. If the first call did deduct "
                  "and its receipt is still there, this one returns Already applied and changes "
                  "nothing; if the receipt is gone (expired, evicted, or lost in a restart), it "
                  "deducts again. Look the order up first (Ctrl+F) when in doubt.");
    if (kind == Kind::ScriptRetry)
        return tr("The script keeps no receipt. If the first call did run (its reply was lost), "
                  "this call deducts a second time. Check the stock first.");
    if (function)
        return tr("Deduct once for this order. The server runs every check before its first "
                  "write.");
    return tr("Run the EVAL script. It is not idempotent: if the reply is lost, you cannot "
              "safely run it again.");
}

void ConfirmDeductionDialog::addIntroduction(QVBoxLayout *layout, Kind kind, bool function,
                                             const QString &readOnlyNotice)
{
    auto *introLabel = plain(introText(kind, function), this);
    if (kind == Kind::ScriptRetry) {
        setTextColour(introLabel, Palette::error());
        setBold(introLabel);
    }
    layout->addWidget(introLabel);
    m_evidence = plain(QString(), this);
    m_evidence->setObjectName(QStringLiteral("evidence"));
    m_evidence->hide();
    layout->addWidget(m_evidence);
    m_warning = new NoticeBanner(NoticeBanner::Kind::Danger, this);
    m_warning->setObjectName(QStringLiteral("repeatWarning"));
    m_warning->setTextFormat(Qt::PlainText);
    layout->addWidget(m_warning);
    if (!readOnlyNotice.isEmpty()) {
        auto *ro = plain(readOnlyNotice, this);
        setTextColour(ro, Palette::error());
        layout->addWidget(ro);
    }
}

QFormLayout *ConfirmDeductionDialog::buildWhereSection(const DeductionPlan &plan,
                                                       const DeductionContext &ctx, bool function)
{
    auto *where = m_where = new QFormLayout;
    where->addRow(tr("Profile"), plain(ctx.profileName, this));
    // The node that runs the call: on a cluster the owner of the keys' slot, not the seed.
    m_server = plain(ctx.serverFor(plan.stockSlot), this);
    m_server->setObjectName(QStringLiteral("confirmServer"));
    where->addRow(tr("Server"), m_server);
    where->addRow(
        tr("Stock key"),
        plain(tr("%1   slot %2").arg(core::escapeBytes(plan.stockKey)).arg(plan.stockSlot), this));
    if (function)
        where->addRow(
            tr("Receipt key"),
            plain(tr("%1   slot %2").arg(core::escapeBytes(plan.receiptKey)).arg(plan.receiptSlot),
                  this));
    else if (!plan.request.orderId.isEmpty())
        where->addRow(tr("Order id"),
                      plain(tr("%1 (not sent: recorded in history and the audit log)")
                                .arg(core::escapeBytes(plan.request.orderId)),
                            this));
    // What the call will meet: read just before, so a person sees the stock it deducts from.
    m_stock = plain(tr("reading…"), this);
    m_stock->setObjectName(QStringLiteral("currentStock"));
    where->addRow(tr("Stock now"), m_stock);
    if (function) {
        m_receipt = plain(tr("reading…"), this);
        m_receipt->setObjectName(QStringLiteral("receiptNow"));
        where->addRow(tr("Receipt now"), m_receipt);
    }
    m_anomalies = plain(QString(), this);
    m_anomalies->setObjectName(QStringLiteral("knownAnomalies"));
    setTextColour(m_anomalies, Palette::warning());
    where->addRow(tr("Known anomaly"), m_anomalies);
    where->setRowVisible(m_anomalies, false);
    where->addRow(
        tr("Timeout"),
        plain(tr("%1 ms: no reply by then is reported as Outcome unknown").arg(ctx.timeoutMs),
              this));
    return where;
}

// Every argument on its own row: what the server receives, byte for byte.
QTableWidget *ConfirmDeductionDialog::buildArgumentsTable(const DeductionPlan &plan, bool function)
{
    auto *args = new QTableWidget(int(plan.command.size()), 2, this);
    args->setObjectName(QStringLiteral("arguments"));
    args->setHorizontalHeaderLabels({tr("Argument"), tr("Meaning")});
    args->verticalHeader()->setDefaultSectionSize(22);
    args->setEditTriggers(QAbstractItemView::NoEditTriggers);
    const QStringList meanings =
        function
            ? QStringList{tr("command"),     tr("function"), tr("number of keys"), tr("stock key"),
                          tr("receipt key"), tr("quantity"), tr("receipt TTL (s)")}
            : QStringList{tr("command"), tr("SHA1 of stock_decrement.lua"), tr("number of keys"),
                          tr("stock key"), tr("quantity")};
    for (int i = 0; i < plan.command.size(); ++i) {
        args->setItem(i, 0, new QTableWidgetItem(core::escapeBytes(plan.command.at(i))));
        args->setItem(i, 1, new QTableWidgetItem(meanings.value(i)));
    }
    args->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    args->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    args->setMinimumHeight(26 + 22 * int(plan.command.size()));
    return args;
}

void ConfirmDeductionDialog::addRedisCliSection(QVBoxLayout *layout, const DeductionPlan &plan,
                                                const DeductionContext &ctx)
{
    m_cli = redisCliCommandLine(ctx.redisCliArgsFor(plan.stockSlot), plan.command);
    layout->addWidget(plain(tr("The same command for redis-cli:"), this));
    auto *cli = new QPlainTextEdit(m_cli, this);
    cli->setObjectName(QStringLiteral("redisCliCommand"));
    cli->setReadOnly(true);
    cli->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    cli->setMaximumHeight(64);
    layout->addWidget(cli);
}

QDialogButtonBox *ConfirmDeductionDialog::buildButtons(Kind kind)
{
    auto *buttons = new QDialogButtonBox(this);
    m_copy = buttons->addButton(tr("&Copy as redis-cli command"), QDialogButtonBox::ActionRole);
    m_run = buttons->addButton(kind == Kind::First ? tr("&Run") : tr("&Run again"),
                               QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    m_run->setObjectName(QStringLiteral("confirmRun"));
    m_copy->setObjectName(QStringLiteral("copyRedisCli"));
    // Cancel is the default: a stray Enter must not run a write.
    buttons->button(QDialogButtonBox::Cancel)->setDefault(true);
    buttons->button(QDialogButtonBox::Cancel)->setFocus();
    if (kind == Kind::ScriptRetry)
        requireAcknowledgement();
    connect(m_copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_cli);
        m_copy->setText(tr("Copied"));
        QTimer::singleShot(1500, m_copy,
                           [this] { m_copy->setText(tr("&Copy as redis-cli command")); });
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    return buttons;
}

QString ConfirmDeductionDialog::serverText() const
{
    return m_server->text();
}

QString ConfirmDeductionDialog::environmentText() const
{
    return m_environment->text();
}

void ConfirmDeductionDialog::requireAcknowledgement()
{
    if (m_ack)
        return;
    m_ack = new QCheckBox(tr("I understand that this may deduct a second time"), this);
    m_ack->setObjectName(QStringLiteral("acknowledgeDoubleDeduction"));
    m_ackSlot->addWidget(m_ack);
    m_run->setEnabled(false);
    connect(m_ack, &QCheckBox::toggled, m_run, &QPushButton::setEnabled);
}

void ConfirmDeductionDialog::setCurrentStock(const QString &text)
{
    m_stock->setText(text);
}

QString ConfirmDeductionDialog::currentStockText() const
{
    return m_stock->text();
}

void ConfirmDeductionDialog::setReceiptForecast(const ReceiptForecast &forecast)
{
    if (!m_receipt)
        return;
    using Kind = ReceiptForecast::Kind;
    m_receipt->setText(forecast.text);
    // What decides the call before it runs stands out; "could not read" is a gap, not a fact.
    setTextColour(m_receipt, forecast.kind == Kind::Answers   ? Palette::warning()
                             : forecast.kind == Kind::Refuses ? Palette::error()
                             : forecast.kind == Kind::Unread  ? Palette::attention()
                                                              : QColor());
    setBold(m_receipt, forecast.kind == Kind::Answers);
    adjustSize();
    resize(720, sizeHint().height());
}

QString ConfirmDeductionDialog::receiptNowText() const
{
    return m_receipt ? m_receipt->text() : QString();
}

void ConfirmDeductionDialog::setKnownAnomalies(const QStringList &anomalies)
{
    m_anomalies->setText(anomalies.join(QStringLiteral("; ")));
    m_where->setRowVisible(m_anomalies, !anomalies.isEmpty());
}

void ConfirmDeductionDialog::setRepeatWarning(const QString &text, bool mayDeductTwice)
{
    m_warning->setNotice(text);
    if (mayDeductTwice)
        requireAcknowledgement();
    adjustSize();
    resize(720, sizeHint().height());
}

QString ConfirmDeductionDialog::repeatWarningText() const
{
    return m_warning->text();
}

void ConfirmDeductionDialog::setEvidence(const QString &text)
{
    m_evidence->setText(tr("Last check: %1").arg(text));
    m_evidence->setVisible(!text.isEmpty());
}

} // namespace ui
