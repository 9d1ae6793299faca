// SPDX-License-Identifier: GPL-3.0-or-later
#include "CommandField.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTextOption>

namespace ui {

CommandField::CommandField(QWidget *parent)
    : QWidget(parent)
    , m_text(new QPlainTextEdit(this))
    , m_copy(new QPushButton(tr("Copy"), this))
{
    m_text->setReadOnly(true);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_text->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_text->setAccessibleName(tr("Command"));
    m_text->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    // Room for three wrapped lines: the whole command at the wizard's usual width.
    const int line = m_text->fontMetrics().lineSpacing();
    m_text->setFixedHeight(3 * line + 2 * m_text->frameWidth()
                           + int(2 * m_text->document()->documentMargin()) + 4);
    m_copy->setToolTip(tr("Copy the command to the clipboard"));
    m_copy->setEnabled(false);
    connect(m_copy, &QPushButton::clicked, this, &CommandField::copy);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_copy, 0, Qt::AlignTop);
}

void CommandField::setCommand(const QString &command)
{
    m_command = command;
    m_text->setPlainText(command);
    m_copy->setEnabled(!command.isEmpty());
    m_copy->setText(tr("Copy"));
}

QString CommandField::shellQuote(const QString &argument)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:@%+=,-]+$"));
    if (plain.match(argument).hasMatch())
        return argument;
    QString quoted = argument;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

void CommandField::copy()
{
    QApplication::clipboard()->setText(m_command);
    m_copy->setText(tr("Copied"));
}

} // namespace ui
