// SPDX-License-Identifier: GPL-3.0-or-later
#include "PreWriteErrors.h"

#include <QStringList>

namespace inventory {

bool isPreWriteRefusal(const QString &message)
{
    // Raised inside a running function or script: Redis appends where it came from.
    if (message.contains(QLatin1String(" script: ")))
        return false;
    // The contracts' refusals (functions/inventory_lib_v1.lua, stock_decrement.lua), whole.
    static const QStringList contract{
        QStringLiteral("ERR invalid quantity"),
        QStringLiteral("ERR invalid ttl"),
        QStringLiteral("ERR invalid stock"),
        QStringLiteral("ERR invalid receipt"),
        QStringLiteral("ERR expected two keys (stock, receipt) and two arguments (quantity, ttl)"),
        QStringLiteral("ERR expected one key and one quantity"),
        // The repair functions (1.3.0).
        QStringLiteral("ERR invalid delta"),
        QStringLiteral("ERR invalid release"),
        QStringLiteral("ERR invalid adjustment"),
        QStringLiteral("ERR expected three keys (stock, receipt, release) and two arguments "
                       "(quantity, ttl)"),
        QStringLiteral("ERR expected two keys (stock, adjustment) and two arguments (delta, ttl)"),
    };
    if (contract.contains(message))
        return true;
    // Redis's answers before the call runs. NOPERM also covers 1.2.0's (and the repairs') own
    // permission check
    // ("NOPERM this user may not run SET ...; nothing was written"); a permission error
    // inside a call reads "ERR The user executing the script can't run ..." instead.
    static const QStringList codes{
        QStringLiteral("NOPERM"),    QStringLiteral("NOSCRIPT"),    QStringLiteral("BUSY"),
        QStringLiteral("READONLY"),  QStringLiteral("LOADING"),     QStringLiteral("MASTERDOWN"),
        QStringLiteral("MOVED"),     QStringLiteral("ASK"),         QStringLiteral("TRYAGAIN"),
        QStringLiteral("CROSSSLOT"), QStringLiteral("CLUSTERDOWN"), QStringLiteral("OOM"),
        QStringLiteral("NOAUTH"),    QStringLiteral("NOREPLICAS"),
    };
    if (codes.contains(message.section(QLatin1Char(' '), 0, 0)))
        return true;
    static const QStringList beforeRun{
        QStringLiteral("ERR Function not found"),
        QStringLiteral("ERR Number of keys can't be greater than number of args"),
        QStringLiteral("ERR Number of keys can't be negative"),
        QStringLiteral("ERR Bad number of keys provided"),
        QStringLiteral("ERR value is not an integer or out of range"),
        QStringLiteral("ERR unknown command"),
        QStringLiteral("ERR wrong number of arguments"),
    };
    for (const QString &prefix : beforeRun)
        if (message.startsWith(prefix))
            return true;
    return false;
}

} // namespace inventory
