// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/TitledTableModel.h"
#include "redis/Reply.h"

#include <QObject>

namespace redis {
class CommandSender;
}

namespace metrics {

// One SLOWLOG GET entry of one node.
struct SlowLogEntry
{
    QString node;
    qint64 id = 0;
    qint64 timeS = 0;       // seconds since the epoch
    qint64 durationUs = 0;  // execution time, as the server measured it
    QList<QByteArray> args; // as the server keeps them (long ones shortened by it)
    QString client, clientName;

    // FCALL/FCALL_RO/EVALSHA/EVAL...: the console's own deductions run as these.
    bool isScript() const;
};

// SLOWLOG GET's reply: an array of [id, time, duration, [args], client, name] entries (the
// last two since Redis 4; older servers send four fields).
redis::Decoded<QList<SlowLogEntry>> decodeSlowLog(const redis::Reply &reply, const QString &node);

// The slow-log entries of every node, slowest first; ScriptRole marks FCALL/EVALSHA rows.
class SlowLogModel : public core::TitledTableModel
{
    Q_OBJECT
public:
    enum Column { Node, Time, Duration, Command, Client, ColumnCount };
    enum Role { ScriptRole = Qt::UserRole + 1 };
    explicit SlowLogModel(QObject *parent = nullptr);

    void setEntries(QList<SlowLogEntry> entries);
    const QList<SlowLogEntry> &entries() const { return m_entries; }
    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    QList<SlowLogEntry> m_entries;
};

// Reads SLOWLOG GET from every node (one command per node, all sent at once).
class SlowLogReader : public QObject
{
    Q_OBJECT
public:
    explicit SlowLogReader(redis::CommandSender &sender, QObject *parent = nullptr);
    void read(int count = 128);
    bool isReading() const { return m_pending > 0; }

signals:
    // Every node answered (or failed): entries of those that answered, errors of the others.
    void finished(const QList<metrics::SlowLogEntry> &entries, const QStringList &errors);

private:
    redis::CommandSender &m_sender;
    quint64 m_generation = 0;
    int m_pending = 0;
    QList<SlowLogEntry> m_entries;
    QStringList m_errors;
};

} // namespace metrics
