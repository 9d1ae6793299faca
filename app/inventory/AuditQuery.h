#pragma once

#include "AuditLog.h"

#include <QAbstractTableModel>

namespace inventory {

// Which audit records a viewer shows (after pairAttempts(): an attempt with no outcome has
// outcomeUnknown set, so unknownOnly shows it).
struct AuditFilter
{
    QString action; // exact action ("deduct", "script-load", ...); empty: every action
    QString text;   // case-insensitive, in the command, result, profile, server, user, detail
    bool unknownOnly = false;

    bool matches(const AuditRecord &record) const;
};

// The command as a person reads it: each argument shell-quoted (pasteable), long arguments
// (e.g. a library's source) cut at maxArgChars.
QString commandText(const QList<QByteArray> &command, int maxArgChars = 0);

// Exports: CSV (RFC 4180, a header row, UTF-8) and JSON lines in the audit log's own format
// (so an export can be read back with AuditLog::read).
QByteArray auditToCsv(const QList<AuditRecord> &records);
QByteArray auditToJsonLines(const QList<AuditRecord> &records);

// The audit records a viewer shows: all writes of one read (each attempt paired with its
// outcome), filtered, newest first.
class AuditTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Time,
        Action,
        Unknown,
        Result,
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
        NoOutcomeRecordedRole                  // bool: an attempt whose outcome never came
    };

    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    // In file order, as read; attempts are paired with their outcomes (pairAttempts()), so
    // every row is one write and an attempt with no outcome is a row of its own.
    void setRecords(const QList<AuditRecord> &records);
    void setFilter(const AuditFilter &filter);
    AuditFilter filter() const { return m_filter; }

    int totalCount() const { return int(m_all.size()); }
    int noOutcomeCount() const;  // attempts with no outcome record, filtered or not
    QStringList actions() const; // distinct, sorted
    const AuditRecord *recordAt(int row) const;
    QList<AuditRecord> visibleRecords() const; // in the shown order

private:
    void refilter();
    QList<AuditRecord> m_all;
    QList<int> m_visible; // indexes into m_all
    AuditFilter m_filter;
};

} // namespace inventory
