// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>
#include <functional>

namespace redis {

struct TlsOptions
{
    bool enabled = false;
    QString caFile;     // PEM; empty means the system trust store
    QString certFile;   // client certificate (PEM), optional
    QString keyFile;    // client private key (PEM), optional
    QString serverName; // name to verify; empty means the host
    bool verifyPeer = true;
};

// How a connection reaches its server when not by host:port directly: a local forward (an SSH
// tunnel's `-L 127.0.0.1:port:host:port`) that leads there. The connection still names the
// server host:port everywhere (messages, the node that answered) and TLS still verifies the
// certificate against host: only the socket goes to the forward.
struct Detour
{
    QString localHost; // empty: no detour
    quint16 localPort = 0;
    QString through; // how messages say it, e.g. "the SSH tunnel via ops@bastion:22"
    // Set when the detour could not be made (the tunnel refused the forward): nothing is
    // attempted, and the connection fails at once with this reason. Never falls back to
    // connecting to host:port directly, which from here would go somewhere else.
    QString failure;
};

// Decides the detour to host:port when a connection to it is made (a tunnel adds a forward).
using Route = std::function<Detour(const QString &host, quint16 port)>;

// Everything needed to reach one server. The password lives only in memory.
struct ConnectionOptions
{
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 6379;
    int database = 0;
    QString username; // empty: the default user
    QString password; // empty: no AUTH
    TlsOptions tls;
    int connectTimeoutMs = 5000;
    int commandTimeoutMs = 5000;
    bool autoReconnect = true;
    int reconnectMinMs = 200;
    int reconnectMaxMs = 10000;
    // A server that stops answering without closing (a partition, a paused process) must not
    // stay "ready": once a batch has timed out and nothing at all has arrived for this long,
    // the connection is closed and reopened.
    int silentCloseMs = 5000;
    // TCP keepalive probes find a dead peer on an idle connection (Linux defaults wait 2 h).
    int keepAliveIdleS = 15;
    QByteArray clientName = "inventory-console";
    // The socket lives on the thread that creates the client instead of the shared transport
    // thread: no thread hop each way, for one caller doing one round trip after another (the
    // command line, the deduction panel). Never for a connection the GUI thread shares with scans:
    // its reads would then run on the GUI thread.
    bool onCallerThread = false;
    // With onCallerThread, how long a lone round trip polls for its reply before the thread
    // sleeps (QuickReplyWait); 0 never polls.
    int quickReplyWaitUs = 50;

    // Through a tunnel: the connection asks the route for its detour when it is made, so
    // options copied and aimed at another node (a cluster's, a replica) take the same way
    // there. The detour is what the route answered, for the connection's own copy only.
    Route route;
    Detour detour;

    // host:port, the server as the console knows it (the key a pool or a map uses).
    QString address() const;
    // address(), and the detour taken to it, for messages.
    QString describe() const;
};

enum class ConnectionState { Idle, Connecting, Ready, Reconnecting, Failed, Closed };

// Why the last connection attempt or connection failed; the detail text says it in words.
enum class ConnectFailure {
    None,
    HostNotFound,        // the resolver answered: no such name
    ResolverUnreachable, // the name could not be looked up at all (EAI_AGAIN): no verdict on it
    Refused,
    Timeout,
    Authentication,   // AUTH refused (WRONGPASS, or the user is disabled)
    PasswordRequired, // NOAUTH: the server wants a password and none was given
    Tls,
    Protocol, // not RESP: wrong port, or TLS expected
    Server,   // the server refused the setup (e.g. SELECT out of range)
    ConnectionLost,
    Other,
};
QString stateName(ConnectionState s);

} // namespace redis
