// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QIODevice>

namespace cli {

// What every text the CLI prints goes through on its way to stdout and stderr: control
// characters that a terminal would act on (ESC sequences that clear the screen or set the
// title, BEL, backspace, a CR not followed by LF, and the 8-bit C1 forms encoded in UTF-8)
// are written as visible escapes (\x1b, \u009b) instead. Server error text, journal fields and key
// names reach the output through many paths; this is the one place that makes all of them safe.
// Newlines and tabs pass. JSON already escapes these, so it is unchanged; CSV that must keep exact
// bytes asks for setPassThrough(true).
class TerminalSafeDevice : public QIODevice
{
    Q_OBJECT
public:
    explicit TerminalSafeDevice(QIODevice &target, QObject *parent = nullptr);

    void setPassThrough(bool on);
    void finish(); // writes a lead byte still held back
    bool isSequential() const override { return true; }

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 size) override;

private:
    QIODevice &m_target;
    bool m_passThrough = false;
    char m_pending = 0; // 0xC2 or CR at the end of the last write, judged by the next byte
};

// The bytes as TerminalSafeDevice writes them (for a whole text; no state kept).
QByteArray terminalSafe(const QByteArray &text);

} // namespace cli
