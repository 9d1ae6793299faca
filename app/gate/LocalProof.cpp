// SPDX-License-Identifier: GPL-3.0-or-later
#include "LocalProof.h"

#include "overview/ServerOverview.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QNetworkInterface>
#include <QSet>
#include <QtEndian>

#include <unistd.h>

namespace gate {

namespace {

// "[::1]" as a URL writes it, "::1" as an address.
QString unbracketed(const QString &host)
{
    const QString h = host.trimmed();
    if (h.startsWith(QLatin1Char('[')) && h.endsWith(QLatin1Char(']')))
        return h.mid(1, h.size() - 2);
    return h;
}

// The LISTEN sockets on `port` in one /proc/net/tcp file: inode -> local address.
QHash<QString, QHostAddress> listeners(const QString &path, quint16 port, bool v6)
{
    QHash<QString, QHostAddress> out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return out;
    file.readLine(); // the header
    while (!file.atEnd()) {
        const QList<QByteArray> f = file.readLine().simplified().split(' ');
        if (f.size() < 10 || f[3] != "0A") // 0A: TCP_LISTEN
            continue;
        const QList<QByteArray> local = f[1].split(':');
        if (local.size() != 2 || local[1].toUInt(nullptr, 16) != port)
            continue;
        // The kernel prints each 32-bit word of the address in host order.
        const QByteArray hex = local[0];
        QHostAddress address;
        if (!v6 && hex.size() == 8) {
            // x86 and arm64 are little-endian.
            address =
                QHostAddress(qFromLittleEndian<quint32>(QByteArray::fromHex(hex).constData()));
        } else if (v6 && hex.size() == 32) {
            Q_IPV6ADDR a;
            const QByteArray raw = QByteArray::fromHex(hex);
            for (int w = 0; w < 4; ++w)
                for (int b = 0; b < 4; ++b)
                    a[w * 4 + b] = quint8(raw[w * 4 + 3 - b]);
            address = QHostAddress(a);
        }
        out.insert(QString::fromLatin1(f[9]), address);
    }
    return out;
}

// The inodes of the sockets a connection to host:port could have reached: those bound to
// its address (any loopback one for "localhost"), else the wildcard ones.
QSet<QString> reachedSockets(const QString &procRoot, const QString &host, quint16 port)
{
    QHash<QString, QHostAddress> all =
        listeners(procRoot + QStringLiteral("/net/tcp"), port, false);
    all.insert(listeners(procRoot + QStringLiteral("/net/tcp6"), port, true));
    const QString h = unbracketed(host);
    const bool anyLoopback = h.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0;
    const QHostAddress target(h);
    QSet<QString> exact, wildcard;
    for (auto it = all.cbegin(); it != all.cend(); ++it) {
        const QHostAddress &a = it.value();
        if (a == QHostAddress(QHostAddress::AnyIPv4) || a == QHostAddress(QHostAddress::AnyIPv6))
            wildcard << it.key();
        else if (anyLoopback ? a.isLoopback() : a.isEqual(target, QHostAddress::TolerantConversion))
            exact << it.key();
    }
    return exact.isEmpty() ? wildcard : exact;
}

// What a /proc link says, unresolved ("socket:[123]" is not a path).
QString readLink(const QString &path)
{
    char buffer[4096];
    const ssize_t n = ::readlink(QFile::encodeName(path).constData(), buffer, sizeof buffer);
    return n > 0 ? QString::fromLocal8Bit(buffer, n) : QString();
}

// An address one of this machine's interfaces has (a v4-mapped one counts as its v4).
bool isThisMachine(const QString &host)
{
    const QString h = unbracketed(host);
    const QHostAddress target(h);
    const QList<QHostAddress> own = QNetworkInterface::allAddresses();
    return std::any_of(own.cbegin(), own.cend(), [&](const QHostAddress &a) {
        return a.isEqual(target, QHostAddress::TolerantConversion);
    });
}

bool isServerExecutable(const QString &exe, const QString &comm)
{
    // Debian links redis-server to redis-check-rdb (one binary that looks at argv[0]); the
    // name it was started under is in comm.
    static const QStringList binaries{
        QStringLiteral("redis-server"), QStringLiteral("valkey-server"),
        QStringLiteral("redis-check-rdb"), QStringLiteral("valkey-check-rdb")};
    static const QStringList names{QStringLiteral("redis-server"), QStringLiteral("valkey-server")};
    return binaries.contains(QFileInfo(exe).fileName()) && names.contains(comm);
}

core::Sentence proofSentence(const char *source)
{
    return core::Sentence::translated("gate::LocalProof", source);
}

} // namespace

LocalEvidence LocalEvidence::startedByConsole(qint64 pid)
{
    LocalEvidence e;
    e.verdict = Verdict::Proven;
    e.reason =
        proofSentence(QT_TRANSLATE_NOOP("gate::LocalProof",
                                        "local: the console started this server (process %1)"))
            .arg(pid);
    return e;
}

LocalEvidence LocalEvidence::notProven(const core::Sentence &why)
{
    LocalEvidence e;
    e.verdict = Verdict::NotProven;
    e.reason = proofSentence(QT_TRANSLATE_NOOP("gate::LocalProof",
                                               "not proven local: %1; treated as production"))
                   .arg(why);
    return e;
}

bool canProveLocal(const QString &host)
{
    const QString h = unbracketed(host);
    return h.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0
           || !QHostAddress(h).isNull();
}

LocalEvidence proveLocal(const QByteArray &info, const QString &host, quint16 port,
                         const QString &procRoot)
{
    const QHash<QByteArray, QByteArray> fields = overview::parseInfo(info);
    const auto withIdentity = [&](LocalEvidence e) {
        e.runId = QString::fromLatin1(fields.value("run_id"));
        e.role = QString::fromLatin1(fields.value("role"));
        return e;
    };
    if (!canProveLocal(host))
        return withIdentity(LocalEvidence::notProven(
            proofSentence(QT_TRANSLATE_NOOP(
                              "gate::LocalProof",
                              "%1 is a name, not an address: which process answers cannot be told"))
                .arg(host)));
    if (!profiles::isWrittenAsLoopback(host) && !isThisMachine(host))
        return withIdentity(LocalEvidence::notProven(
            proofSentence(
                QT_TRANSLATE_NOOP("gate::LocalProof", "%1 is not an address of this machine"))
                .arg(host)));
    bool ok = false;
    const qint64 pid = fields.value("process_id").toLongLong(&ok);
    if (!ok || pid <= 0)
        return withIdentity(LocalEvidence::notProven(proofSentence(QT_TRANSLATE_NOOP(
            "gate::LocalProof", "the server did not say its process_id (INFO server)"))));
    const QString proc = QStringLiteral("%1/%2").arg(procRoot).arg(pid);
    const QString exe = readLink(proc + QStringLiteral("/exe"));
    QFile commFile(proc + QStringLiteral("/comm"));
    const QString comm = commFile.open(QIODevice::ReadOnly)
                             ? QString::fromUtf8(commFile.readAll()).trimmed()
                             : QString();
    if (!QFileInfo::exists(proc) || !isServerExecutable(exe, comm))
        return withIdentity(LocalEvidence::notProven(
            proofSentence(
                QT_TRANSLATE_NOOP("gate::LocalProof",
                                  "the server's process %1 is not on this machine (no redis-server "
                                  "or valkey-server with that id here) — a tunnel or container?"))
                .arg(pid)));
    const QSet<QString> sockets = reachedSockets(procRoot, host, port);
    if (sockets.isEmpty())
        return withIdentity(LocalEvidence::notProven(
            proofSentence(QT_TRANSLATE_NOOP("gate::LocalProof",
                                            "no listening socket on port %1 is visible here"))
                .arg(port)));
    QDir fdDir(proc + QStringLiteral("/fd"));
    const QStringList fds = fdDir.entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot);
    if (!fdDir.isReadable() || fds.isEmpty())
        return withIdentity(LocalEvidence::notProven(
            proofSentence(QT_TRANSLATE_NOOP("gate::LocalProof",
                                            "%1/fd is not readable (another user's process), so "
                                            "which process owns port %2 cannot be told"))
                .arg(proc, QString::number(port))));
    QSet<QString> owned;
    for (const QString &fd : fds) {
        const QString name = readLink(fdDir.filePath(fd));
        if (name.startsWith(QLatin1String("socket:[")))
            owned << name.mid(8, name.size() - 9);
    }
    if (!owned.contains(sockets))
        return withIdentity(LocalEvidence::notProven(
            proofSentence(
                QT_TRANSLATE_NOOP("gate::LocalProof",
                                  "the server's process %1 (%2) does not own the socket listening "
                                  "on port %3 — a tunnel, port-forward or relay answers there"))
                .arg(QString::number(pid), exe, QString::number(port))));
    LocalEvidence e;
    e.verdict = LocalEvidence::Verdict::Proven;
    // The name the process runs as first: Debian's /usr/bin/redis-server links to
    // redis-check-rdb, which would puzzle a reader as the only name given.
    const QString name = comm.isEmpty() ? QFileInfo(exe).fileName() : comm;
    e.reason = proofSentence(
                   QT_TRANSLATE_NOOP("gate::LocalProof", "local: %1 (process %2, %3) owns port %4"))
                   .arg(name, QString::number(pid), exe, QString::number(port));
    return withIdentity(e);
}

profiles::Environment effectiveEnvironment(profiles::Environment claimed,
                                           const LocalEvidence &evidence)
{
    if (claimed != profiles::Environment::Local)
        return claimed;
    return evidence.proven() ? profiles::Environment::Local : profiles::Environment::Production;
}

} // namespace gate
