#include "DeductionContext.h"

namespace inventory {

QStringList DeductionContext::effectiveRedisCliArgs() const
{
    if (!redisCliArgs.isEmpty())
        return redisCliArgs;
    // "host:port" or "[v6]:port".
    const qsizetype colon = serverAddress.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0)
        return {};
    QString host = serverAddress.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    return {QStringLiteral("-h"), host, QStringLiteral("-p"), serverAddress.mid(colon + 1)};
}

} // namespace inventory
