// SPDX-License-Identifier: GPL-3.0-or-later
#include "AuditRecordDetail.h"

#include "inventory/AuditQuery.h"
#include "ui/common/LuaCodeView.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QVBoxLayout>

namespace ui {

using namespace inventory;

namespace {
// The command with its Lua source left out: the code view below shows it.
QString commandWithoutSource(const QList<QByteArray> &command, const QByteArray &source)
{
    QList<QByteArray> shown = command;
    for (QByteArray &a : shown)
        if (&a != &shown.first() && a == source)
            a = QStringLiteral("(Lua source, %1 lines: below)")
                    .arg(source.count('\n') + 1)
                    .toUtf8();
    return commandText(shown);
}

QStringList fieldLines(const AuditRecord &r)
{
    QStringList lines{
        QObject::tr("time (UTC)  %1").arg(r.timeUtc.toUTC().toString(Qt::ISODateWithMs)),
        QObject::tr("action      %1").arg(r.action),
        QObject::tr("result      %1%2")
            .arg(r.result, r.outcomeUnknown ? QObject::tr("  [OUTCOME UNKNOWN]") : QString())};
    // An attempt with no outcome: say what that means before the rest.
    if (r.phase == AuditRecord::Phase::Attempt)
        lines << QObject::tr("attempt     %1: written before sending, no outcome followed. "
                             "Check the key, receipt or library before retrying.")
                     .arg(r.attemptId);
    const AuditKeys keys = auditKeys(r);
    if (!keys.sku.isEmpty() || !keys.order.isEmpty())
        lines << QObject::tr("sku         %1   order %2")
                     .arg(keys.sku.isEmpty() ? QObject::tr("-") : keys.sku,
                          keys.order.isEmpty() ? QObject::tr("-") : keys.order);
    lines << QObject::tr("profile     %1   server %2   run_id %3").arg(r.profile, r.server, r.runId)
          << QObject::tr("os user     %1   duration %2")
                 .arg(r.osUser, r.durationMs < 0 ? QObject::tr("not known")
                                                 : QObject::tr("%1 ms").arg(r.durationMs));
    const auto source = AuditRecordDetail::luaSource(r.command);
    lines << QObject::tr("command     %1")
                 .arg(source ? commandWithoutSource(r.command, *source) : commandText(r.command));
    if (!r.detail.isEmpty())
        lines << QObject::tr("detail      %1").arg(r.detail);
    if (r.phase == AuditRecord::Phase::Outcome)
        lines << QObject::tr("attempt     %1 (written before sending, paired with this outcome)")
                     .arg(r.attemptId);
    return lines;
}
} // namespace

AuditRecordDetail::AuditRecordDetail(QWidget *parent)
    : QWidget(parent)
{
    m_summary = new QPlainTextEdit(this);
    m_summary->setObjectName(QStringLiteral("auditDetail"));
    m_summary->setReadOnly(true);
    m_summary->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_summary->setPlaceholderText(tr("Select a record to see its whole command and result."));
    m_codeBox = new QWidget(this);
    m_codeTitle = new QLabel(m_codeBox);
    auto *codeLayout = new QVBoxLayout(m_codeBox);
    codeLayout->setContentsMargins(0, 0, 0, 0);
    codeLayout->addWidget(m_codeTitle);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_summary);
    split->addWidget(m_codeBox);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    m_codeBox->hide();
}

void AuditRecordDetail::ensureCodeView()
{
    if (m_code)
        return;
    m_code = new LuaCodeView(m_codeBox);
    m_code->setObjectName(QStringLiteral("auditCode"));
    m_codeBox->layout()->addWidget(m_code);
}

std::optional<QByteArray> AuditRecordDetail::luaSource(const QList<QByteArray> &command)
{
    if (command.isEmpty())
        return std::nullopt;
    const QByteArray name = command.first().toUpper();
    // FUNCTION LOAD [REPLACE] <code>, SCRIPT LOAD <code>, EVAL <code> ...
    if (name == "FUNCTION" && command.size() >= 3 && command.at(1).toUpper() == "LOAD")
        return command.last();
    if (name == "SCRIPT" && command.size() == 3 && command.at(1).toUpper() == "LOAD")
        return command.at(2);
    if ((name == "EVAL" || name == "EVAL_RO") && command.size() >= 2)
        return command.at(1);
    return std::nullopt;
}

void AuditRecordDetail::show(const QList<AuditRecord> &steps, const QString &serverNote)
{
    if (steps.isEmpty()) {
        m_summary->clear();
        m_codeBox->hide();
        return;
    }
    QStringList lines;
    if (!serverNote.isEmpty())
        lines << tr("SERVER CHANGED SINCE: %1").arg(serverNote) << QString();
    if (steps.size() > 1) {
        lines << tr("One deduction in %1 writes: the server did not have the script (NOSCRIPT "
                    "proves it did not run), so the console loaded it and sent the same "
                    "EVALSHA again. This is not a business retry.")
                     .arg(steps.size())
              << QString();
        for (int i = 0; i < steps.size(); ++i) {
            const AuditRecord &r = steps.at(i);
            const auto source = luaSource(r.command);
            lines << tr("step %1  %2  %3\n        → %4")
                         .arg(i + 1)
                         .arg(r.timeUtc.toUTC().toString(QStringLiteral("HH:mm:ss.zzz")),
                              source ? commandWithoutSource(r.command, *source)
                                     : commandText(r.command, 60),
                              r.result);
        }
        lines << QString() << tr("The last step in full:");
    }
    lines << fieldLines(steps.last());
    m_summary->setPlainText(lines.join(QLatin1Char('\n')));

    std::optional<QByteArray> source;
    for (const AuditRecord &r : steps)
        if (const auto s = luaSource(r.command))
            source = s;
    m_codeBox->setVisible(source.has_value());
    if (source) {
        ensureCodeView();
        m_codeTitle->setText(tr("Lua source sent (%1 lines, %2 bytes)")
                                 .arg(source->count('\n') + 1)
                                 .arg(source->size()));
        m_code->setCode(QString::fromUtf8(*source));
    }
}

QString AuditRecordDetail::text() const
{
    return m_summary->toPlainText();
}

QString AuditRecordDetail::codeShown() const
{
    return m_codeBox->isHidden() || !m_code ? QString() : m_code->text();
}

} // namespace ui
