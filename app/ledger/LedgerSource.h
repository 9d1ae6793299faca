// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "LedgerRow.h"
#include "core/Wording.h"

#include <QString>

namespace ledger {

// A ledger read one validated row at a time: a file, a SQLite database or a PostgreSQL
// server, each read forward only so that a million rows cost one row of memory. A source
// never skips a row: a row that does not validate ends the read with an error that names it.
class LedgerSource
{
public:
    virtual ~LedgerSource() = default;

    enum class Status { Row, End, Error };
    // The next row; Error with error() ("line 17: the quantity \"0\" is ...", "the
    // server closed the connection ..."). A SQL source runs its query on the first call.
    virtual Status next(LedgerRow *row) = 0;
    virtual core::Sentence error() const = 0;
    // What is read, for messages: a path or a URL without any password.
    virtual QString description() const = 0;
    // The rows handed out so far.
    qint64 rowsRead() const { return m_rows; }
    // The source reads a time for each row (a time window needs it).
    virtual bool hasTime() const = 0;

protected:
    qint64 m_rows = 0;
};

} // namespace ledger
