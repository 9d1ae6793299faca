// SPDX-License-Identifier: GPL-3.0-or-later
#include "AuditLogWatcher.h"

#include <QFileInfo>

namespace inventory {

AuditLogWatcher::AuditLogWatcher(QObject *parent)
    : QObject(parent)
{
    // A deduction appends an attempt and then its outcome: one reload for both.
    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(100);
    connect(&m_coalesce, &QTimer::timeout, this, &AuditLogWatcher::changed);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, [this] {
        watch(); // a file replaced by a rename is no longer watched
        m_coalesce.start();
    });
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, [this] {
        // The folder changes for many files: only the log's own appearance matters.
        if (!m_watcher.files().contains(m_path) && QFileInfo::exists(m_path)) {
            watch();
            m_coalesce.start();
        }
    });
}

void AuditLogWatcher::setPath(const QString &path)
{
    if (const QStringList watched = m_watcher.files() + m_watcher.directories(); !watched.isEmpty())
        m_watcher.removePaths(watched);
    m_path = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    watch();
}

void AuditLogWatcher::watch()
{
    if (m_path.isEmpty())
        return;
    const QString folder = QFileInfo(m_path).absolutePath();
    if (!m_watcher.directories().contains(folder) && QFileInfo(folder).isDir())
        m_watcher.addPath(folder);
    if (!m_watcher.files().contains(m_path) && QFileInfo(m_path).isFile())
        m_watcher.addPath(m_path);
}

} // namespace inventory
