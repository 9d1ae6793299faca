// SPDX-License-Identifier: GPL-3.0-or-later
#include "SlowLog.h"

#include "core/Bytes.h"
#include "redis/CommandSender.h"
#include "redis/ResultReads.h"

#include <QDateTime>
#include <algorithm>

namespace metrics {

bool SlowLogEntry::isScript() const
{
    if (args.isEmpty())
        return false;
    const QByteArray c = args.first().toLower();
    return c == "fcall" || c == "fcall_ro" || c == "evalsha" || c == "evalsha_ro" || c == "eval"
           || c == "eval_ro";
}

redis::Decoded<QList<SlowLogEntry>> decodeSlowLog(const redis::Reply &reply, const QString &node)
{
    const auto items = reply.array();
    if (!items)
        return items.error();
    QList<SlowLogEntry> out;
    for (const redis::Reply &item : *items) {
        const auto fields = item.array();
        if (!fields)
            return fields.error();
        if (fields->size() < 4)
            return item.unexpected(core::Sentence::translated(
                "metrics::SlowLog",
                QT_TRANSLATE_NOOP("metrics::SlowLog", "a slow-log entry of at least 4 fields")));
        SlowLogEntry e;
        e.node = node;
        const auto id = fields->at(0).integer();
        const auto time = fields->at(1).integer();
        const auto duration = fields->at(2).integer();
        const auto args = fields->at(3).array();
        if (!id)
            return id.error();
        if (!time)
            return time.error();
        if (!duration)
            return duration.error();
        if (!args)
            return args.error();
        e.id = *id;
        e.timeS = *time;
        e.durationUs = *duration;
        for (const redis::Reply &a : *args) {
            const auto s = a.string();
            if (!s)
                return s.error();
            e.args << *s;
        }
        if (fields->size() >= 6) {
            const auto client = fields->at(4).string();
            const auto name = fields->at(5).string();
            if (!client)
                return client.error();
            if (!name)
                return name.error();
            e.client = QString::fromUtf8(*client);
            e.clientName = QString::fromUtf8(*name);
        }
        out << e;
    }
    return out;
}

void SlowLogModel::setEntries(QList<SlowLogEntry> entries)
{
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto &a, const auto &b) { return a.durationUs > b.durationUs; });
    beginResetModel();
    m_entries = std::move(entries);
    endResetModel();
}

SlowLogModel::SlowLogModel(QObject *parent)
    : TitledTableModel({QT_TR_NOOP("Node"), QT_TR_NOOP("Time"), QT_TR_NOOP("Duration"),
                        QT_TR_NOOP("Command (◆ = FCALL/EVALSHA)"), QT_TR_NOOP("Client")},
                       parent)
{}

int SlowLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

QVariant SlowLogModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_entries.size())
        return {};
    const SlowLogEntry &e = m_entries.at(index.row());
    if (role == ScriptRole)
        return e.isScript();
    if (role == Qt::TextAlignmentRole && index.column() == Duration)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == Command) {
        QStringList words;
        for (const QByteArray &a : e.args)
            words << core::escapeBytes(a);
        return words.join(QLatin1Char(' '));
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Node:
        return e.node;
    case Time:
        return QDateTime::fromSecsSinceEpoch(e.timeS).toString(
            QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    case Duration:
        return QStringLiteral("%L1 µs").arg(e.durationUs);
    case Command: {
        QStringList words;
        for (const QByteArray &a : e.args.mid(0, 6))
            words << core::escapeBytes(a.left(60));
        if (e.args.size() > 6)
            words << QStringLiteral("… (%1 args)").arg(e.args.size());
        return (e.isScript() ? QStringLiteral("◆ ") : QString()) + words.join(QLatin1Char(' '));
    }
    case Client:
        return e.clientName.isEmpty() ? e.client
                                      : QStringLiteral("%1 (%2)").arg(e.client, e.clientName);
    }
    return {};
}

SlowLogReader::SlowLogReader(redis::CommandSender &sender, QObject *parent)
    : QObject(parent)
    , m_sender(sender)
{}

void SlowLogReader::read(int count)
{
    const quint64 generation = ++m_generation;
    const QList<redis::ScanNode> nodes = m_sender.scanNodes();
    m_pending = int(nodes.size());
    m_entries.clear();
    m_errors.clear();
    for (const redis::ScanNode &n : nodes) {
        const QString name = n.name;
        n.sender->send({"SLOWLOG", "GET", QByteArray::number(count)}, this,
                       [this, generation, name](const redis::ReplyResult &r) {
                           if (generation != m_generation)
                               return;
                           const auto entries =
                               r.ok() ? decodeSlowLog(*r, name)
                                      : redis::Decoded<QList<SlowLogEntry>>(r.error());
                           if (entries)
                               m_entries << *entries;
                           else
                               m_errors << QStringLiteral("%1: %2").arg(
                                   name, entries.error().readFailure().text);
                           if (--m_pending == 0)
                               emit finished(m_entries, m_errors);
                       });
    }
    if (nodes.isEmpty())
        emit finished({}, {tr("No node to read")});
}

} // namespace metrics
