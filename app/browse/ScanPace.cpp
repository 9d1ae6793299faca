// SPDX-License-Identifier: GPL-3.0-or-later
#include "ScanPace.h"

#include <QLocale>

namespace browse {

ScanPace ScanPace::fast()
{
    return ScanPace{};
}

ScanPace ScanPace::gentle(qint64 keysPerSecond)
{
    ScanPace p;
    p.mode = Mode::Gentle;
    // Small pages: each SCAN and each page's pipelined reads hold the server's one thread
    // for less time, so a probe rarely queues behind them.
    p.count = 250;
    p.sparseCount = 1000;
    p.pagesInFlight = 1;
    p.keysPerSecond = keysPerSecond;
    return p;
}

ScanPace ScanPace::forEnvironment(profiles::Environment environment)
{
    return environment == profiles::Environment::Production ? gentle() : fast();
}

void ScanPace::applyTo(InventoryScan::Options &options) const
{
    if (options.count <= 0)
        options.count = options.orderId.isEmpty() ? count : sparseCount;
    options.pagesInFlight = pagesInFlight;
    options.keysPerSecond = keysPerSecond;
}

QString ScanPace::describe() const
{
    const QString pages = pagesInFlight == 1
                              ? QStringLiteral("1 page in flight")
                              : QStringLiteral("%1 pages in flight").arg(pagesInFlight);
    if (keysPerSecond <= 0)
        return QStringLiteral("fast: no rate cap, %1").arg(pages);
    return QStringLiteral("gentle: at most %1 keys/s, %2")
        .arg(QLocale().toString(keysPerSecond), pages);
}

qint64 ScanPace::expectedSeconds(qint64 dbSize) const
{
    if (keysPerSecond <= 0 || dbSize < 0)
        return -1;
    return (dbSize + keysPerSecond - 1) / keysPerSecond;
}

QString ScanPace::describeFor(qint64 dbSize) const
{
    const qint64 seconds = expectedSeconds(dbSize);
    if (seconds < 0)
        return describe();
    return QStringLiteral("%1; about %2 s for %3 keys")
        .arg(describe(), QLocale().toString(seconds), QLocale().toString(dbSize));
}

std::optional<ScanPace> parseScanRate(const QString &text, QString *error)
{
    if (text == QLatin1String("unlimited"))
        return ScanPace::fast();
    bool digits = !text.isEmpty() && text.size() <= 9;
    for (const QChar c : text)
        digits = digits && c >= QLatin1Char('0') && c <= QLatin1Char('9');
    const qint64 rate = digits ? text.toLongLong() : 0;
    if (rate < ScanPace::MinKeysPerSecond || rate > ScanPace::MaxKeysPerSecond) {
        *error = QStringLiteral("--scan-rate: give keys per second from %1 to %2 (e.g. %3), or "
                                "'unlimited' for a fast scan")
                     .arg(ScanPace::MinKeysPerSecond)
                     .arg(ScanPace::MaxKeysPerSecond)
                     .arg(ScanPace::DefaultGentleKeysPerSecond);
        return std::nullopt;
    }
    return ScanPace::gentle(rate);
}

} // namespace browse
