#include "Rules.h"

namespace readiness {

const QList<Rule> &rules()
{
    static const QList<Rule> table{
        {"eviction-policy", "Eviction policy", &checkEviction},
        {"persistence", "Persistence", &checkPersistence},
        {"replication", "Replication", &checkReplication},
        {"busy-reply-threshold", "Busy script threshold", &checkBusyThreshold},
        {"library-release", "Loaded library is a shipped release", &checkLibraryRelease},
        {"deduct-writes", "Deduct functions may write", &checkDeductWrites},
        {"library-drift", "Same library on every primary", &checkLibraryDrift},
        {"load-permission", "Calling user cannot load libraries", &checkLoadPermission},
        {"receipt-ttl", "Receipt TTLs cover the retry window", &checkReceiptTtl, true},
        {"receipts-without-ttl", "Receipts without a TTL", &checkReceiptsWithoutTtl, true},
        {"stock-values", "Stock values are canonical, not negative", &checkStockValues, true},
    };
    return table;
}

QList<Finding> evaluate(const AuditInput &in)
{
    QList<Finding> out;
    for (const Rule &rule : rules()) {
        if (rule.needsKeyspace && !in.keyspace)
            continue;
        Finding f;
        f.id = QString::fromLatin1(rule.id);
        f.title = QString::fromLatin1(rule.title);
        rule.check(in, f);
        out << f;
    }
    return out;
}

} // namespace readiness
