// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "core/Wording.h"

#include <QString>
#include <optional>

namespace ssh {

// One SSH host as the user wrote it: `[user@]host[:port]`, or `[user@][v6 address]:port`.
// Nothing is looked up: ssh connects to what is written (a Host alias when the profile uses
// ~/.ssh/config). port 0 means "not written": 22, or what ~/.ssh/config says.
struct SshEndpoint
{
    QString user; // empty: ssh's default (the local user, or ~/.ssh/config's User)
    QString host;
    quint16 port = 0;

    // `user@host[:port]` as written back (IPv6 in brackets when a port follows).
    QString display() const;
    // The form ssh's -J takes: `[user@]host[:port]`, IPv6 in brackets.
    QString jumpSpec() const;
    // The name ssh looks up in known_hosts: `host`, or `[host]:port` for a port other than 22.
    QString knownHostsName() const;
};

// The SSH part of a connection profile.
struct SshTarget
{
    SshEndpoint bastion;
    std::optional<SshEndpoint> jump;
    QString identityFile;      // empty: the agent (or ~/.ssh/config's IdentityFile)
    bool useSshConfig = false; // read ~/.ssh/config: a Host alias works as the bastion
};

// What a profile or the command line holds, before validation.
struct SshTargetInput
{
    QString bastion;
    QString jump;
    QString identityFile;
    bool useSshConfig = false;
};

// Parses `[user@]host[:port]`. `what` names the field in the message ("bastion", "jump host").
// Refused: empty, whitespace or control characters anywhere, a user or host beginning with
// '-' (ssh would read it as an option), characters outside a host name or address, a port
// outside 1..65535. No DNS lookup.
// The problem in English (the CLI, the log) unless the window asks for its own language.
core::Result<SshEndpoint, QString> parseEndpoint(const QString &text, const QString &what,
                                                 core::Wording wording = core::Wording::English);

// Whether `host` may be handed to ssh as a host name, an IPv4 or an IPv6 address (without
// brackets): empty when it may, else why not. Used for the hosts a forward reaches too.
QString hostProblem(const QString &host);
// The same in both copies.
core::Sentence hostProblemSentence(const QString &host);

// The whole target: both endpoints, and the identity file, which must be a regular readable
// file (a FIFO or a device is refused without being opened).
core::Result<SshTarget, QString> parseTarget(const SshTargetInput &input,
                                             core::Wording wording = core::Wording::English);

} // namespace ssh
