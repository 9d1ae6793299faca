// SPDX-License-Identifier: GPL-3.0-or-later
#include "TabTitles.h"

#include <QRegularExpression>
#include <QTabBar>
#include <QTabWidget>

namespace ui {

QString withoutMnemonic(const QString &title)
{
    // The CJK form first: its bracketed letter means nothing without the underline.
    static const QRegularExpression cjk(QStringLiteral("\\(&[^&]\\)"));
    static const QRegularExpression mnemonic(QStringLiteral("&(.)"));
    QString shown = title;
    shown.remove(cjk);
    return shown.replace(mnemonic, QStringLiteral("\\1"));
}

int addNamedTab(QTabWidget *tabs, QWidget *page, const QString &title, const QString &name)
{
    const int index = tabs->addTab(page, title);
    tabs->tabBar()->setTabData(index, name);
    return index;
}

int findNamedTab(const QTabWidget *tabs, const QString &name)
{
    for (int i = 0; i < tabs->count(); ++i) {
        const QVariant named = tabs->tabBar()->tabData(i);
        const QString candidate =
            named.isValid() ? named.toString() : withoutMnemonic(tabs->tabText(i));
        if (candidate.startsWith(name, Qt::CaseInsensitive))
            return i;
    }
    return -1;
}

} // namespace ui
