// SPDX-License-Identifier: GPL-3.0-or-later
#include "CommandKeys.h"

#include "Slot.h"

#include <QSet>

namespace redis {

namespace {
QByteArray upper(const QByteArray &word)
{
    return word.toUpper();
}

// Commands whose only key is their first argument.
const QSet<QByteArray> &firstArgumentKey()
{
    static const QSet<QByteArray> names{
        "GET",       "SET",        "SETEX",       "PSETEX",  "SETNX",  "GETSET",      "GETDEL",
        "GETEX",     "INCR",       "DECR",        "INCRBY",  "DECRBY", "INCRBYFLOAT", "APPEND",
        "STRLEN",    "TYPE",       "TTL",         "PTTL",    "EXPIRE", "PEXPIRE",     "EXPIREAT",
        "PEXPIREAT", "EXPIRETIME", "PEXPIRETIME", "PERSIST", "DUMP",   "RESTORE",     "HGET",
        "HSET",      "HSETNX",     "HGETALL",     "HDEL",    "HMGET",  "HMSET",       "HLEN",
        "HEXISTS",   "HINCRBY",    "HKEYS",       "HVALS",   "LPUSH",  "RPUSH",       "LPOP",
        "RPOP",      "LRANGE",     "LLEN",        "SADD",    "SREM",   "SMEMBERS",    "SCARD",
        "SISMEMBER", "ZADD",       "ZREM",        "ZRANGE",  "ZCARD",  "ZSCORE",      "XADD",
        "XLEN",      "XRANGE",     "GETRANGE",    "SETRANGE"};
    return names;
}
// Commands whose every argument is a key.
const QSet<QByteArray> &allArgumentsKeys()
{
    static const QSet<QByteArray> names{"DEL", "UNLINK", "EXISTS", "MGET", "TOUCH", "WATCH"};
    return names;
}
// Scripts and functions: name or body, numkeys, then the keys.
const QSet<QByteArray> &numkeysAtTwo()
{
    static const QSet<QByteArray> names{"FCALL",   "FCALL_RO", "EVAL",
                                        "EVALSHA", "EVAL_RO",  "EVALSHA_RO"};
    return names;
}
} // namespace

QList<QByteArray> commandKeys(const Command &c)
{
    if (c.isEmpty())
        return {};
    const QByteArray name = upper(c.first());
    if (firstArgumentKey().contains(name))
        return c.size() > 1 ? QList<QByteArray>{c.at(1)} : QList<QByteArray>{};
    if (allArgumentsKeys().contains(name))
        return c.mid(1);
    if (name == "MSET" || name == "MSETNX") {
        QList<QByteArray> keys;
        for (qsizetype i = 1; i < c.size(); i += 2)
            keys << c.at(i);
        return keys;
    }
    if (numkeysAtTwo().contains(name)) {
        bool ok = false;
        const qsizetype n = c.size() > 2 ? c.at(2).toLongLong(&ok) : 0;
        if (!ok || n <= 0 || 3 + n > c.size())
            return {};
        return c.mid(3, n);
    }
    // OBJECT ENCODING key, MEMORY USAGE key
    if ((name == "OBJECT" || name == "MEMORY") && c.size() > 2)
        return {c.at(2)};
    return {};
}

CommandSlot commandSlot(const Command &command)
{
    CommandSlot out;
    QByteArray first;
    for (const QByteArray &key : commandKeys(command)) {
        const int slot = keySlot(key);
        if (out.slot < 0) {
            out.slot = slot;
            first = key;
        } else if (slot != out.slot) {
            out.crossSlot = QStringLiteral("the keys %1 (slot %2) and %3 (slot %4) are in "
                                           "different cluster slots, so no node can run them "
                                           "together: keep both under one {hash tag}")
                                .arg(QString::fromUtf8(first))
                                .arg(out.slot)
                                .arg(QString::fromUtf8(key))
                                .arg(slot);
            return out;
        }
    }
    return out;
}

} // namespace redis
