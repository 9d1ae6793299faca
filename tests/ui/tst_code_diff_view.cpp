// SPDX-License-Identifier: GPL-3.0-or-later
// The side-by-side code diff, offscreen: the two panes always show the same rows, whichever
// way the reader moves (Next/Previous change, the scroll bars, the keyboard), so an added
// line far down comes into view on the right when "Next change" goes to it.
#include "functions/CodeDiff.h"
#include "ui/common/LuaCodeView.h"
#include "ui/functions/CodeDiffView.h"

#include <QAbstractButton>
#include <QApplication>
#include <QPushButton>
#include <QScrollBar>
#include <QTest>

namespace {
// 200 identical lines, one added line after line 150.
QByteArray before()
{
    QByteArray code;
    for (int i = 1; i <= 200; ++i)
        code += "local line" + QByteArray::number(i) + " = " + QByteArray::number(i) + "\n";
    return code;
}
QByteArray after()
{
    QByteArray code;
    for (int i = 1; i <= 200; ++i) {
        code += "local line" + QByteArray::number(i) + " = " + QByteArray::number(i) + "\n";
        if (i == 150)
            code += "local added_far_down = true\n";
    }
    return code;
}
QPushButton *button(QWidget *w, const QString &text)
{
    for (QPushButton *b : w->findChildren<QPushButton *>())
        if (b->text() == text)
            return b;
    return nullptr;
}
// Is this 0-based row on screen in this pane?
bool shows(ui::LuaCodeView *v, int row)
{
    const int first = v->firstVisibleLine();
    const int count = int(v->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN));
    return row >= first && row < first + count;
}
} // namespace

class TstCodeDiffView : public QObject
{
    Q_OBJECT

    int addedRow(const functions::CodeDiff &d)
    {
        for (int r = 0; r < d.rows.size(); ++r)
            if (d.rows.at(r).kind == functions::DiffRow::Kind::Added)
                return r;
        return -1;
    }

private slots:
    void nextChangeMovesBothPanes()
    {
        const functions::CodeDiff d =
            functions::diffCode(before(), after(), core::Sentence::plain(QStringLiteral("old")),
                                core::Sentence::plain(QStringLiteral("new")));
        const int row = addedRow(d);
        QVERIFY(row > 100);
        ui::CodeDiffView view;
        view.resize(900, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setDiff(d);
        // setDiff shows the first change already, on both sides.
        QTRY_COMPARE(view.right()->firstVisibleLine(), view.left()->firstVisibleLine());
        QVERIFY(shows(view.right(), row));
        QVERIFY(view.right()->text(row).contains("added_far_down"));

        // Back to the top with the keyboard on the right pane: the left one follows.
        view.right()->setFocus();
        QTest::keyClick(view.right(), Qt::Key_Home, Qt::ControlModifier);
        QTRY_COMPARE(view.right()->firstVisibleLine(), 0);
        QTRY_COMPARE(view.left()->firstVisibleLine(), 0);

        QPushButton *next = button(&view, QStringLiteral("Next change"));
        QVERIFY(next);
        next->click();
        QVERIFY(view.left()->firstVisibleLine() > 100);
        QTRY_COMPARE(view.right()->firstVisibleLine(), view.left()->firstVisibleLine());
        QVERIFY(shows(view.left(), row));
        QVERIFY(shows(view.right(), row));

        // The left scroll bar drags the right pane along, and the right one the left.
        view.left()->verticalScrollBar()->setValue(20);
        QTRY_COMPARE(view.right()->firstVisibleLine(), view.left()->firstVisibleLine());
        QCOMPARE(view.left()->firstVisibleLine(), 20);
        view.right()->verticalScrollBar()->setValue(60);
        QTRY_COMPARE(view.left()->firstVisibleLine(), 60);
        QCOMPARE(view.right()->firstVisibleLine(), 60);

        // Previous change (wrapping) lands on the same, only, change.
        QPushButton *previous = button(&view, QStringLiteral("Previous change"));
        QVERIFY(previous);
        previous->click();
        QTRY_COMPARE(view.right()->firstVisibleLine(), view.left()->firstVisibleLine());
        QVERIFY(shows(view.right(), row));
    }
};

QTEST_MAIN(TstCodeDiffView)
#include "tst_code_diff_view.moc"
