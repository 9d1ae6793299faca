// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTcpServer>

namespace testsupport {

// A loopback port that was just given back: nothing listens there, so a connection to it is
// refused at once (0 when no port could be had).
inline quint16 closedPort()
{
    QTcpServer s;
    if (!s.listen(QHostAddress::LocalHost))
        return 0;
    const quint16 port = s.serverPort();
    s.close();
    return port;
}

} // namespace testsupport
