// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AuditLog.h"
#include "AuditTail.h"

#include <QHash>
#include <QSet>
#include <deque>
#include <optional>
#include <vector>

namespace inventory {

// Strings many records share (actions, profiles, servers, users, results, SKUs), kept once.
class StringPool
{
public:
    StringPool() { intern({}); } // id 0 is the empty string
    quint32 intern(const QString &s);
    std::optional<quint32> find(const QString &s) const; // without adding it
    const QString &at(quint32 id) const { return m_strings.at(id); }
    quint32 size() const { return quint32(m_strings.size()); }

private:
    QList<QString> m_strings;
    QHash<QString, quint32> m_ids;
};

// The SKU and order a write concerns, read from its keys with the default key schema (the
// receipt key names both; a script deduction names its order in the record's detail). A key
// that does not follow the schema still gives its hash tag as the SKU.
struct AuditKeys
{
    QString sku, order;
};
AuditKeys auditKeys(const AuditRecord &record);

// One line of the audit log in a few dozen bytes: what the table shows and filters on. The
// rest (the whole command, a library's source) stays in the file and is read again when a
// person opens the record.
struct AuditEntry
{
    qint64 offset = 0; // of its line in the log
    qint64 timeMs = 0;
    qint32 length = 0;
    qint32 durationMs = -1;
    quint32 action = 0, profile = 0, server = 0, user = 0, result = 0, sku = 0; // StringPool ids
    quint32 runId = 0; // StringPool id of the run_id of the server that answered, when known
    quint32 text = 0, textLength = 0; // in the index's text arena: see AuditIndex::texts()
    qint32 previousStep = -1; // an earlier step folded into this row (NOSCRIPT, SCRIPT LOAD)
    AuditRecord::Phase phase = AuditRecord::Phase::Single;
    bool outcomeUnknown = false;
    bool hidden = false; // an answered attempt, or a step folded into a later row
};

// Everything read from one audit log so far, in file order, one AuditEntry per line: attempts
// are paired with their outcomes (an answered attempt is hidden; one with no outcome stays,
// shown as "no outcome recorded"), and the three rows of a script deduction that met NOSCRIPT
// (the EVALSHA that was not run, SCRIPT LOAD, the EVALSHA that ran) fold into the last one.
// readAppended() reads only what was appended since the last read; it may run on any thread,
// as long as one thread at a time uses the index.
class AuditIndex
{
public:
    explicit AuditIndex(QString path = {});
    // An index over records held in memory (a test, an export read back): no file.
    static AuditIndex fromRecords(const QList<AuditRecord> &records);

    QString path() const { return m_tail.path(); }
    const AuditTail &tail() const { return m_tail; }

    struct ReadStats
    {
        AuditTail::Read read;
        int parsed = 0; // lines parsed into entries (counts what a read cost)
    };
    // Reads what was appended since the last read (a file that shrank or was replaced is read
    // again from the start: read.restarted, and every entry before is gone).
    ReadStats readAppended(qint64 maxBytes = -1, const std::atomic_bool *cancel = nullptr,
                           const AuditTail::ProgressFn &progress = {});

    // A deque, and the texts in fixed-size chunks: growing never copies what is there, so an
    // append after a million lines costs what the append costs.
    const std::deque<AuditEntry> &entries() const { return m_entries; }
    const StringPool &strings() const { return m_strings; }
    const QSet<quint32> &actionIds() const { return m_actions; } // distinct, in the pool
    // The texts of an entry that are unique to it, for showing and searching.
    struct Texts
    {
        QString order, command, attemptId, detail;
    };
    Texts texts(const AuditEntry &e) const;
    QByteArrayView searchText(const AuditEntry &e) const; // all of them, UTF-8
    // The whole record of entry `i`, read again from the log (result and flags as shown: an
    // attempt with no outcome says so). With steps: the earlier steps first, then this one.
    std::optional<AuditRecord> record(int i) const;
    QList<AuditRecord> steps(int i) const;
    QList<AuditRecord> records(const QList<int> &entries) const; // one pass over the file

    // The smallest entry index whose row changed (hidden, folded) since the last call, or -1:
    // a view showing rows before it must rebuild them, not just add the new ones.
    int takeFirstChangedEntry();

    QStringList problems() const; // corrupt lines (the first 100), then the incomplete last line
    int problemCount() const { return m_problemCount; }
    int noOutcomeCount() const { return m_noOutcome; }
    int rowCount() const { return m_rows; } // entries not hidden

private:
    void addLine(qint64 offset, int lineNo, QByteArrayView line);
    void add(qint64 offset, qint32 length, const AuditRecord &r);
    void hide(int i);
    std::optional<AuditRecord> parseAt(const QByteArray &source, const AuditEntry &e) const;
    void clear();

    AuditTail m_tail;
    QByteArray m_memory; // the log itself, for an index made fromRecords()
    std::deque<AuditEntry> m_entries;
    StringPool m_strings;
    QSet<quint32> m_actions;
    // Order, command summary, attempt id, detail of each entry, 0x1f between; an entry's text
    // never straddles two chunks. Offsets count as if the chunks were one array.
    std::vector<QByteArray> m_text;
    QHash<QString, int> m_openAttempts; // attempt id -> entry, until its outcome comes
    QHash<QString, int> m_noScript;     // profile+server -> the EVALSHA that met NOSCRIPT
    QHash<QString, int> m_scriptLoad;   // profile+server -> the SCRIPT LOAD that followed it
    QStringList m_problems;
    int m_problemCount = 0;
    int m_noOutcome = 0;
    int m_rows = 0;
    int m_firstChanged = -1;
    quint32 m_noOutcomeText = 0;
};

} // namespace inventory
