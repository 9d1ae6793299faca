// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>

namespace sentinel {

// host:port of a sentinel or of a data node it names, as written or as announced.
struct NodeAddress
{
    QString host;
    quint16 port = 0;

    // "host:port", or "[v6]:port" for an IPv6 address.
    QString toString() const;
    bool operator==(const NodeAddress &) const = default;
};

// "a:1, b:2": a list of addresses for messages.
QString joinAddresses(const QList<NodeAddress> &addresses);

} // namespace sentinel
