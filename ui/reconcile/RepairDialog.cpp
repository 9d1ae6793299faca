// SPDX-License-Identifier: GPL-3.0-or-later
#include "RepairDialog.h"

#include "core/Bytes.h"
#include "gate/WriteGate.h"
#include "ui/common/EnvironmentStyle.h"
#include "ui/common/NoticeBanner.h"
#include "ui/common/Palette.h"
#include "ui/common/UnlockDialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

namespace ui {

using namespace inventory;

QString RepairDialog::renderCommand(const redis::Command &command)
{
    QStringList parts;
    for (const QByteArray &arg : command)
        parts << core::escapeBytes(arg, 120);
    return parts.join(QLatin1Char(' '));
}

RepairDialog::RepairDialog(const RepairRequest &request, const DeductionContext &ctx,
                           gate::WriteGate &gate, profiles::Environment environment,
                           QWidget *parent)
    : RepairDialog(QList<RepairRequest>{request}, ctx, gate, environment, parent)
{}

// What the dialog is about to do, in one paragraph.
QString RepairDialog::introText() const
{
    const RepairRequest &request = m_request;
    const bool release = request.kind == RepairKind::Release;
    return !m_batch.isEmpty()
               ? tr("Gives back what each of these %n orders deducted, each once: the function "
                    "checks that each receipt still proves its deduction and writes a release key, "
                    "so a second release changes nothing. They are sent one after the other; the "
                    "first that is refused or whose outcome is unknown stops the rest.",
                    "", int(m_batch.size()) + 1)
           : release
               ? tr("Gives back what order <b>%1</b> deducted from SKU <b>%2</b>, once: the "
                    "function checks that the receipt still proves the deduction and writes a "
                    "release key, so a second release changes nothing.")
                     .arg(core::escapeBytes(request.id, 60).toHtmlEscaped(),
                          core::escapeBytes(request.sku, 60).toHtmlEscaped())
               : tr("Corrects the stock of SKU <b>%1</b> by hand, once per adjustment id: a "
                    "second call with the same id changes nothing. The function refuses a "
                    "stock below 0.")
                     .arg(core::escapeBytes(request.sku, 60).toHtmlEscaped());
}

RepairDialog::RepairDialog(const QList<RepairRequest> &requests, const DeductionContext &ctx,
                           gate::WriteGate &gate, profiles::Environment environment,
                           QWidget *parent)
    : QDialog(parent)
    , m_request(requests.first())
    , m_ctx(ctx)
    , m_gate(gate)
    , m_batch(requests.mid(1))
{
    const RepairRequest &request = m_request;
    const bool release = request.kind == RepairKind::Release;
    setObjectName(QStringLiteral("repairDialog"));
    setWindowTitle(release ? tr("Release a deduction") : tr("Adjust a stock"));
    m_plan = planRepair(m_request, m_ctx.schema);

    auto *layout = new QVBoxLayout(this);
    // A selection may run on several nodes (a cluster): each command's node is its slot's.
    layout->addLayout(environmentBadgeRow(
        environment, m_batch.isEmpty() ? m_ctx.serverFor(m_plan.slot) : QString(), this));
    auto *intro = new QLabel(introText(), this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *form = m_form = new QFormLayout;
    form->addRow(tr("Connection:"),
                 new QLabel(m_ctx.profileName.isEmpty() ? tr("(unsaved connection)")
                                                        : m_ctx.profileName.toHtmlEscaped(),
                            this));
    if (!release)
        addAdjustFields(form);
    m_command = new QLabel(this);
    m_command->setObjectName(QStringLiteral("repairCommand"));
    m_command->setWordWrap(true);
    m_command->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_command->setStyleSheet(QStringLiteral("font-family: monospace;"));
    form->addRow(tr("Command:"), m_command);
    m_arguments = new QLabel(this);
    m_arguments->setWordWrap(true);
    form->addRow(QString(), m_arguments);
    if (release) {
        auto *reason =
            new QLabel(m_batch.isEmpty() ? core::escapeBytes(m_request.reason.toUtf8(), 400)
                                         : tr("each release is audited with its own finding"),
                       this);
        reason->setObjectName(QStringLiteral("repairReason"));
        reason->setWordWrap(true);
        form->addRow(tr("Reason:"), reason);
    }
    m_problems = new QLabel(this);
    m_problems->setObjectName(QStringLiteral("repairProblems"));
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(Palette::textStyle(Palette::error()));
    form->addRow(QString(), m_problems);
    auto *audit = new QLabel(
        tr("Before it is sent, the attempt (with the reason and %1 read just before) is "
           "appended to the audit log %2; its outcome follows it.")
            .arg(release ? tr("the receipt and the release key") : tr("the adjustment key"),
                 m_ctx.auditLogPath.toHtmlEscaped()),
        this);
    audit->setWordWrap(true);
    form->addRow(tr("Audit:"), audit);
    layout->addLayout(form);

    m_readOnly = new NoticeBanner(NoticeBanner::Kind::Danger, this);
    m_readOnly->setObjectName(QStringLiteral("repairReadOnly"));
    layout->addWidget(m_readOnly);

    layout->addWidget(buildButtons(release));
    setMinimumWidth(620);
    replan();
}

QDialogButtonBox *RepairDialog::buildButtons(bool release)
{
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_unlock = buttons->addButton(tr("Unlock writes…"), QDialogButtonBox::ActionRole);
    m_unlock->setObjectName(QStringLiteral("repairUnlock"));
    m_run =
        buttons->addButton(!m_batch.isEmpty() ? tr("Release %n orders", "", int(m_batch.size()) + 1)
                           : release          ? tr("Release")
                                              : tr("Adjust"),
                           QDialogButtonBox::AcceptRole);
    m_run->setObjectName(QStringLiteral("repairRun"));
    buttons->button(QDialogButtonBox::Cancel)->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_unlock, &QPushButton::clicked, this, [this] {
        UnlockDialog::unlock(m_gate, this);
        updateRunState();
    });
    connect(&m_gate, &gate::WriteGate::readOnlyChanged, this, &RepairDialog::updateRunState);
    return buttons;
}

void RepairDialog::addAdjustFields(QFormLayout *form)
{
    m_delta = new QLineEdit(QString::fromUtf8(m_request.amount), this);
    m_delta->setObjectName(QStringLiteral("adjustDelta"));
    m_delta->setPlaceholderText(tr("e.g. 3 or -2"));
    m_id = new QLineEdit(QString::fromUtf8(m_request.id), this);
    m_id->setObjectName(QStringLiteral("adjustId"));
    m_id->setToolTip(tr("The adjustment's idempotency id: sending the same id again changes "
                        "nothing. Keep it when you retry."));
    m_reason = new QPlainTextEdit(m_request.reason, this);
    m_reason->setObjectName(QStringLiteral("adjustReason"));
    m_reason->setPlaceholderText(tr("Why the stock is corrected (required, kept in the audit "
                                    "log)"));
    m_reason->setFixedHeight(m_reason->fontMetrics().lineSpacing() * 3 + 12);
    form->addRow(tr("Delta:"), m_delta);
    form->addRow(tr("Adjustment id:"), m_id);
    form->addRow(tr("Reason:"), m_reason);
    for (QLineEdit *e : {m_delta, m_id})
        connect(e, &QLineEdit::textChanged, this, &RepairDialog::replan);
    connect(m_reason, &QPlainTextEdit::textChanged, this, &RepairDialog::replan);
}

void RepairDialog::replan()
{
    if (m_delta) {
        m_request.amount = m_delta->text().trimmed().toUtf8();
        m_request.id = m_id->text().trimmed().toUtf8();
        m_request.reason = m_reason->toPlainText().trimmed();
    }
    m_plan = planRepair(m_request, m_ctx.schema);
    m_plans = {m_plan};
    for (const RepairRequest &r : m_batch)
        m_plans << planRepair(r, m_ctx.schema);
    QStringList problems, commands;
    bool allOk = true;
    for (const RepairPlan &plan : m_plans) {
        for (const FieldProblem &p : plan.problems)
            problems << p.field + QStringLiteral(": ") + p.message.text;
        allOk = allOk && plan.ok();
        // A selection's commands are numbered: each wraps over two lines in the dialog.
        if (plan.ok())
            commands << (m_batch.isEmpty() ? renderCommand(plan.command)
                                           : QStringLiteral("%1) %2")
                                                 .arg(commands.size() + 1)
                                                 .arg(renderCommand(plan.command)));
    }
    if (m_request.kind == RepairKind::Adjust && m_request.reason.isEmpty()
        && !problems.join(QLatin1Char(' ')).contains(QLatin1String("reason")))
        problems << tr("reason: give one; it is what the audit log keeps of why");
    m_problems->setText(problems.join(QLatin1Char('\n')));
    m_form->setRowVisible(m_problems, !problems.isEmpty());
    m_command->setText(allOk ? commands.join(QLatin1Char('\n'))
                             : tr("(no command until every field is valid)"));
    const QString ttl = QString::fromUtf8(m_request.ttlSeconds);
    m_arguments->setText(
        !m_batch.isEmpty()
            ? tr("Gives back each order's quantity, as its finding says; each release key lives "
                 "%1 s (the profile's receipt TTL), so it outlives the receipt it answers for.")
                  .arg(ttl)
        : m_request.kind == RepairKind::Release
            ? tr("Gives back %1 unit(s), as the finding says; the release key lives %2 s (the "
                 "profile's receipt TTL), so it outlives the receipt it answers for.")
                  .arg(QString::fromUtf8(m_request.amount), ttl)
            : tr("The adjustment key lives %1 s (the profile's receipt TTL): while it does, the "
                 "same id changes nothing.")
                  .arg(ttl));
    updateRunState();
}

QString RepairDialog::commandText() const
{
    return m_command->text();
}

void RepairDialog::updateRunState()
{
    const bool readOnly = m_gate.isReadOnly();
    m_readOnly->setNotice(readOnly ? m_gate.refusalMessage(core::Wording::Translated) : QString());
    m_unlock->setVisible(readOnly);
    const bool valid =
        std::all_of(m_plans.begin(), m_plans.end(), [](const RepairPlan &p) { return p.ok(); })
        && (m_request.kind == RepairKind::Release || !m_request.reason.isEmpty());
    m_run->setEnabled(valid && !readOnly);
}

} // namespace ui
