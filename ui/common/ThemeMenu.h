// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QMenu;
class QWidget;

namespace ui {

// View > Theme: System / Light / Dark, one checked. A choice applies at once to every open
// window and is kept in the settings for the next start (Theme.h). Actions are named
// "themeSystemAction", "themeLightAction" and "themeDarkAction".
QMenu *themeMenu(QWidget *parent);

} // namespace ui
