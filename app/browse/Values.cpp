// SPDX-License-Identifier: GPL-3.0-or-later
#include "Values.h"

#include "core/Bytes.h"

#include <QCoreApplication>
#include <QDateTime>
#include <limits>

namespace browse {

QString formatDuration(qint64 ms, core::Wording wording)
{
    // Whole patterns, so that a language can order and space its unit words.
    const auto say = [wording](const char *source) {
        return core::word(wording, "browse::Values", source);
    };
    if (ms <= 0)
        return say(QT_TRANSLATE_NOOP("browse::Values", "%1 s")).arg(0);
    if (ms < 10000 && ms % 1000 != 0)
        return say(QT_TRANSLATE_NOOP("browse::Values", "%1 s")).arg(ms / 1000.0, 0, 'f', 1);
    const qint64 s = ms / 1000;
    const qint64 d = s / 86400, h = s / 3600 % 24, m = s / 60 % 60, sec = s % 60;
    if (d)
        return h ? say(QT_TRANSLATE_NOOP("browse::Values", "%1 d %2 h")).arg(d).arg(h)
                 : say(QT_TRANSLATE_NOOP("browse::Values", "%1 d")).arg(d);
    if (h)
        return m ? say(QT_TRANSLATE_NOOP("browse::Values", "%1 h %2 min")).arg(h).arg(m)
                 : say(QT_TRANSLATE_NOOP("browse::Values", "%1 h")).arg(h);
    if (m)
        return sec ? say(QT_TRANSLATE_NOOP("browse::Values", "%1 min %2 s")).arg(m).arg(sec)
                   : say(QT_TRANSLATE_NOOP("browse::Values", "%1 min")).arg(m);
    return say(QT_TRANSLATE_NOOP("browse::Values", "%1 s")).arg(sec);
}

QString formatExpiry(qint64 epochMs)
{
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(epochMs);
    const int offset = t.offsetFromUtc();
    const int a = qAbs(offset);
    return t.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
           + QStringLiteral(" %1%2:%3")
                 .arg(offset < 0 ? QLatin1Char('-') : QLatin1Char('+'))
                 .arg(a / 3600, 2, 10, QLatin1Char('0'))
                 .arg(a / 60 % 60, 2, 10, QLatin1Char('0'));
}

QString formatReceiptTime(const QByteArray &raw)
{
    const auto v = parseCanonicalInteger(raw);
    // Ten-digit values are seconds (until 2286), thirteen-digit ones milliseconds.
    if (v && *v >= 1000000000LL && *v < 10000000000LL)
        return formatExpiry(*v * 1000);
    if (v && *v >= 1000000000000LL && *v < 10000000000000LL)
        return formatExpiry(*v);
    return core::escapeBytes(raw, 64);
}

} // namespace browse
