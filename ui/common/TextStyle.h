// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QColor;
class QWidget;

namespace ui {

// How a label's (or a check box's) words look, set through the widget's palette and font
// rather than a style sheet: the colour stays a QColor from Palette that a test can compare,
// and no style sheet is built and parsed for one property.

// Writes the widget's text in `colour`; an invalid colour (QColor()) gives back the colour it
// inherits. The font is left as it is. Not for a widget inside one whose style sheet changes
// later: that repolish puts back the palette the widget had when it was first polished.
void setTextColour(QWidget *widget, const QColor &colour);
void setBold(QWidget *widget, bool bold = true);
// A view's or a page's title: larger and bold.
void setHeading(QWidget *widget);
// The titles of the group boxes inside `container` in bold, their contents not: a font set on
// a group box would reach every child of it.
void boldGroupTitles(QWidget *container);

} // namespace ui
