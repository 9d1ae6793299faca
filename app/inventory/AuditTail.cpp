// SPDX-License-Identifier: GPL-3.0-or-later
#include "AuditTail.h"

#include <QCoreApplication>
#include <QFile>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace inventory {

namespace {
// What could not be read, for the audit viewer's banner.
struct AuditTailText
{
    Q_DECLARE_TR_FUNCTIONS(inventory::AuditLog)
};
} // namespace

namespace {
constexpr qint64 BlockBytes = 1 << 20;
constexpr qint64 FingerprintBytes = 64;

struct Fd
{
    int fd;
    ~Fd()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

qint64 readAt(int fd, char *into, qint64 bytes, qint64 at)
{
    qint64 done = 0;
    while (done < bytes) {
        const ssize_t n = ::pread(fd, into + done, size_t(bytes - done), off_t(at + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += n;
    }
    return done;
}
} // namespace

AuditTail::AuditTail(QString path)
    : m_path(std::move(path))
{}

void AuditTail::restart()
{
    m_offset = 0;
    m_lineNo = 0;
    m_before.clear();
    m_tailBytes = 0;
}

bool AuditTail::sameFile(int fd, qint64 size) const
{
    if (m_offset == 0)
        return true;
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0 || quint64(st.st_dev) != m_device || quint64(st.st_ino) != m_inode)
        return false; // replaced: rotated, or restored from a copy
    if (size < m_offset)
        return false; // truncated
    // Same inode, long enough: rewritten in place still shows in the bytes we stopped after.
    QByteArray now(m_before.size(), Qt::Uninitialized);
    return readAt(fd, now.data(), now.size(), m_offset - now.size()) == now.size()
           && now == m_before;
}

qint64 AuditTail::pendingBytes() const
{
    const Fd f{::open(QFile::encodeName(m_path).constData(), O_RDONLY | O_CLOEXEC)};
    if (f.fd < 0)
        return m_offset == 0 ? 0 : -1;
    struct stat st
    {
    };
    if (::fstat(f.fd, &st) != 0 || !sameFile(f.fd, st.st_size))
        return -1;
    return qint64(st.st_size) - m_offset;
}

QString AuditTail::incompleteLastLine() const
{
    if (m_tailBytes == 0)
        return {};
    return QStringLiteral("line %1: incomplete (%2 bytes, no newline yet): a write in progress, "
                          "or a record torn by a power loss; it is read once it ends")
        .arg(m_lineNo + 1)
        .arg(m_tailBytes);
}

AuditTail::Read AuditTail::readAppended(const LineFn &line, qint64 maxBytes,
                                        const std::atomic_bool *cancel, const ProgressFn &progress)
{
    Read out;
    const Fd f{::open(QFile::encodeName(m_path).constData(), O_RDONLY | O_CLOEXEC)};
    if (f.fd < 0) {
        if (errno == ENOENT) {
            // No log yet (nothing written), or it was removed: start over when it comes back.
            out.restarted = m_offset != 0;
            restart();
        } else {
            out.error = AuditTailText::tr("cannot read %1: %2").arg(m_path, qt_error_string(errno));
        }
        return out;
    }
    struct stat st
    {
    };
    if (::fstat(f.fd, &st) != 0) {
        out.error = AuditTailText::tr("cannot read %1: %2").arg(m_path, qt_error_string(errno));
        return out;
    }
    qint64 size = st.st_size;
    if (!sameFile(f.fd, size)) {
        out.restarted = true;
        restart();
    }
    m_device = st.st_dev;
    m_inode = st.st_ino;

    QByteArray block;
    qint64 at = m_offset; // where `block` starts in the file
    while (at < size && (maxBytes < 0 || out.bytes < maxBytes)) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            out.cancelled = true;
            break;
        }
        // A block holds whole lines: what follows the last newline is read again with the next.
        const qint64 want = std::min(std::max(BlockBytes, qint64(block.size())), size - at);
        block.resize(want);
        const qint64 got = readAt(f.fd, block.data(), want, at);
        if (got <= 0)
            break;
        block.truncate(got);
        const qsizetype lastNewline = block.lastIndexOf('\n');
        if (lastNewline < 0) {
            if (at + got >= size)
                break;                      // only an incomplete last line is left
            block.resize(block.size() * 2); // one line longer than a block: read more at once
            continue;
        }
        qsizetype start = 0;
        while (start <= lastNewline) {
            const qsizetype end = block.indexOf('\n', start);
            ++m_lineNo;
            ++out.lines;
            line(at + start, m_lineNo, QByteArrayView(block.constData() + start, end - start));
            start = end + 1;
        }
        at += lastNewline + 1;
        out.bytes += lastNewline + 1;
        m_offset = at;
        block.clear();
        if (progress)
            progress(at, size);
    }
    m_tailBytes = size > m_offset && !out.cancelled && (maxBytes < 0 || out.bytes < maxBytes)
                      ? size - m_offset
                      : 0;
    const qint64 keep = std::min(FingerprintBytes, m_offset);
    m_before.resize(keep);
    if (keep > 0 && readAt(f.fd, m_before.data(), keep, m_offset - keep) != keep)
        m_before.clear();
    return out;
}

} // namespace inventory
