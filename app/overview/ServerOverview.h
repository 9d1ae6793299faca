// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Wording.h"
#include "overview/ServerIdentity.h"
#include "redis/CommandSender.h"
#include "redis/LibraryList.h"

#include <QDateTime>
#include <QHash>
#include <QStringList>
#include <functional>
#include <optional>

namespace overview {

// What the status bar and the overview panel show about one server.
struct ServerOverview
{
    QString address;
    ServerIdentity server; // product, version, mode
    QString role;          // master | slave (as INFO says); shown as primary/replica
    QString runId;
    qint64 uptimeSeconds = 0;
    std::optional<bool> aofEnabled; // INFO persistence
    qint64 usedMemory = 0;          // bytes
    qint64 maxMemory = 0;           // bytes; 0 means no limit
    QString evictionPolicy;         // empty when CONFIG GET is not allowed for this user
    qint64 keyCount = -1;           // DBSIZE of the selected database
    QList<redis::LibraryInfo> libraries;
    QString librariesError; // set when FUNCTION LIST failed (e.g. NOPERM)
    // The ACL user the reads ran as ("default" when the profile names none).
    QString user;
    // The reads this user may not run (NOPERM), as commands: "INFO", "DBSIZE",
    // "CONFIG GET", "FUNCTION LIST". What they would have filled stays unknown.
    QStringList deniedReads;

    QString roleLabel() const; // primary / replica
    // Receipts have TTLs, so volatile-* policies may evict them too: the window of
    // protection against a double deduction can end early.
    bool evictionCanDropReceipts() const;
    bool denied(const QString &read) const { return deniedReads.contains(read); }
    // One sentence for the overview, or empty: "User 'support' may not run INFO, DBSIZE ...
    // (NOPERM): what they show is unknown."
    QString deniedSummary() const;
};

// When `current` is another server process than `previous` (its run_id changed), one sentence
// saying so and what it means for receipts; empty otherwise or when either run_id is unknown.
// Behind the same address it is a restart or another server put there; at another address
// the session was moved (a failover named a new primary), which keeps what was replicated.
QString identityChangeSentence(const ServerOverview &previous, const ServerOverview &current,
                               const QDateTime &now);
enum class IdentityChange { None, Restarted, Moved };
IdentityChange identityChange(const ServerOverview &previous, const ServerOverview &current);

// Parses INFO's "field:value" lines (all sections).
QHash<QByteArray, QByteArray> parseInfo(const QByteArray &info);

// The commands one overview needs, sent as a single round trip.
QList<redis::Command> overviewCommands();
// A read refused with NOPERM is recorded in deniedReads, not a failure: a user allowed only
// FCALL still gets an overview that says what it may not see. Any other error on INFO fails.
core::Result<ServerOverview, redis::RedisError> decodeOverview(const QList<redis::ReplyResult> &r);

// Fetches an overview as `user` (recorded in it; the sender's connection decides who it is);
// the callback runs on the context's thread.
void fetchOverview(redis::CommandSender &sender, QObject *context,
                   std::function<void(const core::Result<ServerOverview, redis::RedisError> &)> cb,
                   const QString &user = {});

QString formatBytes(qint64 bytes);
// "6 d 23 h", "5 min 3 s"; English by default, Wording::Translated for the window.
QString formatDuration(qint64 seconds, core::Wording wording = core::Wording::English);

} // namespace overview
