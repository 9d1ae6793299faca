// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <initializer_list>

class QLabel;
class QWidget;

namespace ui {

// The pieces every tab of the connection dialog lays its rows out with, so that the tabs read
// alike.

// A smaller, softer line under a field; still readable (text colour, partly transparent).
QLabel *noteLabel(const QString &text = {});
// A field with its note right under it, in one form cell: laid out in `into`, or in a new widget
// when it is null.
QWidget *withNote(QWidget *field, QLabel *note, QWidget *into = nullptr);
// Widgets side by side in one form cell; the one at stretchIndex takes the spare width.
QWidget *row(std::initializer_list<QWidget *> widgets, int stretchIndex = 0);
// A note or status that reports a problem.
QString errorStyle();

} // namespace ui
