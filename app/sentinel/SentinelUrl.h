// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "NodeAddress.h"
#include "core/Result.h"
#include "core/Wording.h"

#include <QList>
#include <QString>

namespace sentinel {

constexpr quint16 DefaultSentinelPort = 26379;
// More sentinels than this in one URL is a mistake (a pasted list of data nodes, say): a
// deployment runs three or five.
constexpr int MaxSentinels = 16;

// A redis-sentinel:// URL taken apart, as Lettuce (RedisURI) writes it:
//   redis-sentinel://[user:password@]host1[:port1][,host2[:port2]...][/db][?query]#master-name
//   rediss-sentinel://...   TLS to the sentinels and to the data nodes
// - each sentinel is a name, an IPv4 address or an [IPv6] address; its port defaults to 26379
// - the query may hold sentinelMasterId=NAME (instead of, or equal to, #NAME) and database=N
//   or db=N (which wins over /N, as in Lettuce)
// - the credentials are the data node's, as in Lettuce: sentinels have their own (see
//   SentinelResolver::Config). "user:password@" or ":password@"; a bare "word@" is refused,
//   since Lettuce reads it as a password and redis:// URLs here as a user name. Both are
//   percent-decoded, and the last '@' ends them, so a password may hold '@', '/', '?' or '#'.
// - the master name is percent-decoded (write '@' in it as %40).
struct SentinelUrl
{
    QList<NodeAddress> sentinels;
    QString masterName;
    int database = 0;
    QString username; // the data node's; empty: the default user
    QString password; // the data node's
    bool hasPassword = false;
    bool tls = false; // rediss-sentinel://

    // The URL again, without any password ("redis-sentinel://alice@a:26379,b:26380/2#orders").
    QString toString() const;
};

// A list of sentinels as a profile holds it: host[:port] entries (26379 by default) separated
// by commas, spaces or line breaks; at least one, at most MaxSentinels, none twice.
// The problem in English (the CLI, the log) unless the window asks for its own language.
core::Result<QList<NodeAddress>, QString>
parseSentinelList(const QString &text, core::Wording wording = core::Wording::English);

// Only the scheme is looked at: redis-sentinel:// or rediss-sentinel://, any case.
bool isSentinelUrl(const QString &url);

// The URL taken apart, or why not, in a sentence that never holds the password (nor the URL).
core::Result<SentinelUrl, QString> parseSentinelUrl(const QString &url,
                                                    core::Wording wording = core::Wording::English);

} // namespace sentinel
