// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Wording.h"

#include <QByteArray>
#include <QString>

namespace redis {

// What went wrong with one command. The distinction that matters most to the console is
// whether the command may have run on the server: a write whose reply never came is an
// *outcome unknown*, never a "not executed". That is read from `delivery`, through
// mayHaveRun(), and from nothing else (never from the message's words).
struct RedisError
{
    enum class Kind {
        NotSent,        // refused before it reached the socket (disconnected, gate, bad input)
        Timeout,        // no reply in time (or, not sent: no connection in time)
        ConnectionLost, // the connection closed while the reply was pending
        Io,             // socket or TLS failure
        Protocol,       // the byte stream could not be parsed
        Unexpected,     // a well-formed reply of a shape the caller did not expect
        Server,         // the server answered with an error reply
    };
    // How far the command got.
    enum class Delivery {
        NotSent,     // never handed to the socket: it did not run
        SentNoReply, // handed to the socket, no reply read: it may or may not have run
        Answered,    // the server answered (an error reply, or a reply the caller could not use)
    };
    // The console's own refusals before sending, named so that callers can advise on them
    // without reading their text.
    enum class Refusal {
        None,
        CrossSlot,    // the command's keys hash to different cluster slots
        GateRefused,  // the write gate refused it: unlock the session to write there
        ReadOnlyView, // sent through a view that only reads, and not known to be a read
    };

    Kind kind = Kind::Server;
    Delivery delivery = Delivery::Answered;
    QByteArray code; // server error prefix: ERR, WRONGTYPE, NOPERM, NOSCRIPT, MOVED, ...
    // What happened, for people; never a password, never "may have run". The console's own
    // words in both copies; a server's error reply as the server said it (plain).
    core::Sentence message;
    Refusal refusal = Refusal::None;

    // The one question about effects: may the server have executed the command? True when it
    // was sent and no reply was read, or when the reply could not be understood. An error
    // reply is an answer: whether the command wrote before it is the command's own contract
    // (most errors come before any write; a script's may come after some).
    bool mayHaveRun() const
    {
        return delivery == Delivery::SentNoReply
               || (delivery == Delivery::Answered && kind != Kind::Server);
    }
    bool isServer(const char *prefix) const { return kind == Kind::Server && code == prefix; }

    // Each of these is a Sentence so that one error is asked one way: the window shows `.text`,
    // the CLI, the logs and the audit records keep `.english`.
    // For a read (SCAN, TYPE, GET...): "<kind>: <message>", or the server's text; a read that
    // got no reply changed nothing, so nothing about what may have run.
    core::Sentence readFailure() const;
    // For a write: "outcome unknown (<kind>): <message>; the command had been sent, so it may
    // or may not have run" when mayHaveRun(), else the message.
    core::Sentence toString() const;
    core::Sentence kindName() const;

    static RedisError notSent(const core::Sentence &message, Refusal refusal = Refusal::None);
    // Sent, and no reply read: timeouts, lost connections, a stream that broke.
    static RedisError unanswered(Kind kind, const core::Sentence &message);
    static RedisError fromServer(const QByteArray &errorLine);
    // The server answered with a well-formed reply of a shape the caller did not expect.
    static RedisError unexpected(const core::Sentence &message);
    // "no reply": what a batch's missing reply says (fewer replies came than commands went).
    // Each caller chooses the kind: one that never sent the rest says notSent(noReply()).
    static core::Sentence noReply();
};

} // namespace redis
