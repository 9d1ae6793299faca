// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AuditIndex.h"
#include "AuditLog.h"
#include "AuditServerChange.h"
#include "core/TitledTableModel.h"

#include <memory>

namespace inventory {

// Which audit records a viewer shows (after pairAttempts(): an attempt with no outcome has
// outcomeUnknown set, so unknownOnly shows it).
struct AuditFilter
{
    QString action; // exact action ("deduct", "script-load", ...); empty: every action
    QString text;   // case-insensitive, in the command, result, profile, server, user, detail
    bool unknownOnly = false;
    QString sku, order; // exact, when set: one order's records (see auditKeys())

    bool matches(const AuditRecord &record) const;
    bool operator==(const AuditFilter &) const = default;
};

// The command as a person reads it: each argument shell-quoted (pasteable), long arguments
// (e.g. a library's source) cut at maxArgChars.
QString commandText(const QList<QByteArray> &command, int maxArgChars = 0);

// Exports: CSV (RFC 4180, a header row, UTF-8) and JSON lines in the audit log's own format
// (so an export can be read back with AuditLog::read).
QByteArray auditToCsv(const QList<AuditRecord> &records);
QByteArray auditToJsonLines(const QList<AuditRecord> &records);

// The audit records a viewer shows: the rows of an AuditIndex (each attempt paired with its
// outcome, a script deduction's steps folded into one row), filtered, newest first. Rows are
// added as the log grows, without reading it again; only the record a person opens is read
// back from the file whole.
class AuditTableModel : public core::TitledTableModel
{
    Q_OBJECT
public:
    enum Column {
        Time,
        Action,
        Sku,
        Order,
        Result,
        Unknown,
        Command,
        Profile,
        Server,
        User,
        Duration,
        Detail,
        ColumnCount
    };
    enum Role {
        OutcomeUnknownRole = Qt::UserRole + 1, // bool: outcome unknown, or no outcome recorded
        NoOutcomeRecordedRole,                 // bool: an attempt whose outcome never came
        StepsRole,                             // int: writes folded into the row (1, or 3)
        ServerChangeRole // QString: the server answers with another run_id now (see setServersNow)
    };

    explicit AuditTableModel(QObject *parent = nullptr);
    ~AuditTableModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    // In file order, as read (tests, exports read back): an index over them in memory.
    void setRecords(const QList<AuditRecord> &records);
    // Shows `index` (e.g. one a worker just read). takeIndex() hands it back (to read more on
    // a worker) and leaves the model empty.
    void setIndex(std::unique_ptr<AuditIndex> index);
    std::unique_ptr<AuditIndex> takeIndex();
    const AuditIndex *auditIndex() const { return m_index.get(); }
    // Reads what was appended to the log since the last read, on this thread, and adds its
    // rows (rebuilds them when the file was replaced or an earlier row changed).
    AuditIndex::ReadStats readAppended(qint64 maxBytes = -1);

    // What the console read lately about the servers it is connected to: a row whose server
    // now answers with another run_id than the row's says so (ServerChangeRole, the Server
    // column, its tooltip). Returns whether the marks may have changed (an address or a run_id).
    bool setServersNow(const ServersNow &now);
    int serverChangedCount() const; // rows shown whose server answers with another run_id now

    void setFilter(const AuditFilter &filter);
    AuditFilter filter() const { return m_filter; }

    int totalCount() const;      // rows before filtering
    int noOutcomeCount() const;  // attempts with no outcome record, filtered or not
    QStringList actions() const; // distinct, sorted
    std::optional<AuditRecord> recordAt(int row) const; // read from the log
    QList<AuditRecord> stepsAt(int row) const;          // earlier steps first, then the row's
    QList<AuditRecord> visibleRecords() const;          // in the shown order

private:
    void syncRows();
    void refilter();
    void narrow(); // refilter() over the rows shown only
    bool matches(const AuditEntry &e) const;
    bool poolMatches(quint32 id) const;
    int entryAt(int row) const;
    QString serverChange(const AuditEntry &e) const;

    std::unique_ptr<AuditIndex> m_index;
    std::vector<int> m_visible; // entry indexes in file order; row 0 is the last
    size_t m_synced = 0;        // entries looked at so far
    AuditFilter m_filter;
    ServersNow m_serversNow;
    QByteArray m_needle;                    // the filter text, UTF-8
    mutable std::vector<qint8> m_poolMatch; // per pooled string: 0 not looked at, 1 yes, -1 no
};

} // namespace inventory
