// SPDX-License-Identifier: GPL-3.0-or-later
#include "Theme.h"

#include "ThemeRetint.h"

#include <QApplication>
#include <QSettings>
#include <QStyle>

namespace ui {

namespace {
const auto ThemeSetting = QStringLiteral("view/theme");
}

QString themeKey(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

Theme themeFromKey(const QString &key)
{
    if (key == QLatin1String("light"))
        return Theme::Light;
    if (key == QLatin1String("dark"))
        return Theme::Dark;
    return Theme::System;
}

Theme savedTheme()
{
    return themeFromKey(QSettings().value(ThemeSetting).toString());
}

void saveTheme(Theme theme)
{
    QSettings().setValue(ThemeSetting, themeKey(theme));
}

QPalette darkPalette()
{
    const QColor window(0x31363b), base(0x232629), text(0xeff0f1), disabledText(0x7f8c8d);
    // Deeper than Breeze's #3daee9, so that light words on a selected row read (4.7:1).
    const QColor highlight(0x2f6ea5);
    QPalette p(window);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x2a2e32));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x3b4045));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xffffff));
    p.setColor(QPalette::Light, QColor(0x4a5056));
    p.setColor(QPalette::Midlight, QColor(0x40464c));
    p.setColor(QPalette::Mid, QColor(0x2b2f33));
    p.setColor(QPalette::Dark, QColor(0x1b1e20));
    p.setColor(QPalette::Shadow, QColor(0x101214));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, text);
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0xa0a7b0));
    p.setColor(QPalette::Link, QColor(0x6cb6ff));
    p.setColor(QPalette::LinkVisited, QColor(0xb392f0));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x4d5359));
    return p;
}

void applyTheme(Theme theme)
{
    watchThemeChanges();
    switch (theme) {
    case Theme::System:
        // An empty palette is the platform's (QGuiApplication::setPalette resolves it).
        QApplication::setPalette(QPalette());
        return;
    case Theme::Light:
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    case Theme::Dark:
        QApplication::setPalette(darkPalette());
        return;
    }
}

} // namespace ui
