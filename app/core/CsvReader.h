// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Wording.h"

#include <QByteArray>
#include <QList>
#include <QString>

class QIODevice;

namespace core {

// Reads CSV records (RFC 4180: comma separated, fields optionally in double quotes, "" for a
// quote inside them, line breaks allowed inside quotes; CRLF or LF line ends) one at a time
// from a device, so a file of any length costs one record of memory. The reader never guesses:
// a quote in the middle of an unquoted field, text after a closing quote, an unclosed quote at
// the end, or a record longer than maxRecordBytes stops it with an error naming the line.
class CsvReader
{
public:
    static constexpr qsizetype DefaultMaxRecordBytes = 1 << 20;

    explicit CsvReader(QIODevice &device, qsizetype maxRecordBytes = DefaultMaxRecordBytes);

    enum class Status { Record, End, Error };
    // The next record's fields (a blank line is a record of one empty field).
    Status next(QList<QByteArray> *fields);
    // The line the last record began on (1-based), for messages about it.
    qint64 recordLine() const { return m_recordLine; }
    // Why reading stopped, in English (the CLI, the log) and in the window's language.
    const Sentence &error() const { return m_error; }

private:
    bool fill(); // more bytes into m_buffer; false at the end of the device or on error
    Status fail(const Sentence &why);

    QIODevice &m_device;
    qsizetype m_max;
    QByteArray m_buffer;
    qsizetype m_at = 0;
    qint64 m_line = 1; // the line m_at is on
    qint64 m_recordLine = 0;
    bool m_eof = false;
    Sentence m_error;
};

} // namespace core
