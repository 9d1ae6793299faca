// SPDX-License-Identifier: GPL-3.0-or-later
#include "KeyActionDialog.h"

#include "ui/common/EnvironmentStyle.h"

#include "ui/common/Palette.h"
#include "ui/common/TextStyle.h"

#include "core/Bytes.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ui {

KeyActionDialog::KeyActionDialog(const browse::KeyAction &action, const QString &sessionNote,
                                 profiles::Environment environment, const QString &node,
                                 QWidget *parent)
    : QDialog(parent)
    , m_action(action)
{
    using Kind = browse::KeyAction::Kind;
    setObjectName(QStringLiteral("keyActionDialog"));
    setWindowTitle(action.kind == Kind::SetTtl      ? tr("Set TTL")
                   : action.kind == Kind::RemoveTtl ? tr("Remove TTL")
                   : action.kind == Kind::SetStock  ? tr("Set stock")
                                                    : tr("Delete receipt"));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(environmentBadgeRow(environment, node, this));
    layout->addLayout(buildForm());
    addCommandPreview(layout, sessionNote);
    layout->addWidget(buildButtons());
    resize(560, sizeHint().height());
    update();
}

QFormLayout *KeyActionDialog::buildForm()
{
    using Kind = browse::KeyAction::Kind;
    auto *form = new QFormLayout;
    auto *key = new QLabel(core::escapeBytes(m_action.key), this);
    key->setTextInteractionFlags(Qt::TextSelectableByMouse);
    key->setWordWrap(true);
    form->addRow(tr("Key:"), key);
    if (m_action.kind == Kind::SetTtl)
        form->addRow(tr("Expire in:"), buildTtlRow());
    if (m_action.kind == Kind::SetStock)
        addStockRows(form);
    return form;
}

// The TTL in the largest unit that divides it evenly (a week reads "7 days").
QHBoxLayout *KeyActionDialog::buildTtlRow()
{
    auto *row = new QHBoxLayout;
    m_amount = new QSpinBox(this);
    m_amount->setObjectName(QStringLiteral("ttlAmount"));
    m_amount->setRange(1, 31536000);
    m_unit = new QComboBox(this);
    m_unit->setObjectName(QStringLiteral("ttlUnit"));
    m_unit->addItem(tr("days"), 86400);
    m_unit->addItem(tr("hours"), 3600);
    m_unit->addItem(tr("minutes"), 60);
    m_unit->addItem(tr("seconds"), 1);
    qint64 s = m_action.ttlSeconds > 0 ? m_action.ttlSeconds : 7 * 86400;
    int unit = 3;
    for (int i = 0; i < 3; ++i)
        if (s % m_unit->itemData(i).toLongLong() == 0) {
            unit = i;
            break;
        }
    m_unit->setCurrentIndex(unit);
    m_amount->setValue(int(s / m_unit->itemData(unit).toLongLong()));
    row->addWidget(m_amount);
    row->addWidget(m_unit);
    row->addStretch();
    connect(m_amount, &QSpinBox::valueChanged, this, &KeyActionDialog::update);
    connect(m_unit, &QComboBox::currentIndexChanged, this, &KeyActionDialog::update);
    return row;
}

void KeyActionDialog::addStockRows(QFormLayout *form)
{
    auto *current = new QLabel(m_action.currentStock, this);
    current->setObjectName(QStringLiteral("currentStock"));
    current->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Stock now:"), current);
    m_stock = new QLineEdit(QString::fromLatin1(m_action.stock), this);
    m_stock->setObjectName(QStringLiteral("newStock"));
    m_stock->setPlaceholderText(tr("a whole number from 0 to 1,000,000,000"));
    form->addRow(tr("New &stock:"), m_stock);
    // Sent exactly as typed: no trimming, so what the command shows is what is sent.
    connect(m_stock, &QLineEdit::textChanged, this, &KeyActionDialog::update);
}

void KeyActionDialog::addCommandPreview(QVBoxLayout *layout, const QString &sessionNote)
{
    layout->addWidget(new QLabel(tr("Command that will be sent:"), this));
    m_command = new QPlainTextEdit(this);
    m_command->setObjectName(QStringLiteral("exactCommand"));
    m_command->setReadOnly(true);
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_command->setMaximumHeight(m_command->fontMetrics().height() * 4);
    layout->addWidget(m_command);
    m_consequence = new QLabel(this);
    m_consequence->setWordWrap(true);
    layout->addWidget(m_consequence);
    if (!sessionNote.isEmpty()) {
        auto *note = new QLabel(sessionNote, this);
        note->setWordWrap(true);
        layout->addWidget(note);
    }
    m_problem = new QLabel(this);
    setTextColour(m_problem, Palette::error());
    layout->addWidget(m_problem);
}

QDialogButtonBox *KeyActionDialog::buildButtons()
{
    using Kind = browse::KeyAction::Kind;
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_confirm = buttons->addButton(m_action.kind == Kind::Delete     ? tr("Delete key")
                                   : m_action.kind == Kind::SetTtl   ? tr("Set TTL")
                                   : m_action.kind == Kind::SetStock ? tr("Set stock")
                                                                     : tr("Remove TTL"),
                                   QDialogButtonBox::AcceptRole);
    m_confirm->setObjectName(QStringLiteral("confirmAction"));
    // Enter neither confirms a write nor throws away what was typed: see keyPressEvent.
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    return buttons;
}

void KeyActionDialog::keyPressEvent(QKeyEvent *event)
{
    // Enter in a field neither confirms the write (the button box would make "Set stock" the
    // default) nor cancels and loses what was typed: it moves to the confirm button, from
    // which one more Enter (or Space) confirms.
    const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
    if (enter && !qobject_cast<QPushButton *>(focusWidget())) {
        if (m_confirm->isEnabled())
            m_confirm->setFocus(Qt::TabFocusReason);
        event->accept();
        return;
    }
    QDialog::keyPressEvent(event);
}

browse::KeyAction KeyActionDialog::action() const
{
    return m_action;
}

void KeyActionDialog::update()
{
    if (m_amount)
        m_action.ttlSeconds = qint64(m_amount->value()) * m_unit->currentData().toLongLong();
    if (m_stock)
        m_action.stock = m_stock->text().toUtf8();
    const QString problem = m_action.problem();
    // An invalid value has no command: showing "SET … '' XX" would preview what is never sent.
    m_command->setPlainText(problem.isEmpty() ? m_action.commandText()
                                              : tr("(nothing is sent until the value is valid)"));
    m_consequence->setText(problem.isEmpty() ? m_action.consequence() : QString());
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_confirm->setEnabled(problem.isEmpty());
}

} // namespace ui
