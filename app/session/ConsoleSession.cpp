#include "ConsoleSession.h"

#include "inventory/AuditLog.h"

namespace session {

ConsoleSession::ConsoleSession(ConnectionProfile profile, const QString &password,
                               QString releasePassword, QObject *parent)
    : QObject(parent)
    , m_profile(std::move(profile))
    , m_releasePassword(std::move(releasePassword))
    , m_client(std::make_unique<redis::RedisClient>(m_profile.toConnectionOptions(password)))
    , m_auditLogPath(inventory::AuditLog::defaultPath())
{
    m_gate = new WriteGate(*m_client, m_profile, this);
    m_sender = new GatedSender(*m_client, *m_gate, this);
    // The profile store validated the templates; a bad pair falls back to the defaults
    // rather than producing keys nobody asked for.
    auto schema = inventory::KeySchema::fromTemplates(m_profile.stockKeyTemplate,
                                                      m_profile.receiptKeyTemplate);
    if (schema.ok())
        m_schema = schema.value();
}

ConsoleSession::~ConsoleSession()
{
    // The gate and sender hold references to the client: they go first.
    delete m_sender;
    delete m_gate;
}

Environment ConsoleSession::environment() const
{
    return m_profile.environmentKind().value_or(Environment::Production);
}

redis::RedisClient *ConsoleSession::releaseClient()
{
    if (m_profile.releaseUsername.isEmpty())
        return nullptr;
    if (!m_releaseClient) {
        m_releaseClient = std::make_unique<redis::RedisClient>(
            m_profile.toReleaseConnectionOptions(m_releasePassword));
        m_releaseClient->open();
    }
    return m_releaseClient.get();
}

} // namespace session
