// SPDX-License-Identifier: GPL-3.0-or-later
// WriteGate: unlocking production writes, and every way the unlock ends. Both are audit
// records: who (the OS user), which profile, which server (address and run_id), when.
#include "WriteGate.h"

#include "GateLog.h"
#include "inventory/AuditLog.h"
#include "redis/RedisClient.h"

#include <QCoreApplication>
#include <QTimer>

namespace gate {

core::Sentence WriteGate::record(const QString &action, const QString &result,
                                 const QString &detail) const
{
    inventory::AuditRecord r;
    r.action = action;
    r.profile = m_profileName;
    r.server = m_seed ? m_seed->address() : m_server.address();
    r.runId = m_evidence.runId;
    r.result = result;
    r.detail = detail;
    const auto appended = inventory::AuditLog(m_auditLogPath).append(r);
    return appended.ok() ? core::Sentence() : appended.error();
}

bool WriteGate::unlock(const QString &typedName)
{
    m_unlockError.clear();
    if (typedName != m_profileName || m_profileName.isEmpty()) {
        m_unlockError = tr("that is not this profile's name");
        return false;
    }
    if (m_unlocked)
        return true;
    // An unlock nobody can trace is not given.
    const core::Sentence failure = record(
        QStringLiteral("unlock"), QStringLiteral("writes unlocked"),
        QStringLiteral("%1; %2").arg(environment(), environmentReason(core::Wording::English)));
    if (!failure.isEmpty()) {
        m_unlockError = tr("the unlock could not be recorded in the audit log (%1): writes stay "
                           "locked")
                            .arg(failure.text);
        return false;
    }
    m_unlocked = true;
    m_unlockRunId = m_evidence.runId;
    m_unlockRole = m_evidence.role;
    m_lockReason = {};
    qCWarning(lcGate) << "writes unlocked for this session on" << environment() << "profile"
                      << m_profileName << "server run_id" << m_unlockRunId;
    touchIdle();
    emit readOnlyChanged(isReadOnly());
    return true;
}

void WriteGate::lock(const core::Sentence &reason)
{
    if (!m_unlocked)
        return;
    m_unlocked = false;
    m_idle->stop();
    m_lockReason = reason;
    // Locking needs no trace to be safe: it goes ahead, and the log says why none was kept.
    const core::Sentence failure =
        record(QStringLiteral("lock"), QStringLiteral("writes locked again"),
               reason.isEmpty() ? QStringLiteral("locked by the user") : reason.english);
    if (!failure.isEmpty())
        qCWarning(lcGate) << "the lock could not be recorded in the audit log:" << failure.english;
    qCInfo(lcGate) << "session on profile" << m_profileName << "is locked again"
                   << (reason.isEmpty() ? QStringLiteral("by the user") : reason.english);
    emit readOnlyChanged(isReadOnly());
}

void WriteGate::observeServer(const QString &runId, const QString &role)
{
    if (!m_unlocked || runId.isEmpty())
        return;
    if (m_unlockRunId.isEmpty()) { // unlocked before the identity was read: this is it
        m_unlockRunId = runId;
        m_unlockRole = role;
        return;
    }
    if (runId != m_unlockRunId)
        lock(core::Sentence::translated(
                 "gate::WriteGate",
                 QT_TRANSLATE_NOOP("gate::WriteGate",
                                   "locked again: the server's run_id changed from %1 to %2 (a "
                                   "restart, or another server behind the address); unlock "
                                   "again for this one"))
                 .arg(m_unlockRunId, runId));
    else if (!role.isEmpty() && !m_unlockRole.isEmpty() && role != m_unlockRole)
        lock(core::Sentence::translated("gate::WriteGate",
                                        QT_TRANSLATE_NOOP("gate::WriteGate",
                                                          "locked again: the server's role "
                                                          "changed from %1 to %2 (a failover)"))
                 .arg(m_unlockRole, role));
}

void WriteGate::setIdleTimeoutMs(int ms)
{
    m_idleTimeoutMs = ms;
    touchIdle();
}

void WriteGate::touchIdle()
{
    if (m_unlocked && m_idleTimeoutMs > 0)
        m_idle->start(m_idleTimeoutMs);
}

} // namespace gate
