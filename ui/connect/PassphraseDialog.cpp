// SPDX-License-Identifier: GPL-3.0-or-later
#include "PassphraseDialog.h"

#include "FormParts.h"
#include "ui/common/Palette.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace ui {

PassphraseDialog::PassphraseDialog(const QString &identityFile, const QString &bastion, bool again,
                                   QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("passphraseDialog"));
    setWindowTitle(tr("SSH key passphrase"));
    auto *layout = new QVBoxLayout(this);
    auto *text =
        new QLabel(tr("The bastion %1 refused the key %2. If the key has a passphrase, enter it to "
                      "connect; if it has none, the bastion does not accept this key.")
                       .arg(bastion, identityFile));
    text->setWordWrap(true);
    layout->addWidget(text);
    if (again) {
        QLabel *retry = noteLabel(tr("The passphrase given was not accepted."));
        retry->setObjectName(QStringLiteral("passphraseRetry"));
        retry->setStyleSheet(Palette::textStyle(Palette::error()));
        layout->addWidget(retry);
    }
    m_edit = new QLineEdit;
    m_edit->setObjectName(QStringLiteral("passphraseEdit"));
    m_edit->setEchoMode(QLineEdit::Password);
    m_edit->setAccessibleName(tr("Passphrase"));
    auto *field = new QFormLayout;
    field->addRow(tr("&Passphrase:"), m_edit);
    layout->addLayout(field);
    layout->addWidget(noteLabel(tr("Kept in memory for this window's tunnel only (to reconnect); "
                                   "never saved.")));
    auto *buttons = new QDialogButtonBox;
    QPushButton *ok = buttons->addButton(tr("&Connect"), QDialogButtonBox::AcceptRole);
    ok->setObjectName(QStringLiteral("okButton"));
    ok->setDefault(true);
    buttons->addButton(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("cancelButton"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    setMinimumWidth(480);
}

PassphraseDialog::~PassphraseDialog()
{
    m_edit->clear();
}

QByteArray PassphraseDialog::takePassphrase()
{
    const QByteArray passphrase = m_edit->text().toUtf8();
    m_edit->clear();
    return passphrase;
}

} // namespace ui
