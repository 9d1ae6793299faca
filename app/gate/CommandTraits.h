// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Wording.h"
#include "redis/LibraryList.h"
#include "redis/RespCodec.h"

#include <QHash>
#include <QSet>
#include <optional>

namespace gate {

// Whether one command writes, and why the gate thinks so.
struct WriteDecision
{
    bool writes = true;
    // "SET has the 'write' flag", "inventory_deduct_v1 has no 'no-writes' flag": it ends up in a
    // refusal the window shows and the audit log records, so in both copies.
    core::Sentence reason;
    // FCALL of a function flagged no-writes: the gate sends it as FCALL_RO, so that the
    // server itself refuses should the function have been replaced by one that writes.
    bool sendAsReadOnlyCall = false;
};

// What the server says about commands (COMMAND INFO) and functions (FUNCTION LIST), cached
// per connection, and the rules that turn that into a WriteDecision:
// - "write" flag: writes. "admin" flag: counts as a write (CONFIG SET, ACL SETUSER,
//   SHUTDOWN...) unless it is a known read-only admin command (CONFIG GET, ACL LIST, ...).
// - a command the server does not know: treated as a write.
// - FCALL: writes unless FUNCTION LIST flags the function no-writes. FCALL_RO, EVAL_RO and
//   EVALSHA_RO are read-only (the server enforces it). EVAL and EVALSHA: writes.
class CommandTraits
{
public:
    // "set", "config|get": the name COMMAND INFO uses for this command (lower case).
    static QByteArray commandName(const redis::Command &command);
    // "set", "config": the name to ask COMMAND INFO about.
    static QByteArray topLevelName(const redis::Command &command);

    // What must be fetched before every command of the batch can be decided.
    QList<QByteArray> missingCommandInfo(const QList<redis::Command> &commands) const;
    bool needsFunctionList(const QList<redis::Command> &commands) const;

    // Merges a COMMAND INFO reply for these top-level names (same order as asked).
    void addCommandInfo(const QList<QByteArray> &names, const redis::Reply &reply);
    void setFunctions(const QList<redis::LibraryInfo> &libraries);
    void forgetFunctions() { m_functionsKnown = false; }

    // nullopt when something the decision needs is not cached yet.
    std::optional<WriteDecision> decideCached(const redis::Command &command) const;
    // After a fetch: always decides. `lookupFailure` (when not empty) says why missing facts
    // could not be fetched; such commands are decided without them (a short built-in list
    // of reads, everything else a write).
    WriteDecision decideAfterLookup(const redis::Command &command,
                                    const QString &lookupFailure) const;

    // Known to the console as a read whatever the server says: a short built-in list (GET,
    // SCAN, INFO, CONFIG GET, ...) and the *_RO script calls, which the server enforces. What a
    // view that only reads may send (ReadOnlySender); everything else is refused there.
    static bool isKnownRead(const redis::Command &command);

    // FUNCTION LOAD, DELETE, FLUSH and RESTORE change what FCALL runs.
    static bool changesFunctions(const redis::Command &command);

private:
    struct Info
    {
        bool exists = false;
        QSet<QByteArray> flags;
        QHash<QByteArray, QSet<QByteArray>> subcommands; // "config|get" -> flags
    };
    std::optional<WriteDecision> decide(const redis::Command &command, bool final,
                                        const QString &lookupFailure) const;
    std::optional<WriteDecision> decideFcall(const redis::Command &command, bool final,
                                             const QString &lookupFailure) const;
    QHash<QByteArray, Info> m_commands;       // by top-level name
    QHash<QByteArray, bool> m_functionWrites; // lower-case function name -> writes
    bool m_functionsKnown = false;
};

} // namespace gate
