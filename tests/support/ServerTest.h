// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The members and the start-up that tests against one standalone server share, so that each
// test file says only what is particular to it.
#include "RedisFixture.h"
#include "gate/WriteGate.h"

#include <QObject>
#include <QTemporaryDir>
#include <memory>

namespace testsupport {

class ServerTest : public QObject
{
protected:
    StandaloneRedis m_redis;
    std::unique_ptr<redis::RedisClient> m_c; // declared after m_redis: closed before it stops

    // Starts the server and connects m_c; with `library`, loads that file of functions/.
    // Empty when ready, else what failed: QCOMPARE(startServer(), QString()) names it.
    QString startServer(const QString &library = {})
    {
        if (!m_redis.start())
            return m_redis.errorString();
        m_c = m_redis.connect();
        if (m_c->state() != redis::ConnectionState::Ready)
            return QStringLiteral("the client did not connect to %1").arg(m_c->address());
        if (!library.isEmpty()) {
            const redis::ReplyResult r =
                m_c->call({"FUNCTION", "LOAD", "REPLACE", functionSource(library)});
            if (!r.ok())
                return QStringLiteral("FUNCTION LOAD %1: %2")
                    .arg(library, r.error().message.english);
        }
        return {};
    }
};

// The library-change tests add the session's write gate and a directory for backups and the
// audit log.
class ChangeTest : public ServerTest
{
protected:
    std::unique_ptr<gate::WriteGate> m_gate;
    QTemporaryDir m_dir;

    QString startServer(const QString &library = {})
    {
        if (!m_dir.isValid())
            return QStringLiteral("no temporary directory: %1").arg(m_dir.errorString());
        return ServerTest::startServer(library);
    }
    // The server, and a write gate on it for a profile of this name labelled local.
    QString startServerWithLocalGate(const QString &profileName)
    {
        if (QString why = startServer(); !why.isEmpty())
            return why;
        profiles::ConnectionProfile p;
        p.name = profileName;
        p.environment = QStringLiteral("local");
        m_gate = std::make_unique<gate::WriteGate>(*m_c, p);
        return {};
    }
};

} // namespace testsupport
