// SPDX-License-Identifier: GPL-3.0-or-later
#include "CommandTraits.h"

namespace gate {

namespace {

// Admin commands that only read. Any other admin command counts as a write.
const QSet<QByteArray> &readOnlyAdmin()
{
    static const QSet<QByteArray> names{
        "config|get",
        "acl|list",
        "acl|users",
        "acl|getuser",
        "acl|cat",
        "acl|dryrun",
        "acl|log",
        "acl|whoami",
        "acl|genpass",
        "client|list",
        "client|info",
        "client|getname",
        "client|id",
        "slowlog|get",
        "slowlog|len",
        "latency|latest",
        "latency|history",
        "latency|doctor",
        "latency|graph",
        "latency|histogram",
        "memory|usage",
        "memory|stats",
        "memory|doctor",
        "memory|malloc-stats",
        "cluster|info",
        "cluster|nodes",
        "cluster|shards",
        "cluster|slots",
        "cluster|myid",
        "cluster|keyslot",
        "cluster|countkeysinslot",
        "cluster|getkeysinslot",
        "cluster|links",
        "info",
        "lastsave",
        "command",
        "function|list",
        "function|stats",
        "function|dump",
        "script|exists",
    };
    return names;
}

// Used only when COMMAND INFO could not be fetched (an ACL user without it, say).
const QSet<QByteArray> &builtinReads()
{
    static const QSet<QByteArray> names{
        "ping",
        "echo",
        "get",
        "mget",
        "strlen",
        "getrange",
        "exists",
        "type",
        "ttl",
        "pttl",
        "expiretime",
        "pexpiretime",
        "scan",
        "dbsize",
        "info",
        "hget",
        "hgetall",
        "hmget",
        "hlen",
        "scard",
        "zcard",
        "xlen",
        "hscan",
        "smembers",
        "sscan",
        "zrange",
        "zscan",
        "lrange",
        "llen",
        "dump",
        "time",
        "fcall_ro",
        "eval_ro",
        "evalsha_ro",
        "function|list",
        "acl|whoami",
        "acl|dryrun",
        "config|get",
        "client|list",
        "client|info",
        "memory|usage",
        "slowlog|get",
        "slowlog|len",
        "latency|histogram",
        "latency|latest",
        "cluster|info",
        "cluster|nodes",
        "cluster|slots",
        "cluster|shards",
        "cluster|myid",
        "cluster|keyslot",
        "command",
    };
    return names;
}

QByteArray lower(const QByteArray &s)
{
    return s.toLower();
}

WriteDecision read(const core::Sentence &reason)
{
    return WriteDecision{false, reason, false};
}
WriteDecision write(const core::Sentence &reason)
{
    return WriteDecision{true, reason, false};
}

core::Sentence traitsSay(const char *source)
{
    return core::Sentence::translated("gate::CommandTraits", source);
}

QString upper(const QByteArray &name)
{
    return QString::fromLatin1(name.toUpper()).replace(QLatin1Char('|'), QLatin1Char(' '));
}

} // namespace

QByteArray CommandTraits::topLevelName(const redis::Command &command)
{
    return command.isEmpty() ? QByteArray() : lower(command.first());
}

QByteArray CommandTraits::commandName(const redis::Command &command)
{
    const QByteArray top = topLevelName(command);
    if (command.size() < 2)
        return top;
    // Only containers have subcommands; a plain command's second argument is a key.
    static const QSet<QByteArray> containers{
        "acl",    "client", "cluster", "command", "config", "debug",   "function", "latency",
        "memory", "module", "object",  "pubsub",  "script", "slowlog", "xinfo",    "xgroup"};
    if (!containers.contains(top))
        return top;
    return top + '|' + lower(command.at(1));
}

bool CommandTraits::isKnownRead(const redis::Command &command)
{
    const QByteArray top = topLevelName(command);
    return top == "fcall_ro" || top == "eval_ro" || top == "evalsha_ro"
           || (!top.isEmpty() && builtinReads().contains(commandName(command)));
}

QList<QByteArray> CommandTraits::missingCommandInfo(const QList<redis::Command> &commands) const
{
    QList<QByteArray> out;
    for (const redis::Command &c : commands) {
        const QByteArray top = topLevelName(c);
        static const QSet<QByteArray> decidedByName{"fcall",   "fcall_ro", "eval",
                                                    "evalsha", "eval_ro",  "evalsha_ro"};
        if (top.isEmpty() || decidedByName.contains(top) || m_commands.contains(top)
            || out.contains(top))
            continue;
        out << top;
    }
    return out;
}

bool CommandTraits::needsFunctionList(const QList<redis::Command> &commands) const
{
    for (const redis::Command &c : commands) {
        if (topLevelName(c) != "fcall" || c.size() < 2)
            continue;
        if (!m_functionsKnown || !m_functionWrites.contains(lower(c.at(1))))
            return true;
    }
    return false;
}

namespace {
// A COMMAND INFO flag list: status replies such as "write" and "denyoom".
QSet<QByteArray> flagsOf(const redis::Reply &list)
{
    QSet<QByteArray> flags;
    const auto items = list.array();
    if (!items)
        return flags;
    for (const redis::Reply &f : *items)
        if (const auto flag = f.string())
            flags.insert(lower(*flag));
    return flags;
}
} // namespace

void CommandTraits::addCommandInfo(const QList<QByteArray> &names, const redis::Reply &reply)
{
    const auto entries = reply.array();
    if (!entries)
        return;
    for (qsizetype i = 0; i < names.size() && i < entries->size(); ++i) {
        const auto entry = entries->at(i).array(); // nil: the server has no such command
        Info info;
        if (entry && entry->size() >= 3) {
            info.exists = true;
            info.flags = flagsOf(entry->at(2));
            // Redis 7: element 9 lists subcommands, each a full entry named "name|sub".
            // value(9) is nil on servers before 7, which have no subcommand entries.
            if (const auto subs = entry->value(9).array()) {
                for (const redis::Reply &sub : *subs) {
                    const auto s = sub.array();
                    if (!s || s->size() < 3)
                        continue;
                    if (const auto name = s->at(0).string())
                        info.subcommands.insert(lower(*name), flagsOf(s->at(2)));
                }
            }
        }
        m_commands.insert(names.at(i), info);
    }
}

void CommandTraits::setFunctions(const QList<redis::LibraryInfo> &libraries)
{
    m_functionWrites.clear();
    for (const auto &lib : libraries)
        for (const auto &f : lib.functions)
            m_functionWrites.insert(f.name.toUtf8().toLower(),
                                    !f.flags.contains(QLatin1String("no-writes")));
    m_functionsKnown = true;
}

bool CommandTraits::changesFunctions(const redis::Command &command)
{
    const QByteArray name = commandName(command);
    return name == "function|load" || name == "function|delete" || name == "function|flush"
           || name == "function|restore";
}

std::optional<WriteDecision> CommandTraits::decideCached(const redis::Command &command) const
{
    return decide(command, false, {});
}

WriteDecision CommandTraits::decideAfterLookup(const redis::Command &command,
                                               const QString &lookupFailure) const
{
    return *decide(command, true, lookupFailure);
}

std::optional<WriteDecision> CommandTraits::decideFcall(const redis::Command &command, bool final,
                                                        const QString &lookupFailure) const
{
    if (command.size() < 2)
        return write(traitsSay(QT_TRANSLATE_NOOP(
            "gate::CommandTraits", "FCALL without a function name: treated as a write")));
    const QByteArray fn = lower(command.at(1));
    const QString shown = QString::fromUtf8(command.at(1));
    const auto it = m_functionWrites.constFind(fn);
    if (m_functionsKnown && it != m_functionWrites.cend()) {
        if (*it)
            return write(
                traitsSay(QT_TRANSLATE_NOOP("gate::CommandTraits",
                                            "function %1 has no 'no-writes' flag, so it may write"))
                    .arg(shown));
        WriteDecision d = read(
            traitsSay(QT_TRANSLATE_NOOP("gate::CommandTraits", "function %1 is flagged no-writes"))
                .arg(shown));
        d.sendAsReadOnlyCall = true;
        return d;
    }
    if (!lookupFailure.isEmpty())
        return write(
            traitsSay(QT_TRANSLATE_NOOP("gate::CommandTraits",
                                        "function %1: its flags could not be read (%2), so it is "
                                        "treated as a write"))
                .arg(shown, lookupFailure));
    if (!final)
        return std::nullopt; // not cached, or loaded since the list was read: fetch it
    return write(
        traitsSay(QT_TRANSLATE_NOOP("gate::CommandTraits",
                                    "function %1 is not loaded on this server: treated as a write"))
            .arg(shown));
}

std::optional<WriteDecision> CommandTraits::decide(const redis::Command &command, bool final,
                                                   const QString &lookupFailure) const
{
    const QByteArray top = topLevelName(command);
    if (top.isEmpty())
        return write(traitsSay(QT_TRANSLATE_NOOP("gate::CommandTraits", "an empty command")));
    if (top == "fcall_ro" || top == "eval_ro" || top == "evalsha_ro")
        return read(traitsSay(QT_TRANSLATE_NOOP("gate::CommandTraits",
                                                "%1 is read-only (the server enforces it)"))
                        .arg(upper(top)));
    if (top == "eval" || top == "evalsha")
        return write(
            traitsSay(QT_TRANSLATE_NOOP("gate::CommandTraits",
                                        "%1: scripts are treated as writes (use %1_RO for a "
                                        "read-only script)"))
                .arg(upper(top)));
    if (top == "fcall")
        return decideFcall(command, final, lookupFailure);

    const QByteArray name = commandName(command);
    const auto it = m_commands.constFind(top);
    if (it == m_commands.cend()) {
        if (!final)
            return std::nullopt;
        if (builtinReads().contains(name))
            return read(traitsSay(QT_TRANSLATE_NOOP("gate::CommandTraits",
                                                    "%1 only reads (COMMAND INFO unavailable: %2)"))
                            .arg(upper(name), lookupFailure));
        return write(
            traitsSay(QT_TRANSLATE_NOOP("gate::CommandTraits",
                                        "%1: whether it writes could not be read (%2), so it is "
                                        "treated as a write"))
                .arg(upper(name), lookupFailure.isEmpty() ? traitsSay(QT_TRANSLATE_NOOP(
                                      "gate::CommandTraits", "no COMMAND INFO reply"))
                                                          : core::Sentence::plain(lookupFailure)));
    }
    if (!it->exists)
        return write(traitsSay(QT_TRANSLATE_NOOP(
                                   "gate::CommandTraits",
                                   "%1 is not a command this server knows: treated as a write"))
                         .arg(upper(top)));
    QSet<QByteArray> flags = it->flags;
    if (!it->subcommands.isEmpty()) {
        const auto sub = it->subcommands.constFind(name);
        if (sub == it->subcommands.cend())
            return write(traitsSay(QT_TRANSLATE_NOOP(
                                       "gate::CommandTraits",
                                       "%1 is not a subcommand this server knows: treated as a "
                                       "write"))
                             .arg(upper(name)));
        flags = *sub;
    }
    if (name == "acl|log" && command.size() > 2 && lower(command.at(2)) == "reset")
        return write(
            traitsSay(QT_TRANSLATE_NOOP("gate::CommandTraits", "ACL LOG RESET clears the log")));
    if (flags.contains("write"))
        return write(traitsSay(QT_TRANSLATE_NOOP("gate::CommandTraits",
                                                 "%1 writes (the server flags it 'write')"))
                         .arg(upper(name)));
    if (flags.contains("admin") && !readOnlyAdmin().contains(name))
        return write(traitsSay(QT_TRANSLATE_NOOP("gate::CommandTraits",
                                                 "%1 is an admin command that changes the server"))
                         .arg(upper(name)));
    return read(
        traitsSay(QT_TRANSLATE_NOOP("gate::CommandTraits", "%1 only reads")).arg(upper(name)));
}

} // namespace gate
