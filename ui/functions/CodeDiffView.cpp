// SPDX-License-Identifier: GPL-3.0-or-later
#include "CodeDiffView.h"

#include "ui/common/CodeColours.h"
#include "ui/common/LuaCodeView.h"
#include "ui/common/TextStyle.h"

#include <Qsci/qscilexerdiff.h>

#include <QEvent>
#include <QFontDatabase>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QTabWidget>

namespace ui {

using functions::DiffRow;

CodeDiffView::CodeDiffView(QWidget *parent)
    : QWidget(parent)
    , m_leftLabel(new QLabel(this))
    , m_rightLabel(new QLabel(this))
    , m_counts(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_left(new LuaCodeView(this))
    , m_right(new LuaCodeView(this))
    , m_unified(new QsciScintilla(this))
{
    auto *sideBySide = new QWidget(this);
    auto *grid = new QGridLayout(sideBySide);
    grid->setContentsMargins(0, 4, 0, 0);
    for (QLabel *l : {m_leftLabel, m_rightLabel}) {
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        l->setWordWrap(true);
        setBold(l);
    }
    grid->addWidget(m_leftLabel, 0, 0);
    grid->addWidget(m_rightLabel, 0, 1);
    grid->addWidget(m_left, 1, 0);
    grid->addWidget(m_right, 1, 1);
    grid->setRowStretch(1, 1);
    m_tabs->addTab(sideBySide, tr("Side by side"));

    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    auto *diffLexer = new QsciLexerDiff(m_unified);
    diffLexer->setDefaultFont(mono);
    for (int style = 0; style < 16; ++style)
        diffLexer->setFont(mono, style);
    m_unified->setLexer(diffLexer);
    m_unified->setUtf8(true);
    m_unified->setReadOnly(true);
    m_unified->setMarginWidth(0, 0);
    colourDiffLexer(diffLexer);
    colourCodeEditor(m_unified);
    m_tabs->addTab(m_unified, tr("Unified"));

    auto *previous = new QPushButton(tr("Previous change"), this);
    connect(previous, &QPushButton::clicked, this, &CodeDiffView::jumpToPreviousChange);
    auto *next = new QPushButton(tr("Next change"), this);
    connect(next, &QPushButton::clicked, this, &CodeDiffView::jumpToNextChange);
    m_counts->setWordWrap(true);
    auto *top = new QHBoxLayout;
    top->addWidget(m_counts, 1);
    top->addWidget(previous);
    top->addWidget(next);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_tabs, 1);

    // The two sides scroll together, both ways, whatever moved one of them. A scroll bar
    // signals only when the user drags it: when Scintilla scrolls itself (the keyboard, the
    // wheel, a search) it sets the bar with signals blocked and reports an update of its view
    // at the next paint. Rows are aligned, so the same first visible line shows the same rows
    // on both sides.
    for (LuaCodeView *pane : {m_left, m_right}) {
        connect(pane->verticalScrollBar(), &QScrollBar::valueChanged, this,
                [this, pane] { followPane(pane); });
        connect(pane->horizontalScrollBar(), &QScrollBar::valueChanged, this,
                [this, pane] { followPane(pane); });
        connect(pane, &QsciScintillaBase::SCN_UPDATEUI, this, [this, pane] { followPane(pane); });
    }
}

void CodeDiffView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        colourDiffLexer(static_cast<QsciLexerDiff *>(m_unified->lexer()));
        colourCodeEditor(m_unified);
    }
}

void CodeDiffView::followPane(LuaCodeView *from)
{
    // Scintilla reports a view's update when it paints, possibly after the other pane moved:
    // only a pane that left the shared position leads, the other one follows it.
    if (m_syncing)
        return;
    const int first = from->firstVisibleLine();
    const int x = int(from->SendScintilla(QsciScintillaBase::SCI_GETXOFFSET));
    if (first == m_sharedLine && x == m_sharedX)
        return;
    m_sharedLine = first;
    m_sharedX = x;
    LuaCodeView *to = from == m_left ? m_right : m_left;
    m_syncing = true;
    if (to->firstVisibleLine() != first)
        to->setFirstVisibleLine(first);
    if (to->SendScintilla(QsciScintillaBase::SCI_GETXOFFSET) != x)
        to->SendScintilla(QsciScintillaBase::SCI_SETXOFFSET, x);
    m_syncing = false;
}

void CodeDiffView::showRow(int row)
{
    m_left->scrollToRow(row);
    m_right->scrollToRow(row);
    followPane(m_left);
}

void CodeDiffView::setDiff(const functions::CodeDiff &diff)
{
    m_leftLabel->setText(tr("Before: %1").arg(diff.leftLabel.text));
    m_rightLabel->setText(tr("After: %1").arg(diff.rightLabel.text));
    QString counts = diff.identical ? tr("The code is identical: nothing to load.")
                                    : tr("%1 lines added, %2 removed (edited lines count as both)")
                                          .arg(diff.added)
                                          .arg(diff.removed);
    if (!diff.note.isEmpty())
        counts += QStringLiteral(" — %1").arg(diff.note.text);
    m_counts->setText(counts);

    QStringList left;
    QStringList right;
    QStringList leftNumbers;
    QStringList rightNumbers;
    m_changeRows.clear();
    bool inChange = false;
    for (const DiffRow &r : diff.rows) {
        left << r.left;
        right << r.right;
        leftNumbers << (r.leftLine ? QString::number(r.leftLine) : QString());
        rightNumbers << (r.rightLine ? QString::number(r.rightLine) : QString());
        const bool changed = r.kind != DiffRow::Kind::Same;
        if (changed && !inChange)
            m_changeRows << int(left.size() - 1);
        inChange = changed;
    }
    m_left->setCode(left.join(QLatin1Char('\n')));
    m_right->setCode(right.join(QLatin1Char('\n')));
    for (int row = 0; row < diff.rows.size(); ++row) {
        switch (diff.rows.at(row).kind) {
        case DiffRow::Kind::Removed:
            m_left->tint(row, LuaCodeView::Removed);
            m_right->tint(row, LuaCodeView::Filler);
            break;
        case DiffRow::Kind::Added:
            m_left->tint(row, LuaCodeView::Filler);
            m_right->tint(row, LuaCodeView::Added);
            break;
        case DiffRow::Kind::Changed:
            m_left->tint(row, LuaCodeView::Changed);
            m_right->tint(row, LuaCodeView::Changed);
            break;
        case DiffRow::Kind::Same:
            break;
        }
    }
    m_left->setLineLabels(leftNumbers);
    m_right->setLineLabels(rightNumbers);
    m_unified->setReadOnly(false);
    m_unified->setText(diff.unified.isEmpty() ? tr("(no difference)") : diff.unified);
    m_unified->setReadOnly(true);
    if (!m_changeRows.isEmpty())
        showRow(m_changeRows.first());
}

void CodeDiffView::jumpToNextChange()
{
    if (m_changeRows.isEmpty())
        return;
    const int current = m_left->firstVisibleLine() + 3;
    for (int row : m_changeRows)
        if (row > current) {
            showRow(row);
            return;
        }
    showRow(m_changeRows.first());
}

void CodeDiffView::jumpToPreviousChange()
{
    if (m_changeRows.isEmpty())
        return;
    const int current = m_left->firstVisibleLine() + 3;
    for (auto it = m_changeRows.crbegin(); it != m_changeRows.crend(); ++it)
        if (*it < current) {
            showRow(*it);
            return;
        }
    showRow(m_changeRows.last());
}

} // namespace ui
