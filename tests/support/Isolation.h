// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where tests may send packets: this machine's loopback, and, inside the network namespace
// tests/support/run-isolated makes for every test, one address that never answers. Every
// address a test connects to that is not loopback is named here and nowhere else.
#include <QString>

#include <atomic>
#include <thread>

namespace testsupport {

// Empty when this process runs in the namespace run-isolated made (INVENTORY_TEST_NETNS=1, no
// default route, no interface but loopback and its veth pair); else why not, in words.
QString notIsolatedReason();

// The address inside the namespace whose packets go nowhere: a connect to it waits until its
// own timeout. Empty (with *why) outside the namespace, where it would be someone's network.
QString silentHost(QString *why = nullptr);

// Whether a test may connect to `host`: a loopback address or name (127.0.0.0/8, ::1,
// localhost), or silentHost() inside the namespace. Names other than localhost are refused:
// looking them up would ask the machine's resolver.
bool isContainedHost(const QString &host);

// Aborts the test (qFatal) when `host` is not contained. The fixtures' connect helpers call it,
// so that a test written against another address fails on its first connection.
void requireContainedHost(const QString &host);

// A name server on 127.0.0.1:53 inside the namespace that answers every question with
// NXDOMAIN, so that a lookup ends with "host not found" (EAI_NONAME). Without it the namespace
// has no name server, and a lookup ends with "resolver unreachable" (EAI_AGAIN). Runs on a
// thread of its own: blocking lookups (getaddrinfo on the test's thread) are answered too.
class NxDomainResolver
{
public:
    NxDomainResolver() = default;
    ~NxDomainResolver();
    NxDomainResolver(const NxDomainResolver &) = delete;
    NxDomainResolver &operator=(const NxDomainResolver &) = delete;

    // Empty when it listens; else why not (outside the namespace, or port 53 taken).
    QString start();
    int answered() const { return m_answered; }

private:
    void serve();
    int m_fd = -1;
    int m_stop[2] = {-1, -1};
    std::atomic<int> m_answered = 0;
    std::thread m_thread;
};

} // namespace testsupport

// Skips the current test function when run by hand outside run-isolated's namespace, saying
// how to run it. Under run-isolated (INVENTORY_TEST_NETNS=1, as ctest runs every test) a
// namespace that does not check out fails the test: CI never skips these silently.
#define INVENTORY_REQUIRE_ISOLATION()                                                              \
    do {                                                                                           \
        const QString why_ = testsupport::notIsolatedReason();                                     \
        if (why_.isEmpty())                                                                        \
            break;                                                                                 \
        if (qEnvironmentVariableIsSet("INVENTORY_TEST_NETNS"))                                     \
            QFAIL(qPrintable(why_));                                                               \
        QSKIP(qPrintable(why_                                                                      \
                         + QStringLiteral("; run it through ctest or "                             \
                                          "tests/support/run-isolated")));                         \
    } while (false)
