// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "LedgerRow.h"
#include "LedgerSource.h"

#include <memory>

namespace ledger {

// Where a ledger is and how to read it, from the text a user gives:
//   orders.csv (CSV), orders.jsonl or .ndjson (JSON lines), sqlite:///path/to/file.db,
//   postgresql://user@host[:port]/database (postgres:// too).
// A PostgreSQL password is never part of the URL: the caller passes it to openLedger, and the
// URL kept and shown has none.
struct LedgerSpec
{
    enum class Kind { Csv, JsonLines, Sqlite, Postgres };
    Kind kind = Kind::Csv;
    QString path; // a file, or the SQLite database
    QString host, user, database;
    int port = 5432;

    // SQL sources: the query, else a table (its mapped columns selected), else the default
    // SELECT order_id, sku, quantity, state FROM orders (with the mapped names).
    QString query, table;
    Columns columns;
    StateMap states;
    int connectTimeoutSeconds = 10;

    static core::Result<LedgerSpec, core::Sentence> parse(const QString &text);
    QString description() const; // the path or URL, never a password
    bool isSql() const { return kind == Kind::Sqlite || kind == Kind::Postgres; }
    // A query or table given for a file ledger means nothing: the reason, or nullopt.
    std::optional<core::Sentence> problem() const;
};

// Opens the ledger (a file checked and its header read; a database connected, read-only) so
// that a wrong path or password is known before any long work. The rows are read by next().
core::Result<std::unique_ptr<LedgerSource>, core::Sentence>
openLedger(const LedgerSpec &spec, const QString &password = {});

} // namespace ledger
