// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QPlainTextEdit;
class QPushButton;

namespace ui {

// A command line to run elsewhere, shown whole: wrapped (anywhere, so a long path breaks
// too), selectable, read-only, in a fixed-width font, with a Copy button that puts the exact
// text on the clipboard.
class CommandField : public QWidget
{
    Q_OBJECT
public:
    explicit CommandField(QWidget *parent = nullptr);

    void setCommand(const QString &command);
    QString command() const { return m_command; }
    QPlainTextEdit *text() const { return m_text; }
    QPushButton *copyButton() const { return m_copy; }

    // Quotes one argument for a POSIX shell when it needs it: abc stays abc, a b becomes 'a b'.
    static QString shellQuote(const QString &argument);

private:
    void copy();

    QString m_command;
    QPlainTextEdit *m_text;
    QPushButton *m_copy;
};

} // namespace ui
