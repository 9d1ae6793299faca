// SPDX-License-Identifier: GPL-3.0-or-later
#include "NodeAddress.h"

#include <QStringList>

namespace sentinel {

QString NodeAddress::toString() const
{
    const QString shown = host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host;
    return QStringLiteral("%1:%2").arg(shown).arg(port);
}

QString joinAddresses(const QList<NodeAddress> &addresses)
{
    QStringList parts;
    for (const NodeAddress &a : addresses)
        parts << a.toString();
    return parts.join(QStringLiteral(", "));
}

} // namespace sentinel
