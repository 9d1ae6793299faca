// SPDX-License-Identifier: GPL-3.0-or-later
#include "CodeColours.h"

#include "Palette.h"

#include <Qsci/qscilexerdiff.h>
#include <Qsci/qscilexerlua.h>
#include <Qsci/qsciscintilla.h>

#include <QGuiApplication>

namespace ui {

namespace {

// The dark variant's Lua colours, in the manner of GitHub's dark theme: each reaches a
// contrast of 4.5 on the dark paper (#232629).
QColor darkLuaColour(int style)
{
    switch (style) {
    case QsciLexerLua::Comment:
    case QsciLexerLua::LineComment:
        return QColor(0x9ba3ad);
    case QsciLexerLua::Number:
        return QColor(0x79c0ff);
    case QsciLexerLua::Keyword:
        return QColor(0xff7b72);
    case QsciLexerLua::String:
    case QsciLexerLua::Character:
    case QsciLexerLua::LiteralString:
    case QsciLexerLua::UnclosedString:
        return QColor(0xa5d6ff);
    case QsciLexerLua::Preprocessor:
    case QsciLexerLua::Label:
        return QColor(0xffa657);
    case QsciLexerLua::BasicFunctions:
    case QsciLexerLua::StringTableMathsFunctions:
    case QsciLexerLua::CoroutinesIOSystemFacilities:
        return QColor(0xd2a8ff);
    default:
        return QGuiApplication::palette().color(QPalette::Text);
    }
}

} // namespace

void colourLuaLexer(QsciLexerLua *lexer)
{
    const bool dark = Palette::isDark();
    // First: the light variant's plain styles (identifiers, operators) take this colour.
    lexer->setDefaultColor(QGuiApplication::palette().color(QPalette::Text));
    for (int style = 0; style < 128; ++style) {
        if (lexer->description(style).isEmpty())
            continue;
        lexer->setColor(dark ? darkLuaColour(style) : lexer->defaultColor(style), style);
    }
    // The Lua lexer paints library names on coloured paper; text colour is enough, and the
    // diff views need the background for their tints.
    lexer->setPaper(Palette::paper());
    lexer->setDefaultPaper(Palette::paper());
}

void colourDiffLexer(QsciLexerDiff *lexer)
{
    const QColor text = QGuiApplication::palette().color(QPalette::Text);
    for (int style = 0; style < 128; ++style) {
        if (!lexer->description(style).isEmpty())
            lexer->setColor(text, style);
    }
    lexer->setColor(Palette::muted(), QsciLexerDiff::Comment);
    lexer->setColor(Palette::applied(), QsciLexerDiff::Command);
    lexer->setColor(Palette::applied(), QsciLexerDiff::Header);
    lexer->setColor(Palette::unknown(), QsciLexerDiff::Position);
    for (int style : {QsciLexerDiff::LineAdded, QsciLexerDiff::AddingPatchAdded,
                      QsciLexerDiff::RemovingPatchAdded})
        lexer->setColor(Palette::ok(), style);
    for (int style : {QsciLexerDiff::LineRemoved, QsciLexerDiff::AddingPatchRemoved,
                      QsciLexerDiff::RemovingPatchRemoved})
        lexer->setColor(Palette::error(), style);
    lexer->setColor(Palette::warning(), QsciLexerDiff::LineChanged);
    lexer->setDefaultColor(text);
    lexer->setPaper(Palette::paper());
    lexer->setDefaultPaper(Palette::paper());
}

void colourCodeEditor(QsciScintilla *editor)
{
    const QPalette p = QGuiApplication::palette();
    editor->setMarginsBackgroundColor(p.color(QPalette::Window));
    editor->setMarginsForegroundColor(Palette::muted());
    editor->setCaretForegroundColor(p.color(QPalette::Text));
    editor->setSelectionBackgroundColor(p.color(QPalette::Highlight));
    editor->setSelectionForegroundColor(p.color(QPalette::HighlightedText));
    editor->setPaper(Palette::paper());
    editor->setColor(p.color(QPalette::Text));
}

} // namespace ui
