// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Qsci/qsciscintilla.h>

namespace ui {

// Read-only Lua code with highlighting (QScintilla's Lua lexer), a fixed-width font and line
// numbers. Lines can be tinted (diff views) and numbered with the file's own line numbers
// when the view shows aligned rows with gaps. Its colours follow the application's palette,
// light or dark, also when it changes while the view is open.
class LuaCodeView : public QsciScintilla
{
    Q_OBJECT
public:
    enum Tint { Added, Removed, Changed, Filler };

    explicit LuaCodeView(QWidget *parent = nullptr);

    void setCode(const QString &text);
    // Tints one (0-based) row.
    void tint(int row, Tint tint);
    // Shows these numbers in the margin instead of row numbers ("" for a filler row).
    void setLineLabels(const QStringList &labels);
    void scrollToRow(int row);

protected:
    void changeEvent(QEvent *event) override;

private:
    void followPalette();
};

} // namespace ui
