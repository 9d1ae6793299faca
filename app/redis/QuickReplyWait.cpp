// SPDX-License-Identifier: GPL-3.0-or-later
#include "QuickReplyWait.h"

#include <QElapsedTimer>

#include <poll.h>

namespace redis {

bool QuickReplyWait::wait(int fd)
{
    if (m_budgetUs <= 0 || fd < 0)
        return false;
    if (m_skip > 0) {
        --m_skip;
        return false;
    }
    QElapsedTimer spent;
    spent.start();
    pollfd p{fd, POLLIN, 0};
    do {
        if (::poll(&p, 1, 0) != 0)
            return true; // readable, closed or failed: the event loop takes it from here
    } while (spent.nsecsElapsed() < m_budgetUs * 1000LL);
    m_skip = SkipAfterMiss;
    return false;
}

} // namespace redis
