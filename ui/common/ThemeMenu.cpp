// SPDX-License-Identifier: GPL-3.0-or-later
#include "ThemeMenu.h"

#include "Theme.h"

#include <QActionGroup>
#include <QMenu>

namespace ui {

QMenu *themeMenu(QWidget *parent)
{
    auto *menu = new QMenu(QObject::tr("&Theme"), parent);
    auto *group = new QActionGroup(menu);
    const struct
    {
        Theme theme;
        QString text;
        const char *name;
    } choices[] = {
        {Theme::System, QObject::tr("&System"), "themeSystemAction"},
        {Theme::Light, QObject::tr("&Light"), "themeLightAction"},
        {Theme::Dark, QObject::tr("&Dark"), "themeDarkAction"},
    };
    const Theme saved = savedTheme();
    for (const auto &choice : choices) {
        QAction *action = menu->addAction(choice.text);
        action->setObjectName(QLatin1String(choice.name));
        action->setCheckable(true);
        action->setChecked(choice.theme == saved);
        action->setActionGroup(group);
        action->setData(themeKey(choice.theme));
        const Theme theme = choice.theme;
        QObject::connect(action, &QAction::triggered, menu, [theme] {
            saveTheme(theme);
            applyTheme(theme);
        });
    }
    // Another window's menu may have changed the theme since: show the one in force.
    QObject::connect(menu, &QMenu::aboutToShow, menu, [group] {
        const QString saved = themeKey(savedTheme());
        for (QAction *action : group->actions())
            action->setChecked(action->data().toString() == saved);
    });
    return menu;
}

} // namespace ui
