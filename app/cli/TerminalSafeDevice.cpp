// SPDX-License-Identifier: GPL-3.0-or-later
#include "TerminalSafeDevice.h"

#include <QFileDevice>

namespace cli {

namespace {

void appendEscaped(QByteArray &out, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    out += "\\x";
    out += hex[c >> 4];
    out += hex[c & 0xF];
}

// Filters `in`; `pending` carries a byte whose meaning depends on the next one across
// writes: a UTF-8 lead byte 0xC2 (a C1 control follows?) or a CR (CRLF, as CSV ends its lines,
// passes; a lone CR, which would let text overwrite a line, is escaped).
QByteArray filter(const char *in, qint64 size, char &pending)
{
    QByteArray out;
    out.reserve(size + 8);
    for (qint64 i = 0; i < size; ++i) {
        const auto c = static_cast<unsigned char>(in[i]);
        if (pending == '\r') {
            pending = 0;
            out += c == '\n' ? QByteArray("\r") : QByteArray("\\x0d");
        }
        const bool pendingC2 = pending == char(0xC2);
        pending = 0;
        if (pendingC2) {
            if (c >= 0x80 && c <= 0x9F) { // U+0080..U+009F: C1 controls, e.g. CSI
                out += "\\u00";
                out += "0123456789abcdef"[c >> 4];
                out += "0123456789abcdef"[c & 0xF];
                continue;
            }
            out += char(0xC2);
        }
        if (c == 0xC2 || c == '\r') {
            pending = char(c);
        } else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
            appendEscaped(out, c);
        } else {
            out += char(c);
        }
    }
    return out;
}

// A pending byte that nothing followed: a lone CR is escaped, a lone 0xC2 written as it is.
QByteArray unfollowed(char pending)
{
    if (pending == '\r')
        return QByteArrayLiteral("\\x0d");
    return pending ? QByteArray(1, pending) : QByteArray();
}

} // namespace

TerminalSafeDevice::TerminalSafeDevice(QIODevice &target, QObject *parent)
    : QIODevice(parent)
    , m_target(target)
{
    open(QIODevice::WriteOnly | QIODevice::Unbuffered);
}

void TerminalSafeDevice::setPassThrough(bool on)
{
    finish();
    m_passThrough = on;
}

void TerminalSafeDevice::finish()
{
    m_target.write(unfollowed(m_pending));
    m_pending = 0;
}

qint64 TerminalSafeDevice::writeData(const char *data, qint64 size)
{
    const QByteArray safe = m_passThrough ? QByteArray() : filter(data, size, m_pending);
    if ((m_passThrough ? m_target.write(data, size) : m_target.write(safe)) < 0)
        return -1;
    // What arrives here was buffered by the QTextStream above (16 KB, or up to a flush() such
    // as a progress line's): a file's own buffer would hold a progress line back until exit.
    if (auto *file = qobject_cast<QFileDevice *>(&m_target))
        file->flush();
    // A lone lead byte at the very end stays pending; it is written with what follows.
    return size;
}

QByteArray terminalSafe(const QByteArray &text)
{
    char pending = 0;
    return filter(text.constData(), text.size(), pending) + unfollowed(pending);
}

} // namespace cli
