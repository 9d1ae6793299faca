// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QTabWidget;
class QWidget;

namespace ui {

// A title as shown, without its mnemonic: "&Keys" → "Keys", "键(&K)" → "键" (the CJK form,
// where the letter is added in brackets), "Stock && receipts" → "Stock & receipts".
QString withoutMnemonic(const QString &title);

// Adds a tab that --tab and scripts find by an English name, whatever language its title is in.
int addNamedTab(QTabWidget *tabs, QWidget *page, const QString &title, const QString &name);
// The first tab whose name (or, for a tab added without one, whose title as shown) starts with
// `name`, case-insensitively; -1 when none does.
int findNamedTab(const QTabWidget *tabs, const QString &name);

} // namespace ui
