// SPDX-License-Identifier: GPL-3.0-or-later
#include "SshError.h"

#include <QRegularExpression>

namespace ssh {

namespace {
// The tunnel's words, in one context for lupdate and the translator.
core::Sentence sshSaid(const char *source)
{
    return core::Sentence::translated("ssh::SshError", source);
}
} // namespace

QString failureName(SshFailure kind)
{
    switch (kind) {
    case SshFailure::None:
        return QStringLiteral("none");
    case SshFailure::InvalidTarget:
        return QStringLiteral("invalid target");
    case SshFailure::SshNotInstalled:
        return QStringLiteral("ssh not installed");
    case SshFailure::RuntimeDirectory:
        return QStringLiteral("runtime directory");
    case SshFailure::HostKeyUnknown:
        return QStringLiteral("host key unknown");
    case SshFailure::HostKeyChanged:
        return QStringLiteral("host key changed");
    case SshFailure::AuthenticationRefused:
        return QStringLiteral("authentication refused");
    case SshFailure::BastionUnreachable:
        return QStringLiteral("bastion unreachable");
    case SshFailure::BastionRefused:
        return QStringLiteral("bastion refused");
    case SshFailure::BastionTimedOut:
        return QStringLiteral("bastion timed out");
    case SshFailure::ForwardRefused:
        return QStringLiteral("forward refused");
    case SshFailure::TunnelDied:
        return QStringLiteral("tunnel died");
    case SshFailure::TrustRefused:
        return QStringLiteral("trust refused");
    case SshFailure::Other:
        return QStringLiteral("other");
    }
    return {};
}

static QString stripDebug(const QString &line)
{
    static const QRegularExpression prefix(QStringLiteral("^debug\\d: "));
    return QString(line).remove(prefix);
}

OffendingLine offendingKnownHostsLine(const QStringList &stderrLines)
{
    static const QRegularExpression offending(QStringLiteral("^Offending \\S+ key in (.+):(\\d+)"));
    for (const QString &line : stderrLines)
        if (const auto m = offending.match(stripDebug(line).trimmed()); m.hasMatch())
            return {m.captured(1), m.captured(2).toInt()};
    return {};
}

// The "Server host key: TYPE SHA256:..." line ssh -v writes last before `index`.
static void offeredKeyBefore(const QStringList &lines, qsizetype index, HostKeyInfo &info)
{
    static const QRegularExpression serverKey(
        QStringLiteral("Server host key: (\\S+) (SHA256:[A-Za-z0-9+/=]+)"));
    for (qsizetype i = index; i >= 0; --i)
        if (const auto m = serverKey.match(lines.at(i)); m.hasMatch()) {
            info.keyType = m.captured(1);
            info.offeredFingerprint = m.captured(2);
            return;
        }
}

static QString tail(const QStringList &lines)
{
    QStringList kept;
    for (const QString &line : lines)
        if (!line.startsWith(QStringLiteral("debug")))
            kept << line;
    return kept.mid(qMax(0, int(kept.size()) - 12)).join(QLatin1Char('\n'));
}

// A refused host key, unknown or changed, named with the host that offered it: true when the
// output says so.
static bool classifyHostKey(const QStringList &lines, const QString &bastionName,
                            const QString &jumpName, SshError &e)
{
    static const QRegularExpression unknownKey(
        QStringLiteral("No (\\S+) host key is known for (\\S+) and you have requested strict"));
    static const QRegularExpression changedKey(QStringLiteral("Host key for (\\S+) has changed"));
    const auto whose = [&](const QString &name) {
        e.hostKey.host = name;
        e.hostKey.onJumpHost = !jumpName.isEmpty() && name != bastionName;
        return e.hostKey.onJumpHost
                   ? sshSaid(QT_TRANSLATE_NOOP("ssh::SshError", "jump host %1")).arg(name)
                   : sshSaid(QT_TRANSLATE_NOOP("ssh::SshError", "bastion %1")).arg(name);
    };
    bool changed = false;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = stripDebug(lines.at(i));
        if (line.contains(QStringLiteral("REMOTE HOST IDENTIFICATION HAS CHANGED")))
            changed = true;
        if (const auto m = changedKey.match(line); m.hasMatch()) {
            e.kind = SshFailure::HostKeyChanged;
            const core::Sentence who = whose(m.captured(1));
            offeredKeyBefore(lines, i, e.hostKey);
            e.say(sshSaid(QT_TRANSLATE_NOOP(
                              "ssh::SshError",
                              "The %1 offered a different host key (%2 %3) than the one trusted "
                              "before. Someone may be intercepting the connection, or the host "
                              "was reinstalled: ask its administrator for the new fingerprint "
                              "before going on."))
                      .arg(who, e.hostKey.keyType, e.hostKey.offeredFingerprint));
            return true;
        }
        if (const auto m = unknownKey.match(line); m.hasMatch() && !changed) {
            e.kind = SshFailure::HostKeyUnknown;
            const core::Sentence who = whose(m.captured(2));
            offeredKeyBefore(lines, i, e.hostKey);
            e.say(sshSaid(QT_TRANSLATE_NOOP("ssh::SshError",
                                            "The %1 offered a host key the console does not "
                                            "know (%2 %3). Compare this fingerprint with one "
                                            "obtained from the host's administrator, then trust "
                                            "it, or stop."))
                      .arg(who, e.hostKey.keyType, e.hostKey.offeredFingerprint));
            return true;
        }
    }
    return false;
}

// Every other start failure, from what ssh said (its debug lines aside).
static void classifyConnectFailure(const QStringList &lines, SshError &e)
{
    const auto has = [&](const char *text) {
        for (const QString &line : lines)
            if (!line.startsWith(QStringLiteral("debug"))
                && line.contains(QLatin1String(text), Qt::CaseInsensitive))
                return true;
        return false;
    };
    if (has("Permission denied (") || has("Too many authentication failures")) {
        e.kind = SshFailure::AuthenticationRefused;
        e.say(sshSaid(QT_TRANSLATE_NOOP(
            "ssh::SshError",
            "The SSH server refused every key offered. Check the user name, that the public key "
            "is in the server's authorized_keys, and that the key is loaded in ssh-agent "
            "(ssh-add) or named as the identity file; a key with a passphrase must be in the "
            "agent.")));
        if (has("incorrect passphrase"))
            e.add(sshSaid(QT_TRANSLATE_NOOP("ssh::SshError",
                                            "The passphrase given for the identity file is "
                                            "wrong.")));
        if (has("UNPROTECTED PRIVATE KEY FILE"))
            e.add(sshSaid(QT_TRANSLATE_NOOP("ssh::SshError",
                                            "The identity file is readable by others, so ssh "
                                            "ignored it: chmod 600 it.")));
    } else if (has("Connection refused")) {
        e.kind = SshFailure::BastionRefused;
        e.say(sshSaid(QT_TRANSLATE_NOOP("ssh::SshError",
                                        "Nothing accepts SSH connections at that address and "
                                        "port: check the bastion's host and port.")));
    } else if (has("timed out")) {
        e.kind = SshFailure::BastionTimedOut;
        e.say(sshSaid(QT_TRANSLATE_NOOP("ssh::SshError",
                                        "The SSH server did not answer in time: check the "
                                        "address, the VPN or firewall, or raise the connect "
                                        "timeout.")));
    } else if (has("Network is unreachable") || has("No route to host")
               || has("Could not resolve hostname") || has("Name or service not known")
               || has("Temporary failure in name resolution")) {
        e.kind = SshFailure::BastionUnreachable;
        e.say(sshSaid(QT_TRANSLATE_NOOP("ssh::SshError",
                                        "The bastion cannot be reached from this machine (no "
                                        "route, or its name is unknown): check the host and the "
                                        "network.")));
    } else if (has("kex_exchange_identification") || has("Connection closed by")
               || has("Connection reset")) {
        e.kind = SshFailure::BastionUnreachable;
        e.say(sshSaid(QT_TRANSLATE_NOOP("ssh::SshError",
                                        "The connection closed before SSH began: the port may "
                                        "not be an SSH server's, or a jump host failed (see the "
                                        "details).")));
    } else {
        e.kind = SshFailure::Other;
        e.say(sshSaid(QT_TRANSLATE_NOOP("ssh::SshError",
                                        "ssh could not open the tunnel (see the details).")));
    }
}

SshError classifyStartFailure(const QStringList &lines, const QString &bastionName,
                              const QString &jumpName)
{
    SshError e;
    e.sshOutput = tail(lines);
    if (classifyHostKey(lines, bastionName, jumpName, e))
        return e;
    classifyConnectFailure(lines, e);
    if (!jumpName.isEmpty())
        e.add(sshSaid(QT_TRANSLATE_NOOP("ssh::SshError",
                                        "The connection goes through the jump host %1."))
                  .arg(jumpName));
    return e;
}

} // namespace ssh
