// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "redis/TransportThread.h"

#include <QObject>
#include <QSemaphore>
#include <QThread>

namespace testsupport {

// Keeps the shared transport thread busy for as long as it lives, so that a test can show
// that a client answers without it (a socket read on the caller's thread).
class TransportThreadHold
{
public:
    TransportThreadHold()
    {
        // Made here, used and deleted there.
        auto *onTransport = new QObject;
        onTransport->moveToThread(redis::transport::thread());
        QMetaObject::invokeMethod(onTransport, [this, onTransport] {
            m_held.release();
            m_release.acquire();
            onTransport->deleteLater();
            m_done.release();
        });
        m_held.acquire();
    }
    ~TransportThreadHold()
    {
        m_release.release();
        m_done.acquire(); // the held call no longer needs this object
    }
    TransportThreadHold(const TransportThreadHold &) = delete;
    TransportThreadHold &operator=(const TransportThreadHold &) = delete;

private:
    QSemaphore m_held, m_release, m_done;
};

} // namespace testsupport
