// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "redis/LibraryList.h"
#include "redis/RespCodec.h"

#include <QHash>
#include <optional>

namespace readiness {

// A read that may have been refused: the value, or one sentence saying why it is missing
// ("the user may not run CONFIG GET (NOPERM): grant +config|get"). Rules turn a missing
// read into "could not check", never into a pass.
template<class T>
struct Read
{
    std::optional<T> value;
    QString missing; // set when value is empty
    bool ok() const { return value.has_value(); }
};

// What the audit reads from the node it is connected to, in one round trip (see
// serverCommands()).
struct ServerRead
{
    QString node;                                    // host:port
    QString user;                                    // whose load permission ACL DRYRUN asked about
    Read<QHash<QString, QString>> config;            // CONFIG GET of the audited parameters
    Read<QHash<QByteArray, QByteArray>> persistence; // INFO persistence
    Read<QHash<QByteArray, QByteArray>> replication; // INFO replication
    // ACL DRYRUN <user> FUNCTION LOAD ...: true when the user may load libraries.
    Read<bool> mayLoad;
    QString loadDenial; // the server's reason when it may not
};

// The libraries one primary holds (FUNCTION LIST WITHCODE).
struct NodeLibraries
{
    QString node;
    Read<QList<redis::LibraryInfo>> libraries;
};

// The CONFIG parameters the rules read.
QList<QByteArray> auditedParameters();
// The batch sent to every primary: CONFIG GET (all parameters in one command), INFO
// persistence, INFO replication, FUNCTION LIST WITHCODE, ACL DRYRUN <user> FUNCTION LOAD.
QList<redis::Command> serverCommands(const QString &user);
// Decodes that batch's replies; `libraries` gets the FUNCTION LIST part.
ServerRead decodeServer(const QString &node, const QString &user,
                        const QList<redis::ReplyResult> &replies, NodeLibraries *libraries);
// FUNCTION LIST WITHCODE, part of that batch.
redis::Command libraryCommand();
NodeLibraries decodeLibraries(const QString &node, const redis::ReplyResult &reply);

// "the user may not run CONFIG GET (NOPERM): grant it +config|get, or audit as an admin
// user", "CONFIG is renamed or disabled on this server", "no reply: timeout ...".
QString refusalSentence(const QString &command, const QString &permission,
                        const redis::RedisError &e);

} // namespace readiness
