// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Wording.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

namespace ssh {

// Why a tunnel could not be opened, or stopped. Each kind has a message that says what to do.
enum class SshFailure {
    None,
    InvalidTarget,         // the profile's SSH fields (see SshTarget)
    SshNotInstalled,       // no ssh client (Debian: openssh-client)
    RuntimeDirectory,      // the private directory for the control socket
    HostKeyUnknown,        // no key known for the host: compare and trust it, or stop
    HostKeyChanged,        // a different key than the one trusted: maybe an attack
    AuthenticationRefused, // the bastion refused every key
    BastionUnreachable,    // no route, no such name
    BastionRefused,        // nothing listens on that port
    BastionTimedOut,       // no answer within the connect timeout
    ForwardRefused,        // the master could not listen locally, or forward
    TunnelDied,            // the master exited after it was up (ssh killed, bastion gone)
    TrustRefused,          // trustHostKey: the key offered is not the one named
    Other,
};

// The host key ssh was offered, and the one trusted before when it changed.
struct HostKeyInfo
{
    QString host;               // as ssh names it in known_hosts: host or [host]:port
    QString keyType;            // ssh-ed25519, ecdsa-sha2-nistp256, ssh-rsa ...
    QString offeredFingerprint; // SHA256:...
    QString knownFingerprint;   // HostKeyChanged: the fingerprint trusted before
    QString knownHostsFile;     // the console's known_hosts file
    bool onJumpHost = false;    // the key is the jump host's, not the bastion's
};

struct SshError
{
    SshFailure kind = SshFailure::None;
    core::Sentence message; // what happened and what to do next
    HostKeyInfo hostKey;    // HostKeyUnknown, HostKeyChanged, TrustRefused
    QString sshOutput;      // the last lines ssh wrote, for a details pane (no secrets in them)

    const core::Sentence &why() const { return message; }
    void say(const core::Sentence &s) { message = s; }
    // Appends a whole sentence of its own to both copies.
    void add(const core::Sentence &s) { message = core::joined({message, s}, QStringLiteral(" ")); }

    bool isHostKeyProblem() const
    {
        return kind == SshFailure::HostKeyUnknown || kind == SshFailure::HostKeyChanged;
    }
};

// The name of a kind, for logs and tests ("host key unknown").
QString failureName(SshFailure kind);

// Classifies what an ssh master wrote to stderr (ssh -v) before it exited at start-up, for
// the host `bastion` (its known_hosts name) and the optional jump host's. The known
// fingerprint of a changed key is not in ssh's output (only the offending known_hosts line);
// the caller fills it.
SshError classifyStartFailure(const QStringList &stderrLines, const QString &bastionName,
                              const QString &jumpName);

// "file:line" of the known_hosts entry ssh calls offending, from "Offending ED25519 key in
// /path/known_hosts:3"; line 0 when none.
struct OffendingLine
{
    QString file;
    int line = 0;
};
OffendingLine offendingKnownHostsLine(const QStringList &stderrLines);

} // namespace ssh

Q_DECLARE_METATYPE(ssh::SshError)
