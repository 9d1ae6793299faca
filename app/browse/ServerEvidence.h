// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "redis/CommandSender.h"

#include <QHash>
#include <QString>
#include <optional>

namespace browse {

// What the console read about the server that holds (or would hold) a receipt: the facts a
// "safe to retry" or "no receipt" sentence rests on. Each field is unknown until read; when
// the read failed, readError says why and every sentence built on it says "not proven".
struct ServerEvidence
{
    QString readError; // "INFO: NOPERM ...": nothing below is known
    QString runId;     // who answered: on a cluster, the node holding the key's slot
    qint64 tcpPort = -1;
    qint64 uptimeSeconds = -1;
    QString evictionPolicy; // maxmemory_policy
    qint64 maxMemory = -1, usedMemory = -1;
    qint64 evictedKeys = -1;
    std::optional<bool> aofEnabled;
    qint64 lastSaveMs = -1; // rdb_last_save_time
    qint64 readAtMs = 0;

    bool known() const { return readError.isEmpty(); }
    // maxmemory set and a policy that deletes keys when it is reached. Both volatile-* and
    // allkeys-* count: receipts carry a TTL, so volatile-* policies pick them too.
    bool evictionPossible() const;
    qint64 startedAtMs() const;
    // "used 80 MB of 100 MB (80 %)"
    QString memoryText() const;
    // "the server on port 30103 (run_id 1a2b3c4d)": who the evidence is about.
    QString serverText() const;
};

// INFO's fields (overview::parseInfo) as evidence.
ServerEvidence evidenceFromInfo(const QHash<QByteArray, QByteArray> &info, qint64 nowMs);

// The batch that reads the evidence from the node holding `key` (a cluster router sends a
// keyless command with the batch's key): INFO, and PTTL of the key only to route it.
QList<redis::Command> evidenceCommands(const QByteArray &key);
ServerEvidence decodeEvidence(const QList<redis::ReplyResult> &replies, qint64 nowMs);

// Blocking, for the CLI: the evidence of the node holding the key (an empty key: the
// sender's own node).
ServerEvidence readEvidence(redis::CommandSender &sender, const QByteArray &key, int timeoutMs);

} // namespace browse
