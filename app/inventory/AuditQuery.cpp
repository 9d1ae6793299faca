#include "AuditQuery.h"

#include "core/Bytes.h"
#include "core/Csv.h"

#include <QSet>
#include <algorithm>

namespace inventory {

namespace {

QString phaseName(AuditRecord::Phase phase)
{
    switch (phase) {
    case AuditRecord::Phase::Single:
        return {};
    case AuditRecord::Phase::Attempt:
        return QStringLiteral("attempt");
    case AuditRecord::Phase::Outcome:
        return QStringLiteral("outcome");
    }
    return {};
}

QString timeText(const AuditRecord &r)
{
    return r.timeUtc.toUTC().toString(Qt::ISODateWithMs);
}

} // namespace

bool AuditFilter::matches(const AuditRecord &r) const
{
    if (!action.isEmpty() && r.action != action)
        return false;
    if (unknownOnly && !r.outcomeUnknown)
        return false;
    const QString t = text.trimmed();
    if (t.isEmpty())
        return true;
    const QStringList fields{commandText(r.command),
                             r.result,
                             r.profile,
                             r.server,
                             r.osUser,
                             r.detail,
                             r.action,
                             r.runId,
                             r.attemptId};
    for (const QString &f : fields)
        if (f.contains(t, Qt::CaseInsensitive))
            return true;
    return false;
}

QString commandText(const QList<QByteArray> &command, int maxArgChars)
{
    QStringList words;
    for (const QByteArray &a : command) {
        if (maxArgChars > 0 && a.size() > maxArgChars)
            words << core::shellQuote(a.left(maxArgChars))
                         + QStringLiteral("…(%1 bytes)").arg(a.size());
        else
            words << core::shellQuote(a);
    }
    return words.join(QLatin1Char(' '));
}

QByteArray auditToCsv(const QList<AuditRecord> &records)
{
    QByteArray out("time_utc,os_user,action,profile,server,run_id,command,result,"
                   "outcome_unknown,duration_ms,detail,phase,attempt_id\r\n");
    for (const AuditRecord &r : records) {
        const QStringList row{timeText(r),
                              r.osUser,
                              r.action,
                              r.profile,
                              r.server,
                              r.runId,
                              commandText(redactCommand(r.command)),
                              r.result,
                              r.outcomeUnknown ? QStringLiteral("true") : QStringLiteral("false"),
                              QString::number(r.durationMs),
                              r.detail,
                              phaseName(r.phase),
                              r.attemptId};
        QByteArrayList cells;
        for (const QString &c : row)
            cells << core::csvCell(c.toUtf8());
        out += cells.join(',') + "\r\n";
    }
    return out;
}

QByteArray auditToJsonLines(const QList<AuditRecord> &records)
{
    QByteArray out;
    for (const AuditRecord &r : records)
        out += r.toJsonLine() + '\n';
    return out;
}

int AuditTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_visible.size());
}

int AuditTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AuditTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Time:
        return tr("Time (UTC)");
    case Action:
        return tr("Action");
    case Result:
        return tr("Result");
    case Unknown:
        return tr("Unknown?");
    case Command:
        return tr("Command");
    case Profile:
        return tr("Profile");
    case Server:
        return tr("Server");
    case User:
        return tr("OS user");
    case Duration:
        return tr("Duration (ms)");
    case Detail:
        return tr("Detail");
    }
    return {};
}

QVariant AuditTableModel::data(const QModelIndex &index, int role) const
{
    const AuditRecord *r = recordAt(index.row());
    if (!index.isValid() || !r)
        return {};
    const bool noOutcome = r->phase == AuditRecord::Phase::Attempt;
    if (role == OutcomeUnknownRole)
        return r->outcomeUnknown;
    if (role == NoOutcomeRecordedRole)
        return noOutcome;
    if (role == Qt::ToolTipRole && index.column() == Command)
        return commandText(r->command, 400);
    if (role == Qt::ToolTipRole && index.column() == Result)
        return r->result;
    if (role == Qt::ToolTipRole && index.column() == Server)
        return tr("run_id %1").arg(r->runId.isEmpty() ? tr("not known") : r->runId);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Time:
        return r->timeUtc.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
    case Action:
        return r->action;
    case Result:
        return r->result;
    case Unknown:
        return noOutcome ? tr("yes: no reply recorded") : r->outcomeUnknown ? tr("yes") : QString();
    case Command:
        return commandText(r->command, 40);
    case Profile:
        return r->profile;
    case Server:
        return r->server;
    case User:
        return r->osUser;
    case Duration:
        return r->durationMs < 0 ? QVariant() : QVariant(r->durationMs);
    case Detail:
        return r->detail;
    }
    return {};
}

void AuditTableModel::setRecords(const QList<AuditRecord> &records)
{
    m_all = pairAttempts(records);
    refilter();
}

void AuditTableModel::setFilter(const AuditFilter &filter)
{
    m_filter = filter;
    refilter();
}

void AuditTableModel::refilter()
{
    beginResetModel();
    m_visible.clear();
    for (int i = int(m_all.size()) - 1; i >= 0; --i)
        if (m_filter.matches(m_all.at(i)))
            m_visible << i;
    endResetModel();
}

int AuditTableModel::noOutcomeCount() const
{
    return int(std::count_if(m_all.begin(), m_all.end(), [](const AuditRecord &r) {
        return r.phase == AuditRecord::Phase::Attempt;
    }));
}

QStringList AuditTableModel::actions() const
{
    QSet<QString> set;
    for (const AuditRecord &r : m_all)
        set.insert(r.action);
    QStringList out(set.begin(), set.end());
    std::sort(out.begin(), out.end());
    return out;
}

const AuditRecord *AuditTableModel::recordAt(int row) const
{
    return row >= 0 && row < m_visible.size() ? &m_all.at(m_visible.at(row)) : nullptr;
}

QList<AuditRecord> AuditTableModel::visibleRecords() const
{
    QList<AuditRecord> out;
    for (int i : m_visible)
        out << m_all.at(i);
    return out;
}

} // namespace inventory
