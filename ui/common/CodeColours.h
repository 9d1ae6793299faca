// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QsciLexerDiff;
class QsciLexerLua;
class QsciScintilla;

namespace ui {

// QScintilla keeps its own colours and does not look at the widget's palette: these give the
// code views colours of the application's current palette, light or dark (Palette::isDark).
// The views call them when built and again on QEvent::PaletteChange.

// Lua: paper, plain text, keywords, strings, comments, numbers, library names.
void colourLuaLexer(QsciLexerLua *lexer);
// A unified diff: paper, plain text, headers, and added / removed / changed lines in the
// status palette's ok / error / warning.
void colourDiffLexer(QsciLexerDiff *lexer);
// What surrounds the text: the margins (line numbers), caret and selection.
void colourCodeEditor(QsciScintilla *editor);

} // namespace ui
