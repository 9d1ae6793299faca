// SPDX-License-Identifier: GPL-3.0-or-later
// The rules read from CONFIG GET, INFO and ACL DRYRUN on one primary (Rules.cpp runs them on
// every primary of a cluster).
#include "Rules.h"

#include <QCoreApplication>

namespace readiness {

namespace {

// The sentences the Readiness tab shows are translated there; the CLI installs no translator
// and prints the English (its report and --json).
struct ConfigRulesText
{
    Q_DECLARE_TR_FUNCTIONS(readiness::Rules)
};

// The parameter's value, recorded as evidence; nullopt (and "could not check") when CONFIG
// GET was refused or the server does not have the parameter.
std::optional<QString> param(const AuditInput &in, const char *name, Finding &out)
{
    const QString key = QString::fromLatin1(name);
    if (!in.server.config.ok()) {
        conclude(out, Verdict::CouldNotCheck, in.server.config.missing);
        return std::nullopt;
    }
    const auto it = in.server.config.value->constFind(key);
    if (it == in.server.config.value->constEnd()) {
        conclude(out, Verdict::CouldNotCheck,
                 ConfigRulesText::tr("the server has no parameter %1 (Redis 7 or later has it)")
                     .arg(key));
        return std::nullopt;
    }
    out.evidence << qMakePair(key, it->isEmpty() ? QStringLiteral("''") : *it);
    return *it;
}

QByteArray info(const Read<QHash<QByteArray, QByteArray>> &read, const char *field, Finding &out)
{
    const QByteArray v = read.value->value(field);
    out.evidence << qMakePair(QString::fromLatin1(field), QString::fromUtf8(v));
    return v;
}

} // namespace

void checkEviction(const AuditInput &in, Finding &out)
{
    const auto policy = param(in, "maxmemory-policy", out);
    if (!policy)
        return;
    param(in, "maxmemory", out);
    if (*policy == QLatin1String("noeviction"))
        conclude(
            out, Verdict::Pass,
            ConfigRulesText::tr("noeviction: when memory is full Redis refuses writes instead of "
                                "deleting keys, so no receipt disappears before its TTL."));
    else if (policy->startsWith(QLatin1String("allkeys-")))
        conclude(out, Verdict::Fail,
                 ConfigRulesText::tr("%1 lets Redis delete any key when memory is full, receipts "
                                     "included, and a retry of an evicted receipt's order deducts "
                                     "again: set maxmemory-policy noeviction.")
                     .arg(*policy));
    else if (policy->startsWith(QLatin1String("volatile-")))
        conclude(
            out, Verdict::Fail,
            ConfigRulesText::tr("%1 evicts keys that have a TTL, and receipts are exactly those "
                                "keys, so they go first and a retry deducts again: set "
                                "maxmemory-policy noeviction.")
                .arg(*policy));
    else
        conclude(
            out, Verdict::Warn,
            ConfigRulesText::tr("unknown policy %1: check that it never evicts keys with a TTL, "
                                "or set maxmemory-policy noeviction.")
                .arg(*policy));
}

void checkPersistence(const AuditInput &in, Finding &out)
{
    const auto aof = param(in, "appendonly", out);
    if (!aof)
        return;
    const auto fsync = param(in, "appendfsync", out);
    const auto save = param(in, "save", out);
    if (!fsync || !save)
        return;
    if (in.server.persistence.ok()) {
        const QByteArray aofStatus = info(in.server.persistence, "aof_last_write_status", out);
        const QByteArray rdbStatus = info(in.server.persistence, "rdb_last_bgsave_status", out);
        if (aofStatus == "err" || rdbStatus == "err")
            return conclude(out, Verdict::Fail,
                            aofStatus == "err"
                                ? ConfigRulesText::tr("the server's last AOF write failed, so "
                                                      "recent receipts may exist only in memory: "
                                                      "read the server log (disk full, "
                                                      "permissions) and fix it.")
                                : ConfigRulesText::tr("the server's last RDB snapshot failed, so "
                                                      "recent receipts may exist only in memory: "
                                                      "read the server log (disk full, "
                                                      "permissions) and fix it."));
    }
    if (*aof == QLatin1String("yes")) {
        if (*fsync == QLatin1String("no"))
            return conclude(
                out, Verdict::Warn,
                ConfigRulesText::tr("AOF is on but appendfsync no leaves flushing to the "
                                    "OS: a crash can lose tens of seconds of receipts, and "
                                    "retries of those orders deduct again: set "
                                    "appendfsync everysec."));
        return conclude(out, Verdict::Pass,
                        ConfigRulesText::tr("AOF is on with appendfsync %1: a restart keeps the "
                                            "receipts (at most about a second lost with everysec).")
                            .arg(*fsync));
    }
    if (!save->trimmed().isEmpty())
        return conclude(
            out, Verdict::Warn,
            ConfigRulesText::tr("RDB snapshots only: a crash loses every receipt written "
                                "since the last snapshot, and retries of those orders "
                                "deduct again: set appendonly yes (appendfsync "
                                "everysec)."));
    conclude(
        out, Verdict::Fail,
        ConfigRulesText::tr("no persistence (appendonly no, save ''): a restart loses every "
                            "receipt and every stock value: set appendonly yes with appendfsync "
                            "everysec."));
}

void checkReplication(const AuditInput &in, Finding &out)
{
    const auto minReplicas = param(in, "min-replicas-to-write", out);
    if (!minReplicas)
        return;
    param(in, "min-replicas-max-lag", out);
    if (!in.server.replication.ok())
        return conclude(out, Verdict::CouldNotCheck, in.server.replication.missing);
    const QByteArray role = info(in.server.replication, "role", out);
    const int connected = info(in.server.replication, "connected_slaves", out).toInt();
    const int needed = minReplicas->toInt();
    if (role != "master")
        return conclude(
            out, Verdict::Warn,
            ConfigRulesText::tr("this node is a %1, not a primary: run the audit against "
                                "the primary, where deductions are written.")
                .arg(QString::fromUtf8(role)));
    if (needed > connected)
        return conclude(out, Verdict::Fail,
                        ConfigRulesText::tr("min-replicas-to-write is %1 but %2 replica(s) are "
                                            "connected, so the primary refuses every deduction "
                                            "(NOREPLICAS): connect the replicas or lower the "
                                            "setting.")
                            .arg(needed)
                            .arg(connected));
    if (connected == 0)
        return conclude(
            out, Verdict::Warn,
            ConfigRulesText::tr("no replica is connected: losing this server loses every "
                                "receipt: add a replica and set min-replicas-to-write "
                                "1."));
    if (needed == 0)
        return conclude(
            out, Verdict::Warn,
            ConfigRulesText::tr("%1 replica(s) connected, but min-replicas-to-write is 0: "
                                "a deduction acknowledged just before a failover can be "
                                "missing on the new primary, receipt and all: set "
                                "min-replicas-to-write 1.")
                .arg(connected));
    conclude(out, Verdict::Pass,
             ConfigRulesText::tr("%1 replica(s) connected and writes need %2: an acknowledged "
                                 "deduction is on a replica too.")
                 .arg(connected)
                 .arg(needed));
}

void checkBusyThreshold(const AuditInput &in, Finding &out)
{
    const auto threshold = param(in, "busy-reply-threshold", out);
    if (!threshold)
        return;
    const int clientMs = in.settings.clientTimeoutMs;
    out.evidence << qMakePair(ConfigRulesText::tr("client timeout (ms)"),
                              QString::number(clientMs));
    const qint64 ms = threshold->toLongLong();
    if (ms < clientMs)
        return conclude(
            out, Verdict::Pass,
            ConfigRulesText::tr("a function running longer than %1 ms makes the server "
                                "answer BUSY (nothing ran) before clients time out after "
                                "%2 ms.")
                .arg(ms)
                .arg(clientMs));
    conclude(
        out, Verdict::Warn,
        ConfigRulesText::tr("busy-reply-threshold %1 ms is not below the client timeout %2 ms: "
                            "behind a slow function, callers time out with the outcome unknown "
                            "before the server would answer BUSY: set busy-reply-threshold below "
                            "%2 (e.g. 1000).")
            .arg(ms)
            .arg(clientMs));
}

void checkLoadPermission(const AuditInput &in, Finding &out)
{
    const QString &user = in.server.user;
    out.evidence << qMakePair(ConfigRulesText::tr("user"), user);
    if (!in.server.mayLoad.ok())
        return conclude(out, Verdict::CouldNotCheck, in.server.mayLoad.missing);
    out.evidence << qMakePair(QStringLiteral("ACL DRYRUN FUNCTION LOAD"),
                              *in.server.mayLoad.value ? ConfigRulesText::tr("allowed")
                                                       : in.server.loadDenial);
    if (*in.server.mayLoad.value)
        return conclude(out, Verdict::Fail,
                        ConfigRulesText::tr("user '%1', who calls the deduct functions, may also "
                                            "replace them with FUNCTION LOAD: load libraries as a "
                                            "separate release user and take that right from '%1' "
                                            "(ACL SETUSER %1 -function|load "
                                            "-function|restore -function|delete -function|flush).")
                            .arg(user));
    conclude(
        out, Verdict::Pass,
        ConfigRulesText::tr("user '%1' may not load libraries: only a release user can replace "
                            "the deduct functions.")
            .arg(user));
}

} // namespace readiness
