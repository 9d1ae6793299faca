// SPDX-License-Identifier: GPL-3.0-or-later
#include "CsvReader.h"

#include <QCoreApplication>
#include <QFileDevice>

namespace core {

namespace {
// A record the reader could not read: the window shows why (the Reconcile tab), the CLI keeps
// the English.
Sentence csvSays(const char *source)
{
    return Sentence::translated("core::CsvReader", source);
}
} // namespace

CsvReader::CsvReader(QIODevice &device, qsizetype maxRecordBytes)
    : m_device(device)
    , m_max(maxRecordBytes)
{}

bool CsvReader::fill()
{
    if (m_eof)
        return false;
    // Bytes already consumed are dropped first, so the buffer holds at most one record and one
    // read's worth of what follows it.
    m_buffer.remove(0, m_at);
    m_at = 0;
    const QByteArray more = m_device.read(64 * 1024);
    if (more.isEmpty()) {
        m_eof = true;
        // QIODevice::read() returns nothing both at the end and on a failed read: a file says
        // which.
        if (const auto *file = qobject_cast<QFileDevice *>(&m_device);
            file && file->error() != QFileDevice::NoError)
            m_error = csvSays(QT_TRANSLATE_NOOP("core::CsvReader", "line %1: %2"))
                          .arg(m_line, file->errorString());
        return false;
    }
    m_buffer += more;
    return true;
}

CsvReader::Status CsvReader::fail(const Sentence &why)
{
    m_error = csvSays(QT_TRANSLATE_NOOP("core::CsvReader", "line %1: %2")).arg(m_recordLine, why);
    return Status::Error;
}

CsvReader::Status CsvReader::next(QList<QByteArray> *fields)
{
    fields->clear();
    if (m_at >= m_buffer.size() && !fill())
        return m_error.isEmpty() ? Status::End : Status::Error;
    m_recordLine = m_line;
    QByteArray field;
    qsizetype recordBytes = 0;
    enum { FieldStart, Unquoted, Quoted, QuoteInQuoted } state = FieldStart;
    for (;;) {
        if (m_at >= m_buffer.size() && !fill()) {
            if (!m_error.isEmpty())
                return Status::Error;
            if (state == Quoted)
                return fail(csvSays(
                    QT_TRANSLATE_NOOP("core::CsvReader", "a quoted field is never closed")));
            *fields << field; // the last record without a line end
            return Status::Record;
        }
        const char c = m_buffer.at(m_at++);
        if (++recordBytes > m_max)
            return fail(
                csvSays(QT_TRANSLATE_NOOP("core::CsvReader", "a record longer than %1 bytes"))
                    .arg(m_max));
        switch (state) {
        case Quoted:
            if (c == '"')
                state = QuoteInQuoted;
            else {
                if (c == '\n')
                    ++m_line;
                field += c;
            }
            continue;
        case QuoteInQuoted:
            if (c == '"') {
                field += '"';
                state = Quoted;
                continue;
            }
            if (c != ',' && c != '\n' && c != '\r')
                return fail(csvSays(QT_TRANSLATE_NOOP("core::CsvReader",
                                                      "text after a closing quote (field %1)"))
                                .arg(fields->size() + 1));
            break; // the separator or line end is handled below
        case FieldStart:
            if (c == '"') {
                state = Quoted;
                continue;
            }
            break;
        case Unquoted:
            if (c == '"')
                return fail(
                    csvSays(QT_TRANSLATE_NOOP("core::CsvReader",
                                              "a quote inside an unquoted field (field %1)"))
                        .arg(fields->size() + 1));
            break;
        }
        if (c == ',') {
            *fields << field;
            field.clear();
            state = FieldStart;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r') { // CRLF: the LF is part of this line end
                if (m_at >= m_buffer.size())
                    fill();
                if (m_at < m_buffer.size() && m_buffer.at(m_at) == '\n')
                    ++m_at;
            }
            ++m_line;
            *fields << field;
            return Status::Record;
        } else {
            field += c;
            state = Unquoted;
        }
    }
}

} // namespace core
