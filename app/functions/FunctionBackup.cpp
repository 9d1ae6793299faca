// SPDX-License-Identifier: GPL-3.0-or-later
#include "FunctionBackup.h"

#include "core/DataPaths.h"
#include "core/RegularFile.h"

#include "FunctionsLog.h"
#include "LibraryVersion.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>

namespace functions {

namespace {

// What a backup says in both copies: the window's language for the rollback dialog and the
// Libraries tab's warning, English for the CLI and the log.
core::Sentence backupSaid(const char *source)
{
    return core::Sentence::translated("functions::FunctionBackup", source);
}

// Eight random hex digits, so that names made by two runs never collide.
QString runSuffix()
{
    return QString::number(QRandomGenerator::system()->generate(), 16).rightJustified(8, u'0');
}

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

} // namespace

const redis::LibraryInfo *NodeBackup::library(const QString &name) const
{
    for (const redis::LibraryInfo &l : libraries)
        if (l.name == name)
            return &l;
    return nullptr;
}

const NodeBackup *FunctionBackup::node(const QString &address) const
{
    for (const NodeBackup &n : nodes)
        if (n.address == address)
            return &n;
    return nullptr;
}

QByteArray FunctionBackup::toJson() const
{
    QJsonArray nodeArray;
    for (const NodeBackup &n : nodes) {
        QJsonArray libs;
        for (const redis::LibraryInfo &l : n.libraries)
            libs.append(QJsonObject{
                {QStringLiteral("name"), l.name},
                {QStringLiteral("engine"), l.engine},
                {QStringLiteral("version"), libraryVersion(l.code)},
                {QStringLiteral("sha256"), QString::fromLatin1(codeFingerprint(l.code))},
                {QStringLiteral("code"), QString::fromUtf8(l.code)}});
        nodeArray.append(QJsonObject{
            {QStringLiteral("address"), n.address},
            {QStringLiteral("run_id"), n.runId},
            {QStringLiteral("redis_version"), n.redisVersion},
            {QStringLiteral("libraries"), libs},
            {QStringLiteral("dump_base64"), QString::fromLatin1(n.dump.toBase64())},
            {QStringLiteral("dump_sha256"), QString::fromLatin1(codeFingerprint(n.dump))}});
    }
    const QJsonObject o{{QStringLiteral("format"), QLatin1String(Format)},
                        {QStringLiteral("created"), created.toString(Qt::ISODateWithMs)},
                        {QStringLiteral("library"), library},
                        {QStringLiteral("action"), action},
                        {QStringLiteral("profile"), profile},
                        {QStringLiteral("environment"), environment},
                        {QStringLiteral("nodes"), nodeArray}};
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

core::Result<FunctionBackup, core::Sentence> FunctionBackup::fromJson(const QByteArray &json)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &err);
    // Where, not Qt's errorString(): that is translated by Qt's own catalogue, which would put
    // the window's language into the English copy.
    if (err.error != QJsonParseError::NoError)
        return backupSaid(QT_TRANSLATE_NOOP("functions::FunctionBackup",
                                            "not a backup file: not valid JSON (at byte %1)"))
            .arg(err.offset);
    if (!doc.isObject())
        return backupSaid(QT_TRANSLATE_NOOP("functions::FunctionBackup",
                                            "not a backup file: the JSON is not an object"));
    const QJsonObject o = doc.object();
    if (str(o, "format") != QLatin1String(Format))
        return backupSaid(QT_TRANSLATE_NOOP("functions::FunctionBackup",
                                            "not a backup file (format '%1')"))
            .arg(str(o, "format"));
    FunctionBackup b;
    b.created = QDateTime::fromString(str(o, "created"), Qt::ISODateWithMs);
    b.library = str(o, "library");
    b.action = str(o, "action");
    b.profile = str(o, "profile");
    b.environment = str(o, "environment");
    for (const QJsonValue &nv : o.value(QStringLiteral("nodes")).toArray()) {
        const QJsonObject n = nv.toObject();
        NodeBackup node;
        node.address = str(n, "address");
        node.runId = str(n, "run_id");
        node.redisVersion = str(n, "redis_version");
        node.dump = QByteArray::fromBase64(str(n, "dump_base64").toLatin1());
        if (QString::fromLatin1(codeFingerprint(node.dump)) != str(n, "dump_sha256"))
            return backupSaid(
                       QT_TRANSLATE_NOOP("functions::FunctionBackup",
                                         "the dump of node %1 is damaged (SHA-256 mismatch)"))
                .arg(node.address);
        for (const QJsonValue &lv : n.value(QStringLiteral("libraries")).toArray()) {
            const QJsonObject l = lv.toObject();
            redis::LibraryInfo lib;
            lib.name = str(l, "name");
            lib.engine = str(l, "engine");
            lib.code = str(l, "code").toUtf8();
            lib.hasCode = true;
            if (QString::fromLatin1(codeFingerprint(lib.code)) != str(l, "sha256"))
                return backupSaid(QT_TRANSLATE_NOOP("functions::FunctionBackup",
                                                    "the code of library %1 on node %2 is damaged "
                                                    "(SHA-256 mismatch)"))
                    .arg(lib.name, node.address);
            node.libraries << lib;
        }
        b.nodes << node;
    }
    if (b.library.isEmpty() || b.nodes.isEmpty())
        return backupSaid(QT_TRANSLATE_NOOP("functions::FunctionBackup",
                                            "the backup names no library or no node"));
    return b;
}

core::Result<FunctionBackup, core::Sentence> FunctionBackup::read(const QString &path)
{
    const auto bytes = core::readRegularFile(path, MaxFileBytes);
    if (!bytes)
        return bytes.error().message;
    auto b = fromJson(bytes.value());
    if (!b)
        return backupSaid(QT_TRANSLATE_NOOP("functions::FunctionBackup", "%1: %2"))
            .arg(path, b.error());
    b.value().path = path;
    return b;
}

core::Result<bool, core::Sentence> FunctionBackup::write(const QString &directory)
{
    if (!created.isValid())
        created = QDateTime::currentDateTimeUtc();
    // Unique per run: two changes started in the same millisecond each keep their own backup.
    const QString name =
        QStringLiteral("%1-%2-%3-%4.json")
            .arg(library, created.toUTC().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")), action,
                 runSuffix());
    const QString target = QDir(directory).filePath(name);
    if (QFile::exists(target))
        return backupSaid(QT_TRANSLATE_NOOP("functions::FunctionBackup",
                                            "a backup named %1 already exists"))
            .arg(target);
    const QByteArray json = toJson();
    // A backup that could not be read back is no backup: refused here, before any change.
    if (json.size() > MaxFileBytes)
        return backupSaid(
                   QT_TRANSLATE_NOOP("functions::FunctionBackup",
                                     "the backup would be %1 bytes, above the limit of %2 bytes "
                                     "that rollback reads; nothing was changed"))
            .arg(json.size(), MaxFileBytes);
    if (auto written = core::writePrivateFile(target, json); !written)
        return written.error();
    path = target;
    qCInfo(lcFunctions) << "backup written" << target;
    return true;
}

QString defaultBackupDirectory()
{
    return core::sharedDataDirectory() + QStringLiteral("/function-backups");
}

} // namespace functions
