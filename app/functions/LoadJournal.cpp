#include "LoadJournal.h"

#include "LibraryVersion.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <algorithm>
#include <unistd.h>

namespace functions {

namespace {

QString fileName(const QString &address, const QString &library)
{
    // host:port and [::1]:port become file-name safe; the library name is [A-Za-z0-9_].
    QString a = address;
    for (QChar &c : a)
        if (!c.isLetterOrNumber() && c != QLatin1Char('.') && c != QLatin1Char('-'))
            c = QLatin1Char('_');
    return QStringLiteral("%1-%2.json").arg(a, library);
}

} // namespace

QString LoadJournalEntry::notice(const redis::LibraryInfo *now, const QString &readError) const
{
    const QString state =
        !readError.isEmpty()
            ? QStringLiteral("what %1 holds now is unknown (could not read FUNCTION LIST: %2)")
                  .arg(address, readError)
        : now
            ? QStringLiteral("%1 now has %2").arg(address, versionLabel(libraryVersion(now->code)))
            : QStringLiteral("%1 now has no library %2").arg(address, library);
    return QStringLiteral("a %1 of %2 %3 was interrupted at %4 UTC (backup %5); %6")
        .arg(action, library, toVersion,
             started.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")), backupPath, state);
}

QString loadJournalDirectory(const QString &backupDirectory)
{
    return QDir(backupDirectory).filePath(QStringLiteral("load-journal"));
}

core::Result<bool, QString> writeLoadJournal(const QString &backupDirectory,
                                             LoadJournalEntry &entry)
{
    const QString dir = loadJournalDirectory(backupDirectory);
    if (!QDir().mkpath(dir))
        return QStringLiteral("cannot create %1").arg(dir);
    const QString target = QDir(dir).filePath(fileName(entry.address, entry.library));
    const QByteArray json =
        QJsonDocument(QJsonObject{{QStringLiteral("address"), entry.address},
                                  {QStringLiteral("library"), entry.library},
                                  {QStringLiteral("action"), entry.action},
                                  {QStringLiteral("from"), entry.fromVersion},
                                  {QStringLiteral("to"), entry.toVersion},
                                  {QStringLiteral("backup"), entry.backupPath},
                                  {QStringLiteral("started"),
                                   entry.started.toUTC().toString(Qt::ISODateWithMs)}})
            .toJson(QJsonDocument::Compact);
    QSaveFile f(target);
    if (!f.open(QIODevice::WriteOnly) || f.write(json) != json.size() || !f.flush()
        || ::fsync(f.handle()) != 0 || !f.commit())
        return QStringLiteral("cannot write %1: %2").arg(target, f.errorString());
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
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        QFile f(dir.filePath(name));
        if (!f.open(QIODevice::ReadOnly) || f.size() > 64 * 1024)
            continue;
        const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        LoadJournalEntry e;
        e.address = o.value(QStringLiteral("address")).toString();
        if (e.address != address)
            continue;
        e.library = o.value(QStringLiteral("library")).toString();
        e.action = o.value(QStringLiteral("action")).toString();
        e.fromVersion = o.value(QStringLiteral("from")).toString();
        e.toVersion = o.value(QStringLiteral("to")).toString();
        e.backupPath = o.value(QStringLiteral("backup")).toString();
        e.started =
            QDateTime::fromString(o.value(QStringLiteral("started")).toString(), Qt::ISODateWithMs);
        e.path = f.fileName();
        out << e;
    }
    std::sort(out.begin(), out.end(), [](const LoadJournalEntry &a, const LoadJournalEntry &b) {
        return a.started < b.started;
    });
    return out;
}

} // namespace functions
