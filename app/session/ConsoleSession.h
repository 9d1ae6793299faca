#pragma once

#include "ConnectionProfile.h"
#include "GatedSender.h"
#include "WriteGate.h"
#include "inventory/KeySchema.h"
#include "redis/RedisClient.h"

#include <QObject>
#include <memory>

namespace session {

// Everything one console window works with for one server: the profile, the connection, and
// the write gate every feature sends through. Reads that can never write (the overview)
// may use client() directly; anything else uses sender().
class ConsoleSession : public QObject
{
    Q_OBJECT
public:
    ConsoleSession(ConnectionProfile profile, const QString &password, QString releasePassword = {},
                   QObject *parent = nullptr);
    ~ConsoleSession() override;

    const ConnectionProfile &profile() const { return m_profile; }
    Environment environment() const;
    redis::RedisClient &client() { return *m_client; }
    WriteGate &gate() { return *m_gate; }
    redis::CommandSender &sender() { return *m_sender; }
    inventory::KeySchema schema() const { return m_schema; }
    // The release user's own connection for library loads, opened on first use; nullptr
    // when the profile names no release user (loads then use the main connection).
    redis::RedisClient *releaseClient();
    QString auditLogPath() const { return m_auditLogPath; }
    void setAuditLogPath(const QString &path) { m_auditLogPath = path; }

private:
    ConnectionProfile m_profile;
    QString m_releasePassword;
    std::unique_ptr<redis::RedisClient> m_client;
    std::unique_ptr<redis::RedisClient> m_releaseClient;
    WriteGate *m_gate = nullptr;
    GatedSender *m_sender = nullptr;
    inventory::KeySchema m_schema;
    QString m_auditLogPath;
};

} // namespace session
