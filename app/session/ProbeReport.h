// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "redis/ConnectionOptions.h"

#include "core/Result.h"
#include "core/Wording.h"
#include "overview/ServerIdentity.h"
#include "profiles/ConnectionProfile.h"
#include "redis/RespCodec.h"

#include <QJsonObject>
#include <QMetaType>

namespace session {

// Whether one ACL user may run one command, as ACL DRYRUN says. When the dry run itself
// cannot be run (no permission for ACL DRYRUN, a server before 7.0) the verdict is Unknown:
// the console never guesses.
struct PermissionCheck
{
    enum class Verdict { Allowed, Denied, Unknown };
    QString user;
    QString action; // "call inventory_deduct_v1", "load function libraries"
    Verdict verdict = Verdict::Unknown;
    // The server's reason when denied (its words), or why the verdict is unknown; the CLI
    // and --json print .english, the connection test .text.
    core::Sentence detail;
};
QString verdictName(PermissionCheck::Verdict v); // allowed | denied | unknown

// The release user's own login, tried when the caller has its password: a wrong password
// shows in the connection test, not halfway through a release.
struct ReleaseLogin
{
    bool tried = false;
    bool ok = false;
    QString user;
    core::Sentence failure; // why the login failed (never the password)
};

// One label/value line of a report, in display order.
struct ProbeRow
{
    QString label;
    QString value;
    bool warning = false; // something to look at (denied, unknown, eviction can drop receipts)
};

// What a connection test found.
struct ProbeReport
{
    QString address;
    bool tls = false;
    double latencyMs = 0;            // one PING round trip
    overview::ServerIdentity server; // product, version, mode
    QString role;                    // as INFO says: master | slave
    QString user;                    // ACL WHOAMI; empty when it failed (see userError)
    QString userError;
    QString expectedUser;   // the profile's user ("default" when none is set)
    QString evictionPolicy; // maxmemory_policy
    QList<PermissionCheck> permissions;
    ReleaseLogin release;

    QString roleLabel() const; // primary | replica
    bool evictionCanDropReceipts() const;
    QList<ProbeRow> rows() const;
    QJsonObject toJson() const;
};

// Why a connection test could not run. Each kind has its own message saying what to check.
struct ProbeFailure
{
    enum class Kind {
        HostNotFound,        // DNS: check the host name
        ResolverUnreachable, // DNS could not be asked: the name is neither found nor refused
        Refused,             // nothing listens: check the port, is Redis running
        Timeout,             // no answer: host, port, firewall
        Authentication,      // WRONGPASS: user name and password
        PasswordRequired,    // NOAUTH: a password is needed
        Tls,                 // handshake or verification: CA file, server name, TLS on the port
        Protocol,            // not Redis, or TLS mismatch
        Server,              // the server refused a command of the probe
        Other,
    };
    ProbeFailure() = default;
    ProbeFailure(Kind k, core::Sentence why)
        : kind(k)
        , message(std::move(why))
    {}

    Kind kind = Kind::Other;
    // Never contains the password; .english for the CLI, --json and the log.
    core::Sentence message;
};
QString failureKindName(ProbeFailure::Kind k); // host-not-found, refused, ...
// "wrong user name or password", ...: translated in the window, English in the CLI.
QString failureHeadline(ProbeFailure::Kind k);
QString englishFailureHeadline(ProbeFailure::Kind k); // the same, always English

using ProbeResult = core::Result<ProbeReport, ProbeFailure>;

// Maps the transport's connection failure text (RedisClient::stateDetail().english) to a kind. With
// TLS on, a silent server may be a plain-text port: the message says so.
// A probe command the server answered with an error (Server), or never answered (Timeout):
// "PING failed: ...".
ProbeFailure probeCommandFailed(const QString &command, const redis::RedisError &error);

// From the transport's typed failure; its detail (RedisClient::stateDetail()) becomes the
// message.
ProbeFailure classifyConnectionFailure(redis::ConnectFailure failure, const core::Sentence &detail,
                                       bool tls = false);

// The second round trip of a probe (the first is a lone PING, timed): INFO server,
// replication and memory, ACL WHOAMI, and ACL DRYRUN of FCALL inventory_deduct_v1 (with the
// profile's key shapes) and of FUNCTION LOAD REPLACE, for the user and the release user.
QList<redis::Command> probeCommands(const profiles::ConnectionProfile &profile);
core::Result<ProbeReport, ProbeFailure> decodeProbe(const profiles::ConnectionProfile &profile,
                                                    const QList<redis::ReplyResult> &replies);

// ACL DRYRUN of FCALL inventory_deduct_v1 with the profile's key shapes, for `user`; the
// action it checks is callAction() ("call inventory_deduct_v1").
redis::Command callDryRun(const profiles::ConnectionProfile &profile, const QString &user);
QString callAction();
// ACL DRYRUN of FUNCTION LOAD REPLACE for `user`; its action is loadAction().
redis::Command loadDryRun(const QString &user);
QString loadAction();

// One ACL DRYRUN reply as a verdict.
PermissionCheck decodeDryRun(const QString &user, const QString &action,
                             const redis::ReplyResult &reply);

} // namespace session

Q_DECLARE_METATYPE(session::ProbeResult)
