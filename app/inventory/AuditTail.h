// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <atomic>
#include <functional>

namespace inventory {

// Reads an append-only file (the audit log) a line at a time, remembering how far it got, so
// that each read costs only what was appended since the last one. A last line without its
// newline (a writer mid-append, or a record torn by a power loss) is left for the next read;
// a file that shrank or was replaced (rotated, restored) is read again from the start.
class AuditTail
{
public:
    explicit AuditTail(QString path = {});
    QString path() const { return m_path; }

    struct Read
    {
        bool restarted = false; // the file shrank or was replaced: what was read before is stale
        bool cancelled = false;
        qint64 bytes = 0; // bytes handed over as complete lines
        int lines = 0;
        QString error; // the file exists but could not be read
    };
    // offset: where the line starts in the file; lineNo: 1-based line number.
    using LineFn = std::function<void(qint64 offset, int lineNo, QByteArrayView line)>;
    using ProgressFn = std::function<void(qint64 done, qint64 total)>;

    // Hands every complete line appended since the last read to `line` (without its newline),
    // at most about `maxBytes` of them (-1: all). `restarted` is set, before any line is handed
    // over, when the file is not the one read before. `cancel` is checked between blocks.
    Read readAppended(const LineFn &line, qint64 maxBytes = -1,
                      const std::atomic_bool *cancel = nullptr, const ProgressFn &progress = {});

    qint64 offset() const { return m_offset; } // the end of the last complete line read
    // Bytes in the file after offset() (what the next read would look at), or -1 when the file
    // is not the one read before.
    qint64 pendingBytes() const;
    // Non-empty while the file ends in a line with no newline: the text of a note saying so.
    QString incompleteLastLine() const;

private:
    bool sameFile(int fd, qint64 size) const;
    void restart();

    QString m_path;
    qint64 m_offset = 0;
    int m_lineNo = 0;
    quint64 m_device = 0, m_inode = 0;
    QByteArray m_before;    // the bytes just before m_offset, to notice a file rewritten in place
    qint64 m_tailBytes = 0; // bytes after the last newline at the last read
};

} // namespace inventory
