// SPDX-License-Identifier: GPL-3.0-or-later
#include "LoadJournal.h"

#include "FunctionsLog.h"
#include "LibraryVersion.h"
#include "core/DataPaths.h"
#include "core/RegularFile.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>

#include <algorithm>
#include <cerrno>
#include <signal.h>

namespace functions {

namespace {

constexpr qint64 MaxJournalBytes = 64 * 1024;

QString fileName(const QString &address, const QString &library)
{
    // host:port and [::1]:port become file-name safe; the library name is [A-Za-z0-9_]. One
    // file per run (the time, this process and a random part): two changes of the same
    // library on the same node never share, overwrite or remove each other's journal.
    QString a = address;
    for (QChar &c : a)
        if (!c.isLetterOrNumber() && c != QLatin1Char('.') && c != QLatin1Char('-'))
            c = QLatin1Char('_');
    return QStringLiteral("%1-%2-%3-%4-%5.json")
        .arg(a, library,
             QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")))
        .arg(QCoreApplication::applicationPid())
        .arg(QString::number(QRandomGenerator::system()->generate(), 16));
}

// A journal whose writer still runs on this machine is a change in flight, not an interrupted
// one: it is neither reported nor removed (the journals are in this machine's data directory).
bool writerStillRuns(qint64 pid)
{
    return pid > 0 && (::kill(pid_t(pid), 0) == 0 || errno == EPERM);
}

// One whole sentence per action (the word order differs by language); empty for an action
// this build does not know.
core::Sentence interruptedSentence(const QString &action)
{
    using core::Sentence;
    const char *ctx = "functions::LoadJournal";
    if (action == QLatin1String("load"))
        return Sentence::translated(ctx, QT_TRANSLATE_NOOP("functions::LoadJournal",
                                                           "a load of %1 %2 was interrupted at "
                                                           "%3 UTC (backup %4); %5"));
    if (action == QLatin1String("delete"))
        return Sentence::translated(ctx, QT_TRANSLATE_NOOP("functions::LoadJournal",
                                                           "a delete of %1 %2 was interrupted at "
                                                           "%3 UTC (backup %4); %5"));
    if (action == QLatin1String("rollback"))
        return Sentence::translated(ctx, QT_TRANSLATE_NOOP("functions::LoadJournal",
                                                           "a rollback of %1 %2 was interrupted "
                                                           "at %3 UTC (backup %4); %5"));
    if (action == QLatin1String("restore"))
        return Sentence::translated(ctx, QT_TRANSLATE_NOOP("functions::LoadJournal",
                                                           "a restore of %1 %2 was interrupted "
                                                           "at %3 UTC (backup %4); %5"));
    return {};
}

} // namespace

core::Sentence LoadJournalEntry::notice(const redis::LibraryInfo *now,
                                        const QString &readError) const
{
    using core::Sentence;
    const char *ctx = "functions::LoadJournal";
    const QString version = now ? libraryVersion(now->code) : QString();
    const Sentence state =
        !readError.isEmpty()
            ? Sentence::translated(ctx, QT_TRANSLATE_NOOP("functions::LoadJournal",
                                                          "what %1 holds now is unknown (could "
                                                          "not read FUNCTION LIST: %2)"))
                  .arg(address, readError)
        : !now ? Sentence::translated(
                     ctx, QT_TRANSLATE_NOOP("functions::LoadJournal", "%1 now has no library %2"))
                     .arg(address, library)
        : version.isEmpty()
            ? Sentence::translated(ctx, QT_TRANSLATE_NOOP("functions::LoadJournal",
                                                          "%1 now has %2 without a version line"))
                  .arg(address, library)
            : Sentence::translated(ctx,
                                   QT_TRANSLATE_NOOP("functions::LoadJournal", "%1 now has %2"))
                  .arg(address, version);
    const QString when = started.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    const Sentence known = interruptedSentence(action);
    if (!known.isEmpty())
        return known.arg(library, toVersion, when, backupPath, state);
    // An action from an older or newer journal is named as written.
    return Sentence::translated(ctx, QT_TRANSLATE_NOOP("functions::LoadJournal",
                                                       "a %1 of %2 %3 was interrupted at %4 UTC "
                                                       "(backup %5); %6"))
        .arg(action, library, toVersion, when, backupPath, state);
}

QString loadJournalDirectory(const QString &backupDirectory)
{
    return QDir(backupDirectory).filePath(QStringLiteral("load-journal"));
}

core::Result<bool, core::Sentence> writeLoadJournal(const QString &backupDirectory,
                                                    LoadJournalEntry &entry)
{
    const QString dir = loadJournalDirectory(backupDirectory);
    const QString target = QDir(dir).filePath(fileName(entry.address, entry.library));
    const QByteArray json =
        QJsonDocument(
            QJsonObject{
                {QStringLiteral("address"), entry.address},
                {QStringLiteral("library"), entry.library},
                {QStringLiteral("action"), entry.action},
                {QStringLiteral("from"), entry.fromVersion},
                {QStringLiteral("to"), entry.toVersion},
                {QStringLiteral("backup"), entry.backupPath},
                {QStringLiteral("pid"), entry.pid ? entry.pid : QCoreApplication::applicationPid()},
                {QStringLiteral("started"), entry.started.toUTC().toString(Qt::ISODateWithMs)}})
            .toJson(QJsonDocument::Compact);
    if (auto written = core::writePrivateFile(target, json); !written)
        return written.error();
    entry.path = target;
    return true;
}

void clearLoadJournal(const LoadJournalEntry &entry)
{
    if (!entry.path.isEmpty())
        QFile::remove(entry.path);
}

QList<LoadJournalEntry> pendingLoadJournals(const QString &backupDirectory, const QString &address)
{
    QList<LoadJournalEntry> out;
    const QDir dir(loadJournalDirectory(backupDirectory));
    for (const QString &name :
         dir.entryList({QStringLiteral("*.json")}, QDir::Files | QDir::System)) {
        // Only a regular file we could have written: a link to /dev/zero or a huge file in
        // the folder is skipped, never read without end.
        const auto bytes =
            core::readRegularFile(dir.filePath(name), MaxJournalBytes, core::Links::Refuse);
        if (!bytes) {
            qCWarning(lcFunctions) << "load journal skipped:" << bytes.error().message.english;
            continue;
        }
        const QJsonObject o = QJsonDocument::fromJson(bytes.value()).object();
        LoadJournalEntry e;
        e.address = o.value(QStringLiteral("address")).toString();
        e.pid = o.value(QStringLiteral("pid")).toInteger();
        if (e.address != address || writerStillRuns(e.pid))
            continue;
        e.library = o.value(QStringLiteral("library")).toString();
        e.action = o.value(QStringLiteral("action")).toString();
        e.fromVersion = o.value(QStringLiteral("from")).toString();
        e.toVersion = o.value(QStringLiteral("to")).toString();
        e.backupPath = o.value(QStringLiteral("backup")).toString();
        e.started =
            QDateTime::fromString(o.value(QStringLiteral("started")).toString(), Qt::ISODateWithMs);
        e.path = dir.filePath(name);
        out << e;
    }
    std::sort(out.begin(), out.end(), [](const LoadJournalEntry &a, const LoadJournalEntry &b) {
        return a.started < b.started;
    });
    return out;
}

} // namespace functions
