// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "functions/CodeDiff.h"

#include <QWidget>

class QLabel;
class QTabWidget;
class QsciScintilla;

namespace ui {

class LuaCodeView;

// A code diff two ways: side by side (aligned rows, removed lines red on the left, added
// green on the right, edited lines yellow on both, the file's own line numbers; the two
// sides scroll together) and unified (as `diff -u` prints it).
class CodeDiffView : public QWidget
{
    Q_OBJECT
public:
    explicit CodeDiffView(QWidget *parent = nullptr);

    void setDiff(const functions::CodeDiff &diff);

    LuaCodeView *left() const { return m_left; }
    LuaCodeView *right() const { return m_right; }
    QsciScintilla *unified() const { return m_unified; }
    QTabWidget *tabs() const { return m_tabs; }

protected:
    void changeEvent(QEvent *event) override; // the unified diff follows the palette

private:
    void jumpToNextChange();
    void jumpToPreviousChange();
    // Puts this row near the top of both panes.
    void showRow(int row);
    // Scrolls the other pane to this one's first visible line and horizontal offset.
    void followPane(LuaCodeView *from);

    QLabel *m_leftLabel;
    QLabel *m_rightLabel;
    QLabel *m_counts;
    QTabWidget *m_tabs;
    LuaCodeView *m_left;
    LuaCodeView *m_right;
    QsciScintilla *m_unified;
    QList<int> m_changeRows; // first row of each run of changes
    bool m_syncing = false;
    int m_sharedLine = 0; // where both panes are: the first visible row and horizontal offset
    int m_sharedX = 0;
};

} // namespace ui
