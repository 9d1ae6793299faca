// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Wording.h"
#include "redis/ConnectionOptions.h"
#include "redis/QuickReplyWait.h"
#include "redis/RespCodec.h"

#include <QList>
#include <QString>

namespace lab {

// One connection that writes a batch and then blocks until its replies are in: no event loop,
// no notifier, no posted delivery between two round trips. For the lab's one-connection storms,
// where each round trip waits for the last and Qt's per-round-trip machinery would be what is
// measured. Plain TCP only (the storm falls back to RedisClient with TLS); replies are decoded
// by the transport's RespDecoder into the same Reply values. Like a caller-thread connection,
// it polls for a reply that is microseconds away before sleeping (redis::QuickReplyWait,
// ConnectionOptions::quickReplyWaitUs).
class BlockingLane
{
public:
    BlockingLane() = default;
    ~BlockingLane();
    BlockingLane(const BlockingLane &) = delete;
    BlockingLane &operator=(const BlockingLane &) = delete;

    // Connects, then AUTH (when a password is set), SELECT and CLIENT SETNAME as the transport
    // does. On failure returns false and says why.
    bool open(const redis::ConnectionOptions &options, core::Sentence *why);
    // Sends the commands together and waits at most timeoutMs for all their replies. A reply
    // that does not come in time, or a broken connection, ends the lane: the commands without a
    // reply get an "outcome unknown" error (written), later calls a "not sent" one.
    QList<redis::ReplyResult> roundTrip(const QList<redis::Command> &commands, int timeoutMs);

private:
    bool sendAll(const QByteArray &bytes);
    void fail(const core::Sentence &why);

    int m_fd = -1;
    redis::RespDecoder m_decoder;
    redis::QuickReplyWait m_quickReply{0};
    core::Sentence m_broken; // why the lane stopped, empty while it works
};

} // namespace lab
