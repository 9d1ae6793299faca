// SPDX-License-Identifier: GPL-3.0-or-later
#include "AuditQuery.h"

#include "core/Bytes.h"
#include "core/Csv.h"

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
    if (!sku.isEmpty() || !order.isEmpty()) {
        const AuditKeys keys = auditKeys(r);
        if ((!sku.isEmpty() && keys.sku != sku) || (!order.isEmpty() && keys.order != order))
            return false;
    }
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

AuditTableModel::AuditTableModel(QObject *parent)
    : TitledTableModel({QT_TR_NOOP("Time (UTC)"), QT_TR_NOOP("Action"), QT_TR_NOOP("SKU"),
                        QT_TR_NOOP("Order"), QT_TR_NOOP("Result"), QT_TR_NOOP("Unknown?"),
                        QT_TR_NOOP("Command"), QT_TR_NOOP("Profile"), QT_TR_NOOP("Server"),
                        QT_TR_NOOP("OS user"), QT_TR_NOOP("Duration (ms)"), QT_TR_NOOP("Detail")},
                       parent)
    , m_index(std::make_unique<AuditIndex>())
{}

AuditTableModel::~AuditTableModel() = default;

int AuditTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_visible.size());
}

int AuditTableModel::entryAt(int row) const
{
    return row >= 0 && size_t(row) < m_visible.size()
               ? m_visible[m_visible.size() - 1 - size_t(row)]
               : -1;
}

QVariant AuditTableModel::data(const QModelIndex &index, int role) const
{
    const int i = entryAt(index.row());
    if (!index.isValid() || i < 0)
        return {};
    const AuditEntry &e = m_index->entries().at(size_t(i));
    const StringPool &s = m_index->strings();
    const bool noOutcome = e.phase == AuditRecord::Phase::Attempt;
    const auto steps = [&] {
        int n = 1;
        for (int at = e.previousStep; at >= 0; at = m_index->entries().at(size_t(at)).previousStep)
            ++n;
        return n;
    };
    switch (role) {
    case OutcomeUnknownRole:
        return e.outcomeUnknown;
    case NoOutcomeRecordedRole:
        return noOutcome;
    case StepsRole:
        return steps();
    case ServerChangeRole:
        return serverChange(e);
    case Qt::ToolTipRole:
        if (index.column() == Server)
            return serverChange(e);
        if (index.column() == Command)
            return m_index->texts(e).command;
        if (index.column() == Result)
            return s.at(e.result);
        if (index.column() == Action && e.previousStep >= 0)
            return tr("One deduction in %1 writes: the script was not loaded (NOSCRIPT), so "
                      "the console loaded it and sent the same EVALSHA again. Select the row "
                      "to see each step.")
                .arg(steps());
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case Time:
        return QDateTime::fromMSecsSinceEpoch(e.timeMs, Qt::UTC)
            .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
    case Action:
        return e.previousStep >= 0 ? tr("%1 (%2 steps)").arg(s.at(e.action)).arg(steps())
                                   : s.at(e.action);
    case Sku:
        return s.at(e.sku);
    case Order:
        return m_index->texts(e).order;
    case Result:
        return s.at(e.result);
    case Unknown:
        return noOutcome ? tr("yes: no reply recorded") : e.outcomeUnknown ? tr("yes") : QString();
    case Command:
        return m_index->texts(e).command;
    case Profile:
        return s.at(e.profile);
    case Server:
        // The address alone would read as "this server": say that another process answers
        // there now, so a receipt this write left is not assumed to be there.
        return serverChange(e).isEmpty() ? s.at(e.server)
                                         : tr("%1 (run_id changed since)").arg(s.at(e.server));
    case User:
        return s.at(e.user);
    case Duration:
        return e.durationMs < 0 ? QVariant() : QVariant(e.durationMs);
    case Detail:
        return m_index->texts(e).detail;
    }
    return {};
}

void AuditTableModel::setRecords(const QList<AuditRecord> &records)
{
    setIndex(std::make_unique<AuditIndex>(AuditIndex::fromRecords(records)));
}

void AuditTableModel::setIndex(std::unique_ptr<AuditIndex> index)
{
    m_index = index ? std::move(index) : std::make_unique<AuditIndex>();
    m_index->takeFirstChangedEntry();
    refilter();
}

std::unique_ptr<AuditIndex> AuditTableModel::takeIndex()
{
    beginResetModel();
    auto out = std::make_unique<AuditIndex>(m_index->path());
    std::swap(out, m_index);
    m_visible.clear();
    m_synced = 0;
    endResetModel();
    return out;
}

AuditIndex::ReadStats AuditTableModel::readAppended(qint64 maxBytes)
{
    const AuditIndex::ReadStats stats = m_index->readAppended(maxBytes);
    syncRows();
    return stats;
}

void AuditTableModel::syncRows()
{
    const int changed = m_index->takeFirstChangedEntry();
    const auto &entries = m_index->entries();
    if ((changed >= 0 && size_t(changed) < m_synced) || entries.size() < m_synced) {
        refilter();
        return;
    }
    std::vector<int> added;
    for (size_t i = m_synced; i < entries.size(); ++i)
        if (matches(entries[i]))
            added.push_back(int(i));
    m_synced = entries.size();
    if (added.empty())
        return;
    // Newest first: what was appended goes on top.
    beginInsertRows({}, 0, int(added.size()) - 1);
    m_visible.insert(m_visible.end(), added.begin(), added.end());
    endInsertRows();
}

void AuditTableModel::setFilter(const AuditFilter &filter)
{
    const QByteArray needle = filter.text.trimmed().toUtf8();
    AuditFilter rest = filter;
    rest.text = m_filter.text;
    // One more character typed into the text filter: a row the longer text matches also
    // matched the shorter one, so only the rows shown need looking at again. At a million
    // records that turns every keystroke after the first from a pass over every row into one
    // over fewer and fewer.
    const bool narrower = rest == m_filter && m_synced == m_index->entries().size()
                          && needle.contains(m_needle) && needle != m_needle;
    m_filter = filter;
    m_needle = needle;
    if (narrower)
        narrow();
    else
        refilter();
}

void AuditTableModel::narrow()
{
    beginResetModel();
    m_poolMatch.assign(m_index->strings().size(), 0);
    const auto &entries = m_index->entries();
    std::erase_if(m_visible, [&](int i) { return !matches(entries[size_t(i)]); });
    endResetModel();
}

void AuditTableModel::refilter()
{
    beginResetModel();
    m_poolMatch.assign(m_index->strings().size(), 0);
    m_visible.clear();
    const auto &entries = m_index->entries();
    m_visible.reserve(size_t(m_index->rowCount()));
    for (size_t i = 0; i < entries.size(); ++i)
        if (matches(entries[i]))
            m_visible.push_back(int(i));
    m_synced = entries.size();
    endResetModel();
}

bool AuditTableModel::poolMatches(quint32 id) const
{
    if (id >= m_poolMatch.size())
        m_poolMatch.resize(m_index->strings().size(), 0);
    qint8 &known = m_poolMatch[id];
    if (known == 0)
        known = m_index->strings().at(id).contains(QString::fromUtf8(m_needle), Qt::CaseInsensitive)
                    ? 1
                    : -1;
    return known > 0;
}

bool AuditTableModel::matches(const AuditEntry &e) const
{
    if (e.hidden)
        return false;
    const StringPool &s = m_index->strings();
    if (!m_filter.action.isEmpty() && s.at(e.action) != m_filter.action)
        return false;
    if (m_filter.unknownOnly && !e.outcomeUnknown)
        return false;
    const QByteArrayView text = m_index->searchText(e);
    if (!m_filter.sku.isEmpty() && s.at(e.sku) != m_filter.sku)
        return false;
    if (!m_filter.order.isEmpty()) {
        // The order is the first of the entry's texts.
        const QByteArray order = m_filter.order.toUtf8();
        if (!text.startsWith(order)
            || (text.size() > order.size() && text.at(order.size()) != '\x1f'))
            return false;
    }
    if (m_needle.isEmpty())
        return true;
    for (quint32 id : {e.action, e.result, e.sku, e.profile, e.server, e.user})
        if (poolMatches(id))
            return true;
    // Order, command, attempt id and detail. Latin-1 case folding over UTF-8 bytes: exact for
    // ASCII (keys, ids, words), and a non-ASCII needle still matches itself byte for byte.
    return QLatin1StringView(text.data(), text.size())
        .contains(QLatin1StringView(m_needle), Qt::CaseInsensitive);
}

int AuditTableModel::totalCount() const
{
    return m_index->rowCount();
}

int AuditTableModel::noOutcomeCount() const
{
    return m_index->noOutcomeCount();
}

QStringList AuditTableModel::actions() const
{
    QStringList out;
    for (quint32 id : m_index->actionIds())
        if (!m_index->strings().at(id).isEmpty())
            out << m_index->strings().at(id);
    std::sort(out.begin(), out.end());
    return out;
}

std::optional<AuditRecord> AuditTableModel::recordAt(int row) const
{
    const int i = entryAt(row);
    return i < 0 ? std::nullopt : m_index->record(i);
}

QList<AuditRecord> AuditTableModel::stepsAt(int row) const
{
    const int i = entryAt(row);
    return i < 0 ? QList<AuditRecord>{} : m_index->steps(i);
}

QList<AuditRecord> AuditTableModel::visibleRecords() const
{
    QList<int> entries;
    entries.reserve(qsizetype(m_visible.size()));
    for (auto it = m_visible.rbegin(); it != m_visible.rend(); ++it)
        entries << *it;
    return m_index->records(entries);
}

QString AuditTableModel::serverChange(const AuditEntry &e) const
{
    if (m_serversNow.isEmpty())
        return {};
    const StringPool &s = m_index->strings();
    return serverChangeSince(s.at(e.server), s.at(e.runId), e.timeMs, m_serversNow);
}

bool AuditTableModel::setServersNow(const ServersNow &now)
{
    // Start times are derived from uptimes and move by a second between reads: the marks
    // change only when an address or the run_id behind it changed.
    bool same = now.size() == m_serversNow.size();
    for (auto i = now.cbegin(); same && i != now.cend(); ++i)
        same = m_serversNow.value(i.key()).runId == i->runId;
    m_serversNow = now;
    if (!same && !m_visible.empty())
        emit dataChanged(index(0, Server), index(rowCount() - 1, Server));
    return !same;
}

int AuditTableModel::serverChangedCount() const
{
    // Integer compares per row (pooled ids), so that a million rows cost a few milliseconds
    // on each reload.
    struct Watched
    {
        quint32 server;
        std::optional<quint32> runIdNow; // nullopt: no row has that run_id
    };
    const StringPool &s = m_index->strings();
    std::vector<Watched> watched;
    for (auto i = m_serversNow.cbegin(); i != m_serversNow.cend(); ++i)
        if (const auto server = s.find(i.key()); server && !i->runId.isEmpty())
            watched.push_back({*server, s.find(i->runId)});
    int n = 0;
    for (const int i : m_visible) {
        const AuditEntry &e = m_index->entries().at(size_t(i));
        if (e.runId == 0)
            continue;
        for (const Watched &w : watched)
            if (e.server == w.server && e.runId != w.runIdNow)
                ++n;
    }
    return n;
}

} // namespace inventory
