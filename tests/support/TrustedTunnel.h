// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SshdFixture.h"
#include "ssh/SshTunnel.h"

#include <QtGlobal>
#include <memory>

// SSH tunnels to a test's own sshd (SshdFixture), as the console opens them.
namespace testsupport {

inline ssh::SshTarget sshTarget(const Sshd &sshd, const QString &identity)
{
    const auto t =
        ssh::parseTarget({QStringLiteral("%1@127.0.0.1:%2").arg(Sshd::user()).arg(sshd.port()),
                          QString(), identity.isEmpty() ? sshd.clientKey() : identity, false});
    if (!t)
        qFatal("%s", qPrintable(t.error()));
    return t.value();
}

// Short timeouts, so that a dead bastion is found in about two seconds; host keys trusted in
// knownHostsFile (a file of the test's own).
inline ssh::SshOptions sshTestOptions(const QString &knownHostsFile)
{
    ssh::SshOptions options;
    options.knownHostsFile = knownHostsFile;
    options.connectTimeoutSec = 5;
    options.aliveIntervalSec = 1;
    options.aliveCountMax = 2;
    return options;
}

// A tunnel to sshd, up, its host key trusted first when it was unknown (as a user does after
// comparing the fingerprint). nullptr, with a warning saying why, when it cannot be.
template<class Pointer = std::unique_ptr<ssh::SshTunnel>>
Pointer trustedTunnel(const Sshd &sshd, const QString &knownHostsFile, const QString &identity = {})
{
    Pointer t(new ssh::SshTunnel(sshTarget(sshd, identity), sshTestOptions(knownHostsFile)));
    t->start();
    if (t->waitUntilSettled(20000))
        return t;
    if (t->error().kind == ssh::SshFailure::HostKeyUnknown) {
        const auto trusted = t->trustHostKey(sshd.hostKeyFingerprint());
        if (!trusted)
            qWarning("%s", qPrintable(trusted.error().message.english));
        t->start();
        if (t->waitUntilSettled(20000))
            return t;
    }
    qWarning("tunnel not up: %s\n%s", qPrintable(t->error().message.english),
             qPrintable(t->error().sshOutput));
    return nullptr;
}

} // namespace testsupport
