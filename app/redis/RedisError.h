#pragma once

#include <QByteArray>
#include <QString>

namespace redis {

// What went wrong with one command. The distinction that matters most to the console is
// whether the command may have reached the server: a write whose reply never came is an
// *outcome unknown*, never a "not executed".
struct RedisError
{
    enum class Kind {
        NotSent,        // refused before it reached the socket (disconnected, gate, bad input)
        Timeout,        // no reply within the command timeout
        ConnectionLost, // the connection closed while the reply was pending
        Io,             // socket or TLS failure while connecting
        Protocol,       // the byte stream could not be parsed
        Server,         // the server answered with an error reply
    };

    Kind kind = Kind::Server;
    QByteArray code;      // server error prefix: ERR, WRONGTYPE, NOPERM, NOSCRIPT, MOVED, ...
    QString message;      // human readable, never contains a password
    bool written = false; // the command was handed to the socket before the failure

    // The server may or may not have executed the command (a reply that could not be parsed
    // says nothing about what ran).
    bool outcomeUnknown() const
    {
        return written
               && (kind == Kind::Timeout || kind == Kind::ConnectionLost || kind == Kind::Protocol);
    }
    bool isServer(const char *prefix) const { return kind == Kind::Server && code == prefix; }

    // For a read (SCAN, TYPE, GET...): "<kind>: <message>" without the "outcome unknown" and
    // "may have run" a write needs, since a read that got no reply changed nothing.
    QString readFailure() const;
    // How a message ends when the command was written and no reply came.
    static const QString MayHaveRun, SentMayHaveRun;

    static RedisError notSent(const QString &message);
    static RedisError fromServer(const QByteArray &errorLine);
    QString kindName() const;
    QString toString() const;
};

} // namespace redis
