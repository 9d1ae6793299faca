// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "LedgerSpec.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <memory>

namespace ledger {

// A ledger in a database, read through Qt SQL, never written:
// - SQLite: the file must be a regular file (core/RegularFile.h) and is opened with
//   QSQLITE_OPEN_READONLY, so SQLite itself refuses any write and creates no journal;
// - PostgreSQL (QPSQL): the session starts with default_transaction_read_only=on (libpq's
//   options), the query runs inside START TRANSACTION READ ONLY, and the session is checked
//   (SHOW transaction_read_only) before the query is sent. An UPDATE, DELETE or DDL in the
//   query is then refused by the server (SQLSTATE 25006), and said so.
// Memory holds a batch, never the result (docs/reconcile.md has the RSS): PostgreSQL's query
// is read through a server-side cursor, FETCH FORWARD Batch rows at a time, so only one SELECT
// is accepted (anything else is refused before it runs); SQLite steps one row at a time.
class SqlLedger : public LedgerSource
{
public:
    static core::Result<std::unique_ptr<LedgerSource>, core::Sentence>
    open(const LedgerSpec &spec, const QString &password);
    ~SqlLedger() override;

    Status next(LedgerRow *row) override;
    core::Sentence error() const override { return m_error; }
    QString description() const override { return m_spec.description(); }
    bool hasTime() const override { return !m_spec.columns.time.isEmpty(); }
    // The query as sent (for messages and tests).
    QString queryText() const;

private:
    SqlLedger(const LedgerSpec &spec, const QString &connectionName);
    static constexpr int Batch = 5000;

    bool start(); // runs the query and maps its columns
    bool declareCursor(QSqlDatabase db);
    bool fetchBatch();
    // Moves to the next row, fetching the next batch when one ends; false with *status set
    // at the end or on an error.
    bool advance(Status *status);
    QString scrubbed(const class QSqlError &e) const; // the driver's words, password removed
    Status fail(const core::Sentence &what, const class QSqlError &e);
    core::Result<QByteArray, core::Sentence> cell(int index, const QString &name,
                                                  qint64 *timeMs) const;

    LedgerSpec m_spec;
    QString m_connection;
    std::unique_ptr<QSqlQuery> m_query;
    bool m_started = false;
    int m_batchRows = 0;
    int m_order = -1, m_sku = -1, m_quantity = -1, m_state = -1, m_time = -1;
    core::Sentence m_error;
    QString m_password; // only to scrub it from driver messages; never shown
};

} // namespace ledger
