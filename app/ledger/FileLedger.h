// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "LedgerSource.h"
#include "core/CsvReader.h"

#include <QFile>
#include <memory>

namespace ledger {

// A CSV export: a header line naming the columns (order_id,sku,quantity,state by default, in
// any order; other columns are ignored), then one order line per record. Blank lines are not
// rows and are passed over; every other line is validated.
class CsvLedger : public LedgerSource
{
public:
    // Opens the file through core::openRegularFile (a FIFO or a device is refused) and reads
    // the header. The reason when it cannot.
    static core::Result<std::unique_ptr<LedgerSource>, core::Sentence>
    open(const QString &path, const Columns &columns, const StateMap &states);

    Status next(LedgerRow *row) override;
    core::Sentence error() const override { return m_error; }
    QString description() const override { return m_path; }
    bool hasTime() const override { return m_time >= 0; }

private:
    CsvLedger(const QString &path, const StateMap &states);
    QString m_path;
    StateMap m_states;
    QFile m_file;
    std::unique_ptr<core::CsvReader> m_reader;
    qsizetype m_order = -1, m_sku = -1, m_quantity = -1, m_state = -1, m_time = -1;
    qsizetype m_width = 0; // the columns a record needs to hold every field read
    core::Sentence m_error;
};

// A JSON-lines export: one object per line, with the mapped keys; quantities and ids may be
// numbers or strings (a quantity number must be whole). Blank lines are passed over.
class JsonLinesLedger : public LedgerSource
{
public:
    static core::Result<std::unique_ptr<LedgerSource>, core::Sentence>
    open(const QString &path, const Columns &columns, const StateMap &states);

    Status next(LedgerRow *row) override;
    core::Sentence error() const override { return m_error; }
    QString description() const override { return m_path; }
    bool hasTime() const override { return !m_columns.time.isEmpty(); }

private:
    JsonLinesLedger(const QString &path, const Columns &columns, const StateMap &states);
    QString m_path;
    Columns m_columns;
    StateMap m_states;
    QFile m_file;
    qint64 m_line = 0;
    core::Sentence m_error;
};

} // namespace ledger
