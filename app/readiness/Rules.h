// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Finding.h"
#include "KeyspaceFacts.h"
#include "ServerRead.h"

namespace functions {
class LocalCatalog;
}

namespace readiness {

// What the audit is measured against.
struct AuditSettings
{
    static constexpr qint64 DefaultRetryWindowSeconds = 300; // the key browser's "expires soon"
    qint64 retryWindowSeconds = DefaultRetryWindowSeconds;
    qint64 receiptTtlSeconds = 604800; // the TTL the profile writes receipts with
    int clientTimeoutMs = 5000;        // the profile's command timeout
};

// Everything the rules read. `servers` and `nodes` hold every primary's configuration and
// libraries, in the router's order of primaries (`server` is the first); a rule that reads `server`
// is run once per primary (Rule::perServer) with `server` set to each in turn. `keyspace` is empty
// when the caller chose not to scan (the receipt and stock rules are then left out, not failed).
struct AuditInput
{
    ServerRead server;
    QList<ServerRead> servers;
    QList<NodeLibraries> nodes;
    std::optional<KeyspaceFacts> keyspace;
    AuditSettings settings;
    const functions::LocalCatalog *catalog = nullptr; // shipped and previous releases, scanned
};

// One rule: fills verdict, why and evidence; the table sets id and title.
using RuleCheck = void (*)(const AuditInput &in, Finding &out);
struct Rule
{
    const char *id;
    const char *title;
    RuleCheck check;
    bool needsKeyspace = false;
    // Reads `server`: on a cluster, checked on every primary, and the worst verdict stands,
    // naming the primaries it came from (one primary evicting keys is enough to lose stock).
    bool perServer = false;
};

// The rules, in the order the report lists them.
const QList<Rule> &rules();
QList<Finding> evaluate(const AuditInput &in);

// ConfigRules.cpp
void checkEviction(const AuditInput &in, Finding &out);
void checkPersistence(const AuditInput &in, Finding &out);
void checkReplication(const AuditInput &in, Finding &out);
void checkBusyThreshold(const AuditInput &in, Finding &out);
void checkLoadPermission(const AuditInput &in, Finding &out);
// LibraryRules.cpp
void checkLibraryRelease(const AuditInput &in, Finding &out);
void checkDeductWrites(const AuditInput &in, Finding &out);
void checkLibraryDrift(const AuditInput &in, Finding &out);
// KeyspaceRules.cpp
void checkReceiptTtl(const AuditInput &in, Finding &out);
void checkReceiptsWithoutTtl(const AuditInput &in, Finding &out);
void checkStockValues(const AuditInput &in, Finding &out);

// Sets a verdict and its sentence in one line.
inline void conclude(Finding &f, Verdict v, const QString &why)
{
    f.verdict = v;
    f.why = why;
}

} // namespace readiness
