// SPDX-License-Identifier: GPL-3.0-or-later
#include "Bytes.h"

#include <QStringDecoder>

namespace core {

namespace {

QString escapeByte(unsigned char c)
{
    switch (c) {
    case '\n':
        return QStringLiteral("\\n");
    case '\r':
        return QStringLiteral("\\r");
    case '\t':
        return QStringLiteral("\\t");
    case '\\':
        return QStringLiteral("\\\\");
    default:
        return QStringLiteral("\\x%1").arg(c, 2, 16, QLatin1Char('0'));
    }
}

// Length of the valid UTF-8 sequence starting at p (1..4), or 0 when invalid.
int utf8SequenceLength(const unsigned char *p, qsizetype avail)
{
    const unsigned char c = p[0];
    int len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || len > avail)
        return 0;
    for (int i = 1; i < len; ++i)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    // Reject overlong encodings and surrogates by round-tripping through Qt's decoder.
    if (len > 1) {
        const QString s = QString::fromUtf8(reinterpret_cast<const char *>(p), len);
        if (s.contains(QChar::ReplacementCharacter))
            return 0;
    }
    return len;
}

} // namespace

namespace {

// True when some byte must be shown as an escape (a control, invalid UTF-8).
bool needsEscapes(const QByteArray &bytes)
{
    const auto *p = reinterpret_cast<const unsigned char *>(bytes.constData());
    const qsizetype n = bytes.size();
    for (qsizetype i = 0; i < n;) {
        const unsigned char c = p[i];
        if (c >= 0x20 && c < 0x7F) {
            ++i;
            continue;
        }
        const int len = c >= 0x80 ? utf8SequenceLength(p + i, n - i) : 0;
        if (len == 0)
            return true;
        i += len;
    }
    return false;
}

} // namespace

QString escapeBytes(const QByteArray &bytes, int maxChars)
{
    // A backslash is doubled only when other bytes are escaped, so that "\\x41" and a
    // real "\x41" stay apart; otherwise the text is shown as it is, and an order id "bs\x"
    // reads (and copies) as "bs\x", not as a key that does not exist.
    const bool escapeBackslash = needsEscapes(bytes);
    QString out;
    const auto *p = reinterpret_cast<const unsigned char *>(bytes.constData());
    const qsizetype n = bytes.size();
    qsizetype i = 0;
    while (i < n) {
        if (maxChars > 0 && out.size() >= maxChars) {
            out += QChar(0x2026); // …
            break;
        }
        const unsigned char c = p[i];
        if (c >= 0x20 && c < 0x7F && (c != '\\' || !escapeBackslash)) {
            out += QLatin1Char(char(c));
            ++i;
            continue;
        }
        const int len = c >= 0x80 ? utf8SequenceLength(p + i, n - i) : 0;
        if (len > 0) {
            out += QString::fromUtf8(reinterpret_cast<const char *>(p + i), len);
            i += len;
        } else {
            out += escapeByte(c);
            ++i;
        }
    }
    return out;
}

QString shellQuote(const QByteArray &arg)
{
    bool plain = !arg.isEmpty();
    for (char c : arg)
        plain = plain
                && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '_' || c == '-' || c == '.' || c == ':' || c == '/' || c == '=');
    if (plain)
        return QString::fromLatin1(arg);
    bool printable = true;
    for (char c : arg)
        printable = printable && static_cast<unsigned char>(c) >= 0x20 && c != 0x7F;
    if (printable && QString::fromUtf8(arg).toUtf8() == arg) {
        QString s = QString::fromUtf8(arg);
        s.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
        return QLatin1Char('\'') + s + QLatin1Char('\'');
    }
    // Bytes a terminal cannot carry: bash's $'...' quoting with hex escapes.
    QString s = QStringLiteral("$'");
    for (char ch : arg) {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 0x20 && c < 0x7F && c != '\\' && c != '\'')
            s += QLatin1Char(char(c));
        else
            s += QStringLiteral("\\x%1").arg(c, 2, 16, QLatin1Char('0'));
    }
    return s + QLatin1Char('\'');
}

} // namespace core
