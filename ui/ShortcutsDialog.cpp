// SPDX-License-Identifier: GPL-3.0-or-later
#include "ShortcutsDialog.h"

#include "ui/common/TabTitles.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ui {

QList<ShortcutEntry> collectShortcuts(const QWidget *root)
{
    QList<ShortcutEntry> out;
    QSet<QString> seen;
    // In creation order: the tab switches, then each menu's actions as the menu lists them.
    for (const QAction *a : root->findChildren<QAction *>()) {
        if (a->shortcuts().isEmpty() || a->text().isEmpty())
            continue;
        QStringList keys;
        for (const QKeySequence &k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        QString text = a->text();
        text = withoutMnemonic(text);
        if (text.endsWith(QChar(0x2026))) // "Find order…": the dots promise a dialog, not here
            text.chop(1);
        const ShortcutEntry e{keys.join(QStringLiteral(", ")), text};
        // The same action can be reachable twice (a menu and a button's copy): list it once.
        if (!seen.contains(e.keys + QLatin1Char('\n') + e.description)) {
            seen.insert(e.keys + QLatin1Char('\n') + e.description);
            out.append(e);
        }
    }
    return out;
}

ShortcutsDialog::ShortcutsDialog(const QWidget *root, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard shortcuts"));
    auto *layout = new QVBoxLayout(this);
    const QList<ShortcutEntry> entries = collectShortcuts(root);
    m_table = new QTableWidget(int(entries.size()), 2, this);
    m_table->setObjectName(QStringLiteral("shortcutsTable"));
    m_table->setHorizontalHeaderLabels({tr("Keys"), tr("Action")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (int i = 0; i < entries.size(); ++i) {
        m_table->setItem(i, 0, new QTableWidgetItem(entries[i].keys));
        m_table->setItem(i, 1, new QTableWidgetItem(entries[i].description));
    }
    m_table->resizeColumnToContents(0);
    m_table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_table, 1);
    auto *note =
        new QLabel(tr("Alt plus the underlined letter of a tab or menu also opens it."), this);
    note->setWordWrap(true);
    layout->addWidget(note);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(480, 460);
}

} // namespace ui
