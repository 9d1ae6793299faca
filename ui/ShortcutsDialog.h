// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QList>

class QTableWidget;

namespace ui {

struct ShortcutEntry
{
    QString keys;        // as the platform writes them: "Ctrl+F"
    QString description; // the action's text without mnemonics: "Find order"
};

// Every shortcut of the enabled and disabled QActions under root (menus and window-level
// actions alike), in the order they were created. Read from the actions themselves, so the list is
// exactly what the keyboard does; actions without text are skipped (give them one).
QList<ShortcutEntry> collectShortcuts(const QWidget *root);

// Help > Keyboard shortcuts: the list above, in a table.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ShortcutsDialog(const QWidget *root, QWidget *parent = nullptr);
    QTableWidget *table() const { return m_table; }

private:
    QTableWidget *m_table = nullptr;
};

} // namespace ui
