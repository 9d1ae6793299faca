// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFileSystemWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

namespace inventory {

// Says when the audit log at a path has changed on disk, whoever wrote it: this console, or
// inventory-cli in a terminal next to it. Watches the file and its folder, so a log that does
// not exist yet (or is created again) is picked up. Changes that come together are reported
// once.
class AuditLogWatcher : public QObject
{
    Q_OBJECT
public:
    explicit AuditLogWatcher(QObject *parent = nullptr);

    void setPath(const QString &path);
    QString path() const { return m_path; }

signals:
    void changed();

private:
    void watch();

    QString m_path;
    QFileSystemWatcher m_watcher;
    QTimer m_coalesce;
};

} // namespace inventory
