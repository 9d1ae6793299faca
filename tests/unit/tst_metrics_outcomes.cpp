// SPDX-License-Identifier: GPL-3.0-or-later
// Deduction outcomes per time bucket: from this session's DeductionHistory and from an audit
// log file written by AuditLog, the way the Deducer writes it.
#include "inventory/AuditIndex.h"
#include "inventory/AuditLog.h"
#include "inventory/DeductionHistory.h"
#include "metrics/OutcomeBuckets.h"

#include <QTemporaryDir>
#include <QTest>

using namespace metrics;
using inventory::OutcomeKind;

namespace {

constexpr qint64 Minute = 60'000;
const qint64 Base =
    QDateTime::fromString(QStringLiteral("2026-11-30T10:00:00Z"), Qt::ISODate).toMSecsSinceEpoch();

inventory::DeductionResult result(OutcomeKind kind, qint64 atMs)
{
    inventory::DeductionResult r;
    r.outcome.kind = kind;
    r.outcome.remaining = 7;
    r.outcome.stock = 0;
    r.startedUtc = QDateTime::fromMSecsSinceEpoch(atMs, Qt::UTC);
    return r;
}

// One deduction as the Deducer records it: an attempt, then (unless `died`) its outcome.
void record(const inventory::AuditLog &log, OutcomeKind kind, qint64 atMs, bool died = false)
{
    inventory::AuditRecord rec;
    rec.action = QStringLiteral("deduct");
    rec.timeUtc = QDateTime::fromMSecsSinceEpoch(atMs, Qt::UTC);
    rec.command = {"FCALL", "inventory_deduct_v1", "2", "stock:{1}:available", "idem:{1}:9", "1",
                   "60"};
    const auto attempt = log.appendAttempt(rec);
    QVERIFY(attempt.ok());
    if (died)
        return;
    inventory::DeductionOutcome o;
    o.kind = kind;
    o.remaining = 7;
    o.stock = 0;
    o.transportError = core::Sentence::plain(QStringLiteral("timeout"));
    rec.result = o.summary();
    rec.outcomeUnknown = kind == OutcomeKind::Unknown;
    QVERIFY(log.appendOutcome(rec, attempt->attemptId).ok());
}

int count(const std::vector<OutcomeBucket> &b, size_t i, OutcomeKind k)
{
    return b.at(i).counts[size_t(k)];
}

} // namespace

class TstMetricsOutcomes : public QObject
{
    Q_OBJECT

private slots:
    void bucketsKeepEmptyOnesAndDropOutsiders()
    {
        const std::vector<OutcomeEvent> events{{Base + 5'000, OutcomeKind::Deducted},
                                               {Base + 65'000, OutcomeKind::Insufficient},
                                               {Base + 70'000, OutcomeKind::Deducted},
                                               {Base + 4 * Minute, OutcomeKind::Unknown},
                                               {Base - 1, OutcomeKind::Deducted}};
        const auto b = bucketOutcomes(events, Base, Base + 3 * Minute, Minute);
        QCOMPARE(b.size(), size_t(4));
        QCOMPARE(b[0].startMs, Base);
        QCOMPARE(b[0].total(), 1);
        QCOMPARE(count(b, 1, OutcomeKind::Insufficient), 1);
        QCOMPARE(count(b, 1, OutcomeKind::Deducted), 1);
        QCOMPARE(b[2].total(), 0);
        QCOMPARE(b[3].total(), 0); // the Unknown at +4 min is after the end
    }

    void fromTheSessionHistory()
    {
        inventory::DeductionHistory h;
        h.add(result(OutcomeKind::Deducted, Base + 1'000));
        h.add(result(OutcomeKind::Deducted, Base + 2'000));
        h.add(result(OutcomeKind::AlreadyApplied, Base + 3'000));
        h.add(result(OutcomeKind::MayHaveWritten, Base + Minute + 1));
        const auto b = bucketOutcomes(sessionOutcomes(h), Base, Base + Minute + 30'000, Minute);
        QCOMPARE(b.size(), size_t(2));
        QCOMPARE(count(b, 0, OutcomeKind::Deducted), 2);
        QCOMPARE(count(b, 0, OutcomeKind::AlreadyApplied), 1);
        QCOMPARE(count(b, 1, OutcomeKind::MayHaveWritten), 1);
    }

    // Every outcome's summary, as written to the log, is read back as that outcome.
    void everySummaryIsRecognised()
    {
        for (int k = 0; k < OutcomeKindCount; ++k) {
            inventory::DeductionOutcome o;
            o.kind = OutcomeKind(k);
            o.remaining = 1;
            o.serverError = core::Sentence::plain(QStringLiteral("ERR x"));
            const auto back = outcomeOfAuditResult(o.summary(), false);
            QVERIFY2(back && *back == o.kind, qPrintable(o.summary()));
        }
        QVERIFY(!outcomeOfAuditResult(QStringLiteral("loaded: sha1 22bf"), false));
    }

    void fromAnAuditLogFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        inventory::AuditLog log(path);
        record(log, OutcomeKind::Deducted, Base + 1'000);
        record(log, OutcomeKind::Insufficient, Base + 2'000);
        record(log, OutcomeKind::Deducted, Base + Minute + 10);
        record(log, OutcomeKind::Unknown, Base + Minute + 20);
        record(log, OutcomeKind::Deducted, Base + Minute + 30, true); // no outcome recorded
        record(log, OutcomeKind::Deducted, Base + 10 * Minute);       // outside the period
        inventory::AuditRecord other;                                 // not a deduction
        other.action = QStringLiteral("expire");
        other.timeUtc = QDateTime::fromMSecsSinceEpoch(Base + 5'000, Qt::UTC);
        other.result = QStringLiteral("deducted-looking text of another action");
        QVERIFY(log.append(other).ok());

        inventory::AuditIndex index(path);
        index.readAppended();
        const auto events = auditOutcomes(index, Base, Base + 2 * Minute);
        QCOMPARE(events.size(), size_t(5));
        const auto b = bucketOutcomes(events, Base, Base + 2 * Minute, Minute);
        QCOMPARE(count(b, 0, OutcomeKind::Deducted), 1);
        QCOMPARE(count(b, 0, OutcomeKind::Insufficient), 1);
        QCOMPARE(count(b, 1, OutcomeKind::Deducted), 1);
        QCOMPARE(count(b, 1, OutcomeKind::Unknown), 2); // one unknown, one with no outcome
        QCOMPARE(b[2].total(), 0);
    }
};

QTEST_GUILESS_MAIN(TstMetricsOutcomes)
#include "tst_metrics_outcomes.moc"
