#pragma once

#include "AuditLog.h"
#include "DeductionRequest.h"
#include "KeySchema.h"

#include <QString>
#include <QStringList>

namespace inventory {

// What a deduction needs to know about the session it runs in. The GUI builds it from the
// connection profile, the CLI from its options.
struct DeductionContext
{
    KeySchema schema;                                    // the profile's key templates
    qint64 defaultTtlSeconds = DefaultReceiptTtlSeconds; // the profile's receipt TTL
    QString profileName;                                 // recorded in the audit log
    QString serverAddress;                               // host:port, recorded in the audit log
    QString auditLogPath = AuditLog::defaultPath();      // shared by the GUI and the CLI
    int timeoutMs = 5000; // the write's timeout; no reply by then is "outcome unknown"
    // redis-cli options reaching the same server, for "Copy as redis-cli command"
    // (see redisCliConnectionArgs); empty: -h/-p from serverAddress.
    QStringList redisCliArgs;

    QStringList effectiveRedisCliArgs() const;
};

} // namespace inventory
