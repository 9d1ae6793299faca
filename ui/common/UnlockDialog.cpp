// SPDX-License-Identifier: GPL-3.0-or-later
#include "UnlockDialog.h"

#include "Palette.h"

#include "EnvironmentStyle.h"
#include "TextStyle.h"
#include "gate/WriteGate.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

namespace ui {

UnlockDialog::UnlockDialog(const QString &profileName, QWidget *parent)
    : QDialog(parent)
    , m_profileName(profileName)
{
    setWindowTitle(tr("Allow writes on production"));
    setObjectName(QStringLiteral("unlockDialog"));

    auto *badge = new QLabel;
    setEnvironmentBadge(badge, profiles::Environment::Production);
    badge->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    auto *explain = new QLabel(
        tr("This session on production profile <b>%1</b> is read-only.<br>Writes change real "
           "stock: deductions, receipts, loaded libraries. To allow them <b>for this session "
           "only</b>, type the profile name:")
            .arg(profileName.toHtmlEscaped()));
    explain->setWordWrap(true);
    explain->setTextFormat(Qt::RichText);
    explain->setMinimumWidth(440); // wrap at the dialog's width, not at a narrow guess

    m_typed = new QLineEdit;
    m_typed->setObjectName(QStringLiteral("typedName"));
    m_typed->setPlaceholderText(tr("profile name"));
    auto *hint = new QLabel;
    hint->setObjectName(QStringLiteral("matchHint"));
    setTextColour(hint, Palette::error());

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_unlock = buttons->addButton(tr("Unlock writes"), QDialogButtonBox::AcceptRole);
    m_unlock->setObjectName(QStringLiteral("unlockButton"));
    m_unlock->setEnabled(false);
    buttons->button(QDialogButtonBox::Cancel)->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_typed, &QLineEdit::textChanged, this, [this, hint](const QString &text) {
        const bool match = text == m_profileName;
        m_unlock->setEnabled(match);
        m_unlock->setDefault(match);
        hint->setText(text.isEmpty() || match ? QString()
                                              : tr("Does not match yet (case and spaces count)."));
    });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(badge);
    layout->addWidget(explain);
    layout->addWidget(m_typed);
    layout->addWidget(hint);
    layout->addWidget(buttons);
    layout->setSizeConstraint(QLayout::SetFixedSize);
}

QString UnlockDialog::typedName() const
{
    return m_typed->text();
}

bool UnlockDialog::unlock(gate::WriteGate &gate, QWidget *parent)
{
    if (!gate.isReadOnly())
        return true;
    UnlockDialog dialog(gate.profileName(), parent);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    if (gate.unlock(dialog.typedName()))
        return true;
    // Say why: a wrong name, or an unlock the audit log could not record.
    QMessageBox::warning(parent, QObject::tr("Writes stay locked"), gate.unlockError());
    return false;
}

} // namespace ui
