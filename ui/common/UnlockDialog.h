// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace gate {
class WriteGate;
} // namespace gate

namespace ui {

// Asks for the profile name, typed exactly, before a read-only production session may write.
// The unlock lasts for this session only.
class UnlockDialog : public QDialog
{
    Q_OBJECT
public:
    explicit UnlockDialog(const QString &profileName, QWidget *parent = nullptr);

    QString typedName() const;

    // Shows the dialog for the gate's profile; on "Unlock" unlocks the gate. True when the
    // session may now write (also when it was not locked).
    static bool unlock(gate::WriteGate &gate, QWidget *parent = nullptr);

private:
    QString m_profileName;
    QLineEdit *m_typed = nullptr;
    QPushButton *m_unlock = nullptr;
};

} // namespace ui
