// SPDX-License-Identifier: GPL-3.0-or-later
#include "Isolation.h"

#include <QFile>
#include <QHostAddress>
#include <QtGlobal>

#include <optional>

#include <arpa/inet.h>
#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace testsupport {

namespace {

// The interfaces run-isolated makes; anything else means another namespace.
const QStringList NamespaceInterfaces{QStringLiteral("lo"), QStringLiteral("ictest0"),
                                      QStringLiteral("ictest1")};

// The lines of a /proc file, or nothing when it cannot be read. readAll: /proc files report
// size 0, so QFile::atEnd() is true before the first line.
std::optional<QList<QByteArray>> procLines(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    return file.readAll().split('\n');
}

// /proc/net/route: a destination of 00000000 is a default route, a way off this machine.
bool hasDefaultRoute()
{
    const auto lines = procLines(QStringLiteral("/proc/net/route"));
    if (!lines)
        return true; // cannot tell: assume the worst
    for (const QByteArray &line : lines->mid(1)) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() > 1 && fields.at(1) == "00000000")
            return true;
    }
    return false;
}

// /proc/net/dev, this process's namespace's interfaces (/sys/class/net shows the namespace
// that mounted /sys, not this one).
QStringList interfaceNames()
{
    const auto lines = procLines(QStringLiteral("/proc/net/dev"));
    if (!lines)
        return {QStringLiteral("(unreadable /proc/net/dev)")};
    QStringList names;
    for (const QByteArray &line : *lines) {
        if (const int colon = line.indexOf(':'); colon > 0)
            names << QString::fromLatin1(line.left(colon).trimmed());
    }
    return names;
}

} // namespace

QString notIsolatedReason()
{
    if (qEnvironmentVariable("INVENTORY_TEST_NETNS") != QLatin1String("1"))
        return QStringLiteral("not in the test network namespace (INVENTORY_TEST_NETNS unset)");
    if (hasDefaultRoute())
        return QStringLiteral("INVENTORY_TEST_NETNS is set but this namespace has a default "
                              "route");
    const QStringList interfaces = interfaceNames();
    for (const QString &name : interfaces) {
        if (!NamespaceInterfaces.contains(name))
            return QStringLiteral("INVENTORY_TEST_NETNS is set but interface %1 is here").arg(name);
    }
    if (!interfaces.contains(QStringLiteral("ictest0")))
        return QStringLiteral("INVENTORY_TEST_NETNS is set but the silent interface is missing");
    return {};
}

QString silentHost(QString *why)
{
    const QString reason = notIsolatedReason();
    if (!reason.isEmpty()) {
        if (why)
            *why = reason;
        return {};
    }
    return qEnvironmentVariable("INVENTORY_TEST_SILENT_HOST");
}

bool isContainedHost(const QString &host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    if (address.isNull())
        return false; // a name: its lookup would leave the machine
    if (address.isLoopback())
        return true;
    const QString silent = silentHost();
    return !silent.isEmpty() && address == QHostAddress(silent);
}

void requireContainedHost(const QString &host)
{
    if (!isContainedHost(host))
        qFatal("test support: refusing to connect to '%s': tests connect only to loopback or "
               "to testsupport::silentHost() (tests/support/Isolation.h)",
               qPrintable(host));
}

NxDomainResolver::~NxDomainResolver()
{
    if (m_thread.joinable()) {
        const char one = 1;
        (void)::write(m_stop[1], &one, 1);
        m_thread.join();
    }
    for (int fd : {m_fd, m_stop[0], m_stop[1]}) {
        if (fd >= 0)
            ::close(fd);
    }
}

QString NxDomainResolver::start()
{
    if (const QString why = notIsolatedReason(); !why.isEmpty())
        return why; // port 53 outside would be the machine's own resolver's
    m_fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in at{};
    at.sin_family = AF_INET;
    at.sin_port = htons(53);
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (m_fd < 0 || ::bind(m_fd, reinterpret_cast<sockaddr *>(&at), sizeof at) != 0)
        return QStringLiteral("cannot listen on 127.0.0.1:53: %1").arg(qt_error_string(errno));
    if (::pipe2(m_stop, O_CLOEXEC) != 0)
        return QStringLiteral("pipe: %1").arg(qt_error_string(errno));
    m_thread = std::thread([this] { serve(); });
    return {};
}

void NxDomainResolver::serve()
{
    for (;;) {
        pollfd fds[2] = {{m_fd, POLLIN, 0}, {m_stop[0], POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0 && errno != EINTR)
            return;
        if (fds[1].revents)
            return;
        if (!(fds[0].revents & POLLIN))
            continue;
        unsigned char packet[1500];
        sockaddr_storage from{};
        socklen_t fromLength = sizeof from;
        const ssize_t n = ::recvfrom(m_fd, packet, sizeof packet, 0,
                                     reinterpret_cast<sockaddr *>(&from), &fromLength);
        if (n < 12)
            continue; // shorter than a DNS header: not a question
        // The question back, as a response (QR), recursion available, rcode 3 (NXDOMAIN), with
        // no answer, authority or additional records.
        packet[2] = 0x81;
        packet[3] = 0x83;
        for (int i = 6; i < 12; ++i)
            packet[i] = 0;
        ::sendto(m_fd, packet, size_t(n), 0, reinterpret_cast<sockaddr *>(&from), fromLength);
        ++m_answered;
    }
}

} // namespace testsupport
