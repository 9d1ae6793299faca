// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "browse/KeyAction.h"
#include "profiles/Environment.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QVBoxLayout;

namespace ui {

// Confirms one guarded key action: names the key, shows the exact command that will be sent
// (updated as the TTL or the new stock is edited) and what it means for deductions; confirm
// stays disabled while the input is invalid. Nothing is sent here.
class KeyActionDialog : public QDialog
{
    Q_OBJECT
public:
    // `node`: the server that will run the command (on a cluster the key's owner).
    KeyActionDialog(const browse::KeyAction &action, const QString &sessionNote,
                    profiles::Environment environment, const QString &node,
                    QWidget *parent = nullptr);
    browse::KeyAction action() const;

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    QFormLayout *buildForm();
    QHBoxLayout *buildTtlRow();
    void addStockRows(QFormLayout *form);
    void addCommandPreview(QVBoxLayout *layout, const QString &sessionNote);
    QDialogButtonBox *buildButtons();
    void update();

    browse::KeyAction m_action;
    QSpinBox *m_amount = nullptr;
    QComboBox *m_unit = nullptr;
    QLineEdit *m_stock = nullptr; // SetStock
    QPlainTextEdit *m_command = nullptr;
    QLabel *m_consequence = nullptr;
    QLabel *m_problem = nullptr;
    QPushButton *m_confirm = nullptr;
};

} // namespace ui
