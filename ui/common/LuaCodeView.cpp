// SPDX-License-Identifier: GPL-3.0-or-later
#include "LuaCodeView.h"

#include "CodeColours.h"
#include "Palette.h"

#include <Qsci/qscilexerlua.h>

#include <QEvent>
#include <QFontDatabase>

namespace ui {

namespace {
// Marker numbers; QScintilla has 32, the first few are free for applications.
constexpr int MarkerFor[] = {1, 2, 3, 4};
// Faint tints that keep the Lua highlighting readable on them, in the palette's variant.
QColor tintColour(LuaCodeView::Tint tint)
{
    switch (tint) {
    case LuaCodeView::Added:
        return Palette::codeAdded();
    case LuaCodeView::Removed:
        return Palette::codeRemoved();
    case LuaCodeView::Changed:
        return Palette::codeChanged();
    case LuaCodeView::Filler:
        break;
    }
    return Palette::codeFiller();
}
constexpr int LabelMargin = 1;
} // namespace

LuaCodeView::LuaCodeView(QWidget *parent)
    : QsciScintilla(parent)
{
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    auto *lexer = new QsciLexerLua(this);
    lexer->setDefaultFont(mono);
    for (int style = 0; style < 128; ++style)
        lexer->setFont(mono, style);
    lexer->setEolFill(false, -1);
    setLexer(lexer);
    setFont(mono);
    setUtf8(true);
    setReadOnly(true);
    setWrapMode(QsciScintilla::WrapNone);
    setCaretLineVisible(false);
    setMarginsFont(mono);
    setMarginType(0, QsciScintilla::NumberMargin);
    setMarginLineNumbers(0, true);
    setMarginWidth(0, QStringLiteral("00000"));
    setMarginWidth(LabelMargin, 0);
    setFolding(QsciScintilla::NoFoldStyle);
    for (int t = Added; t <= Filler; ++t)
        markerDefine(QsciScintilla::Background, MarkerFor[t]);
    followPalette();
}

void LuaCodeView::changeEvent(QEvent *event)
{
    QsciScintilla::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        followPalette();
}

void LuaCodeView::followPalette()
{
    colourLuaLexer(static_cast<QsciLexerLua *>(lexer()));
    colourCodeEditor(this);
    for (int t = Added; t <= Filler; ++t)
        setMarkerBackgroundColor(tintColour(Tint(t)), MarkerFor[t]);
}

void LuaCodeView::setCode(const QString &text)
{
    setReadOnly(false);
    setText(text);
    setReadOnly(true);
    markerDeleteAll();
}

void LuaCodeView::tint(int row, Tint tint)
{
    markerAdd(row, MarkerFor[tint]);
}

void LuaCodeView::setLineLabels(const QStringList &labels)
{
    // The row numbers of an aligned view mean nothing to the reader: show the file's own.
    setMarginWidth(0, 0);
    setMarginType(LabelMargin, QsciScintilla::TextMargin);
    setMarginWidth(LabelMargin, QStringLiteral("00000"));
    for (int row = 0; row < labels.size(); ++row)
        setMarginText(row, labels.at(row), 0);
}

void LuaCodeView::scrollToRow(int row)
{
    setFirstVisibleLine(qMax(0, row - 3));
}

} // namespace ui
