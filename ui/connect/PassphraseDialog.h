// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QLineEdit;

namespace ui {

// Asks the passphrase of an SSH identity file after the bastion refused the key (ssh cannot
// use an encrypted key without it, unless the agent holds it). The answer goes to the
// tunnel's memory only: never saved, never in a file, a log or an argument.
class PassphraseDialog : public QDialog
{
    Q_OBJECT
public:
    // `again`: a passphrase given before was not accepted.
    PassphraseDialog(const QString &identityFile, const QString &bastion, bool again,
                     QWidget *parent = nullptr);
    ~PassphraseDialog() override;

    // The passphrase typed; the field is cleared as it is taken.
    QByteArray takePassphrase();

private:
    QLineEdit *m_edit = nullptr;
};

} // namespace ui
