// SPDX-License-Identifier: GPL-3.0-or-later
#include "Values.h"

#include "core/Bytes.h"

#include <QDateTime>
#include <limits>

namespace browse {

QString formatDuration(qint64 ms)
{
    if (ms <= 0)
        return QStringLiteral("0 s");
    if (ms < 10000 && ms % 1000 != 0)
        return QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'f', 1);
    const qint64 s = ms / 1000;
    const qint64 d = s / 86400, h = s / 3600 % 24, m = s / 60 % 60, sec = s % 60;
    auto two = [](qint64 a, const char *ua, qint64 b, const char *ub) {
        return b ? QStringLiteral("%1 %2 %3 %4")
                       .arg(a)
                       .arg(QLatin1String(ua))
                       .arg(b)
                       .arg(QLatin1String(ub))
                 : QStringLiteral("%1 %2").arg(a).arg(QLatin1String(ua));
    };
    if (d)
        return two(d, "d", h, "h");
    if (h)
        return two(h, "h", m, "min");
    if (m)
        return two(m, "min", sec, "s");
    return QStringLiteral("%1 s").arg(sec);
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
