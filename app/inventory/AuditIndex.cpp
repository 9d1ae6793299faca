// SPDX-License-Identifier: GPL-3.0-or-later
#include "AuditIndex.h"

#include "AuditQuery.h"
#include "KeySchema.h"

#include <QFile>
#include <QRegularExpression>

namespace inventory {

namespace {
constexpr int MaxProblemsKept = 100;
constexpr int CommandArgChars = 40; // as the Command column shows it
constexpr int DetailChars = 300;
constexpr char Separator = '\x1f';
constexpr qsizetype TextChunk = 1 << 20;

QString groupKey(const AuditRecord &r)
{
    return r.profile + QChar(Separator) + r.server;
}

bool isEvalSha(const AuditRecord &r)
{
    return r.action == QLatin1String("deduct") && !r.command.isEmpty()
           && r.command.first().toUpper() == "EVALSHA";
}

// Keys of FCALL/EVAL-style commands (name, function or script, numkeys, keys...); for the
// rest (DEL, EXPIRE, PERSIST, SET, GET...) the first argument.
QList<QByteArray> commandKeys(const QList<QByteArray> &cmd)
{
    if (cmd.size() < 2)
        return {};
    const QByteArray name = cmd.first().toUpper();
    if (name.startsWith("FCALL") || name.startsWith("EVAL")) {
        bool ok = false;
        const int n = cmd.size() > 2 ? cmd.at(2).toInt(&ok) : 0;
        return ok && n > 0 ? cmd.mid(3, std::min<qsizetype>(n, cmd.size() - 3))
                           : QList<QByteArray>{};
    }
    if (name == "FUNCTION" || name == "SCRIPT" || name == "CONFIG" || name == "ACL")
        return {};
    return {cmd.at(1)};
}

QString hashTag(const QByteArray &key)
{
    const qsizetype open = key.indexOf('{');
    const qsizetype close = open < 0 ? -1 : key.indexOf('}', open + 1);
    return close > open + 1 ? QString::fromUtf8(key.mid(open + 1, close - open - 1)) : QString();
}
} // namespace

quint32 StringPool::intern(const QString &s)
{
    const auto it = m_ids.constFind(s);
    if (it != m_ids.cend())
        return *it;
    const quint32 id = quint32(m_strings.size());
    m_strings << s;
    m_ids.insert(s, id);
    return id;
}

std::optional<quint32> StringPool::find(const QString &s) const
{
    const auto it = m_ids.constFind(s);
    return it == m_ids.cend() ? std::nullopt : std::optional<quint32>(*it);
}

AuditKeys auditKeys(const AuditRecord &r)
{
    static const KeySchema schema;
    AuditKeys out;
    for (const QByteArray &key : commandKeys(r.command)) {
        if (const auto receipt = schema.parseReceiptKey(key)) {
            out.sku = QString::fromUtf8(receipt->sku);
            out.order = QString::fromUtf8(receipt->orderId);
            break;
        }
        if (const auto sku = schema.skuOfStockKey(key))
            out.sku = QString::fromUtf8(*sku);
        else if (out.sku.isEmpty())
            out.sku = hashTag(key);
    }
    if (out.order.isEmpty()) {
        // A script deduction has no receipt key: Deducer names the order in the detail.
        static const QRegularExpression order(QStringLiteral("(?:^|; )order (\\S+)"));
        const auto m = order.match(r.detail);
        if (m.hasMatch())
            out.order = m.captured(1);
    }
    return out;
}

AuditIndex::AuditIndex(QString path)
    : m_tail(std::move(path))
{
    m_noOutcomeText = m_strings.intern(noOutcomeRecordedText());
}

AuditIndex AuditIndex::fromRecords(const QList<AuditRecord> &records)
{
    AuditIndex index;
    index.m_memory = auditToJsonLines(records);
    qsizetype start = 0;
    int lineNo = 0;
    while (start < index.m_memory.size()) {
        qsizetype end = index.m_memory.indexOf('\n', start);
        if (end < 0)
            end = index.m_memory.size();
        index.addLine(start, ++lineNo,
                      QByteArrayView(index.m_memory.constData() + start, end - start));
        start = end + 1;
    }
    return index;
}

void AuditIndex::clear()
{
    m_entries.clear();
    m_strings = StringPool();
    m_noOutcomeText = m_strings.intern(noOutcomeRecordedText());
    m_text.clear();
    m_actions.clear();
    m_openAttempts.clear();
    m_noScript.clear();
    m_scriptLoad.clear();
    m_problems.clear();
    m_problemCount = m_noOutcome = m_rows = 0;
    m_firstChanged = 0;
}

AuditIndex::ReadStats AuditIndex::readAppended(qint64 maxBytes, const std::atomic_bool *cancel,
                                               const AuditTail::ProgressFn &progress)
{
    ReadStats stats;
    stats.read = m_tail.readAppended(
        [&](qint64 offset, int lineNo, QByteArrayView line) {
            ++stats.parsed;
            addLine(offset, lineNo, line);
        },
        maxBytes, cancel, progress);
    if (stats.read.restarted && stats.parsed == 0)
        clear(); // replaced by an empty file, or removed
    return stats;
}

void AuditIndex::addLine(qint64 offset, int lineNo, QByteArrayView line)
{
    if (lineNo == 1 && (!m_entries.empty() || m_problemCount > 0))
        clear(); // the tail started the file over: what was read before is another file
    const QByteArray bytes = QByteArray::fromRawData(line.data(), line.size()).trimmed();
    if (bytes.isEmpty())
        return;
    const auto r = AuditRecord::fromJsonLine(bytes);
    if (!r.ok()) {
        if (++m_problemCount <= MaxProblemsKept)
            m_problems << QStringLiteral("line %1: truncated or corrupt record skipped (%2)")
                              .arg(lineNo)
                              .arg(r.error());
        return;
    }
    add(offset, qint32(line.size()), r.value());
}

void AuditIndex::add(qint64 offset, qint32 length, const AuditRecord &r)
{
    const int i = int(m_entries.size());
    AuditEntry e;
    e.offset = offset;
    e.length = length;
    e.timeMs = r.timeUtc.toMSecsSinceEpoch();
    e.durationMs = qint32(std::clamp<qint64>(r.durationMs, -1, INT32_MAX));
    e.action = m_strings.intern(r.action);
    m_actions.insert(e.action);
    e.profile = m_strings.intern(r.profile);
    e.server = m_strings.intern(r.server);
    e.runId = m_strings.intern(r.runId);
    e.user = m_strings.intern(r.osUser);
    e.phase = r.phase;
    e.outcomeUnknown = r.outcomeUnknown;
    e.result = m_strings.intern(r.result);
    const AuditKeys keys = auditKeys(r);
    e.sku = m_strings.intern(keys.sku);
    QByteArray text = (QStringList{keys.order, commandText(r.command, CommandArgChars), r.attemptId,
                                   r.detail.left(DetailChars)}
                           .join(QChar(Separator)))
                          .toUtf8();
    text.truncate(TextChunk / 16); // a command of thousands of arguments: searchable in part
    if (m_text.empty() || m_text.back().size() + text.size() > TextChunk) {
        m_text.emplace_back();
        m_text.back().reserve(TextChunk);
    }
    e.text = quint32((m_text.size() - 1) * TextChunk + m_text.back().size());
    e.textLength = quint32(text.size());
    m_text.back() += text;

    if (r.phase == AuditRecord::Phase::Attempt) {
        // Shown as "no outcome recorded" until its outcome comes, which then takes its place.
        e.result = m_noOutcomeText;
        e.outcomeUnknown = true;
        m_openAttempts.insert(r.attemptId, i);
        ++m_noOutcome;
    } else if (r.phase == AuditRecord::Phase::Outcome) {
        const auto open = m_openAttempts.constFind(r.attemptId);
        if (open != m_openAttempts.cend()) {
            hide(*open);
            m_openAttempts.erase(open);
        }
    }
    if (r.phase != AuditRecord::Phase::Attempt) {
        // A script deduction that met NOSCRIPT is three writes: the EVALSHA that did not run,
        // SCRIPT LOAD, the EVALSHA again. One deduction, one row: the last, with the others
        // as its earlier steps.
        const QString key = groupKey(r);
        if (isEvalSha(r) && r.result.startsWith(QLatin1String("not run: NOSCRIPT"))) {
            m_noScript.insert(key, i);
            m_scriptLoad.remove(key);
        } else if (r.action == QLatin1String("script-load") && m_noScript.contains(key)) {
            e.previousStep = m_noScript.take(key);
            hide(e.previousStep);
            m_scriptLoad.insert(key, i);
        } else if (isEvalSha(r) && m_scriptLoad.contains(key)) {
            e.previousStep = m_scriptLoad.take(key);
            hide(e.previousStep);
        }
    }
    m_entries.push_back(e);
    ++m_rows;
}

void AuditIndex::hide(int i)
{
    AuditEntry &e = m_entries.at(size_t(i));
    if (e.hidden)
        return;
    e.hidden = true;
    --m_rows;
    if (e.phase == AuditRecord::Phase::Attempt)
        --m_noOutcome;
    m_firstChanged = m_firstChanged < 0 ? i : std::min(m_firstChanged, i);
}

int AuditIndex::takeFirstChangedEntry()
{
    return std::exchange(m_firstChanged, -1);
}

AuditIndex::Texts AuditIndex::texts(const AuditEntry &e) const
{
    const QList<QByteArray> parts = searchText(e).toByteArray().split(Separator);
    const auto part = [&](int n) {
        return n < parts.size() ? QString::fromUtf8(parts.at(n)) : QString();
    };
    return {part(0), part(1), part(2), part(3)};
}

QByteArrayView AuditIndex::searchText(const AuditEntry &e) const
{
    const QByteArray &chunk = m_text.at(e.text / TextChunk);
    return QByteArrayView(chunk.constData() + e.text % TextChunk, e.textLength);
}

std::optional<AuditRecord> AuditIndex::parseAt(const QByteArray &source, const AuditEntry &e) const
{
    const QByteArray line = source.mid(e.offset, e.length);
    auto r = AuditRecord::fromJsonLine(line.trimmed());
    if (!r.ok())
        return std::nullopt;
    AuditRecord out = r.value();
    if (out.phase == AuditRecord::Phase::Attempt && !e.hidden) {
        out.result = noOutcomeRecordedText();
        out.outcomeUnknown = true;
    }
    return out;
}

QList<AuditRecord> AuditIndex::records(const QList<int> &entries) const
{
    QList<AuditRecord> out;
    out.reserve(entries.size());
    QFile f(path());
    const bool file = m_memory.isEmpty();
    if (file && !f.open(QIODevice::ReadOnly))
        return out;
    for (int i : entries) {
        if (i < 0 || size_t(i) >= m_entries.size())
            continue;
        const AuditEntry &e = m_entries.at(size_t(i));
        std::optional<AuditRecord> r;
        if (!file) {
            r = parseAt(m_memory, e);
        } else if (f.seek(e.offset)) {
            AuditEntry at = e;
            at.offset = 0;
            r = parseAt(f.read(e.length), at);
        }
        if (r)
            out << *r;
    }
    return out;
}

std::optional<AuditRecord> AuditIndex::record(int i) const
{
    const QList<AuditRecord> one = records({i});
    if (one.isEmpty())
        return std::nullopt;
    return one.first();
}

QList<AuditRecord> AuditIndex::steps(int i) const
{
    QList<int> chain;
    for (int at = i; at >= 0 && size_t(at) < m_entries.size() && chain.size() < 8;
         at = m_entries.at(size_t(at)).previousStep)
        chain.prepend(at);
    return records(chain);
}

QStringList AuditIndex::problems() const
{
    QStringList out = m_problems;
    if (m_problemCount > MaxProblemsKept)
        out << QStringLiteral("… and %1 more").arg(m_problemCount - MaxProblemsKept);
    if (const QString last = m_tail.incompleteLastLine(); !last.isEmpty() && m_memory.isEmpty())
        out << last;
    return out;
}

} // namespace inventory
