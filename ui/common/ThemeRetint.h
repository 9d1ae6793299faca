// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QPalette;

namespace ui {

// Widgets are given status colours once, when their state changes: a label's palette, a
// style sheet ("color: #c62828;"), rich text, a table item's brush. When the application's
// palette turns from light to dark (View > Theme, or the desktop's own dark mode) or back,
// those colours would stay in the old variant. Rather than have each of the many places
// that set one listen for the change, one pass gives every Palette shade found in an open
// widget the same meaning's shade in the new variant (Palette::counterpart), and a text
// colour copied from the old palette (a quieter note) the new palette's.
//
// Widgets that draw with colours of their own (charts, the Lua views) follow the palette
// themselves on QEvent::PaletteChange.

// Starts watching the application for palette changes; once is enough, later calls do
// nothing.
void watchThemeChanges();

// The pass itself, from the palette the widgets were tinted for to the current one.
void retintOpenWidgets(const QPalette &before, const QPalette &after);

} // namespace ui
