#pragma once

#include <QByteArray>
#include <QString>

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

    QString address() const;
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
