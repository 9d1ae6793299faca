// SPDX-License-Identifier: GPL-3.0-or-later
// The audit log watcher says when the log changed on disk, whoever wrote it: a log that does
// not exist yet is picked up when it appears, an append by another process is seen, and a log
// replaced by a rename is still watched.
#include "inventory/AuditLogWatcher.h"

#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

class TstAuditLogWatcher : public QObject
{
    Q_OBJECT

    static bool append(const QString &path, const QByteArray &line)
    {
        QFile f(path);
        return f.open(QIODevice::Append) && f.write(line) == line.size();
    }

private slots:
    void seesTheLogAppearAndGrow()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("audit.jsonl");
        inventory::AuditLogWatcher watcher;
        watcher.setPath(path);
        QSignalSpy changed(&watcher, &inventory::AuditLogWatcher::changed);

        QVERIFY(append(path, "{\"a\":1}\n")); // created
        QVERIFY(changed.wait(10000));

        // Appended by another process, as inventory-cli does next to the console.
        changed.clear();
        QCOMPARE(QProcess::execute("sh", {"-c", "printf '{\"b\":2}\\n' >> \"$0\"", path}), 0);
        QVERIFY(changed.wait(10000));

        // Replaced by a rename (an editor, a restore): the new file is watched too.
        changed.clear();
        const QString other = dir.filePath("other.jsonl");
        QVERIFY(append(other, "{\"c\":3}\n"));
        QVERIFY(QFile::remove(path));
        QVERIFY(QFile::rename(other, path));
        QVERIFY(changed.wait(10000));
        changed.clear();
        QVERIFY(append(path, "{\"d\":4}\n"));
        QVERIFY(changed.wait(10000));
    }
};

QTEST_GUILESS_MAIN(TstAuditLogWatcher)
#include "tst_audit_log_watcher.moc"
