// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPalette>
#include <QString>

namespace ui {

// The window's colours. System takes the palette the platform gives (a KDE or GNOME dark
// mode gives a dark one); Light and Dark set one whatever the platform says. The style is
// Fusion in every case (main_console), the style dark palettes are made for.
enum class Theme { System, Light, Dark };

// "system", "light", "dark": the word kept in the settings.
QString themeKey(Theme theme);
// The theme a settings word names; System for anything else.
Theme themeFromKey(const QString &key);
// The theme chosen in View > Theme, from the settings (System until one is chosen).
Theme savedTheme();
void saveTheme(Theme theme);

// A dark palette in the manner of KDE's Breeze Dark, which is what Qt applications get under
// a dark desktop: the palette the dark shades of Palette are checked against.
QPalette darkPalette();

// Gives the application the theme's palette. Open windows follow: every widget gets a
// PaletteChange, and when the palette turns from light to dark or back, the status colours
// widgets hold are given their other shade (ThemeRetint).
void applyTheme(Theme theme);

} // namespace ui
