// SPDX-License-Identifier: GPL-3.0-or-later
#include "Repairer.h"

#include "AdjustOutcome.h"
#include "InventoryLog.h"
#include "ReleaseOutcome.h"
#include "WriteTargetRole.h"
#include "core/Bytes.h"
#include "redis/ReplyShape.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QRegularExpression>

namespace inventory {

namespace {
// What a read of the record key proves, in the window's language (the CLI prints the English).
constexpr auto SettleContext = "inventory::RepairSettlement";
struct SettleText
{
    Q_DECLARE_TR_FUNCTIONS(inventory::RepairSettlement)
};
} // namespace

namespace {

RecordReading recordFrom(const redis::ReplyResult &get, const redis::ReplyResult &ttl)
{
    RecordReading r;
    r.read = true;
    const KeyReading value = KeyReading::fromReply(get);
    if (!value.error.isEmpty()) {
        r.error = value.error;
        return r;
    }
    r.value = value.value;
    if (!ttl.ok())
        r.error = ttl.error().toString();
    else if (const auto seconds = ttl->integer())
        r.ttlSeconds = *seconds;
    else
        r.error = core::Sentence::translated(SettleContext,
                                             QT_TRANSLATE_NOOP("inventory::RepairSettlement",
                                                               "TTL answered %1, not a number"))
                      .arg(redis::replyShape(*ttl));
    return r;
}

// The audit record of this repair's FCALL: the reason and the evidence read before it.
AuditRecord repairRecord(const RepairResult &result, const DeductionContext &ctx)
{
    const RepairPlan &plan = result.plan;
    QStringList detail;
    if (!plan.request.reason.isEmpty())
        detail << QStringLiteral("reason: %1").arg(plan.request.reason);
    if (result.receiptBefore) {
        const ReceiptStatus &s = *result.receiptBefore;
        detail
            << (s.ok()
                    ? QStringLiteral("receipt before: %1 (%2, TTL %3)")
                          .arg(s.verdictName(),
                               s.exists ? core::escapeBytes(s.rawValue, 80)
                                        : QStringLiteral("missing"),
                               s.ttlText(core::Wording::English))
                    : QStringLiteral("receipt before: could not read (%1)").arg(s.error.english));
    }
    detail << QStringLiteral("%1 key before: %2")
                  .arg(plan.request.kind == RepairKind::Release ? QStringLiteral("release")
                                                                : QStringLiteral("adjustment"),
                       result.recordBefore.text());
    AuditRecord rec;
    rec.action = repairName(plan.request.kind);
    rec.profile = ctx.profileName;
    rec.server = ctx.serverFor(plan.slot);
    if (rec.server == result.server)
        rec.runId = result.runId;
    rec.command = plan.command;
    rec.detail = detail.join(QStringLiteral("; "));
    return rec;
}

RepairOutcome notSent(RepairKind repair, NotSentReason reason, const core::Sentence &why)
{
    RepairOutcome o;
    o.repair = repair;
    o.kind = RepairOutcomeKind::NotSent;
    o.notSentReason = reason;
    o.transportError = why;
    return o;
}

} // namespace

bool RecordReading::wellFormed(RepairKind kind) const
{
    static const QRegularExpression release(
        QStringLiteral("^quantity=[1-9][0-9]{0,6};time=[0-9]+\\.[0-9]{6}$"));
    static const QRegularExpression adjust(
        QStringLiteral("^delta=-?[1-9][0-9]{0,6};time=[0-9]+\\.[0-9]{6}$"));
    return value
           && (kind == RepairKind::Release ? release : adjust)
                  .match(QString::fromLatin1(*value))
                  .hasMatch();
}

std::optional<QByteArray> RecordReading::amount(RepairKind kind) const
{
    if (!wellFormed(kind))
        return std::nullopt;
    const QByteArray field = value->split(';').first(); // "quantity=3", "delta=-2"
    return field.mid(field.indexOf('=') + 1);
}

std::optional<QByteArray> RepairResult::otherRecordedAmount() const
{
    if (outcome.kind != RepairOutcomeKind::AlreadyApplied)
        return std::nullopt;
    const RepairKind kind = plan.request.kind;
    auto recorded = recordAfter.amount(kind);
    if (!recorded)
        recorded = recordBefore.amount(kind);
    if (!recorded || *recorded == plan.request.amount)
        return std::nullopt;
    return recorded;
}

QString RepairResult::otherAmountSentence() const
{
    const auto recorded = otherRecordedAmount();
    if (!recorded)
        return {};
    const QString asked = QString::fromUtf8(plan.request.amount);
    const QString id = core::escapeBytes(plan.request.id, 60);
    if (plan.request.kind == RepairKind::Release)
        return SettleText::tr("The release key records a quantity of %1, not the %2 asked for: "
                              "order %3 was released with %1 before, and %2 was not released.")
            .arg(QString::fromLatin1(*recorded), asked, id);
    return SettleText::tr("The adjustment key records a delta of %1, not the %2 asked for: this "
                          "correction was not applied; to apply it, give it an adjustment id of "
                          "its own.")
        .arg(QString::fromLatin1(*recorded), asked);
}

QString RecordReading::text() const
{
    if (!read)
        return QStringLiteral("not read");
    if (!error.isEmpty())
        return QStringLiteral("could not read (%1)").arg(error.english);
    if (!value)
        return QStringLiteral("missing");
    return QStringLiteral("%1 (TTL %2)")
        .arg(core::escapeBytes(*value, 80),
             ttlSeconds >= 0 ? QStringLiteral("%1 s").arg(ttlSeconds) : QStringLiteral("none"));
}

// Whole sentences for a release and for an adjustment, so that each translates as one.
RepairSettlement settleRepair(const RepairPlan &plan, const RecordReading &record)
{
    const bool release = plan.request.kind == RepairKind::Release;
    const auto said = [release](const char *forRelease, const char *forAdjustment) {
        return QCoreApplication::translate(SettleContext, release ? forRelease : forAdjustment);
    };
    const QString keyName = core::escapeBytes(plan.recordKey, 80);
    if (!record.read || !record.error.isEmpty())
        return {false, std::nullopt,
                said(QT_TRANSLATE_NOOP("inventory::RepairSettlement",
                                       "not proven: the release key %1 could not be read (%2); "
                                       "read it again before doing anything else"),
                     QT_TRANSLATE_NOOP("inventory::RepairSettlement",
                                       "not proven: the adjustment key %1 could not be read (%2); "
                                       "read it again before doing anything else"))
                    .arg(keyName, record.read ? record.error.text : SettleText::tr("not read"))};
    if (!record.value)
        return {false, std::nullopt,
                said(QT_TRANSLATE_NOOP("inventory::RepairSettlement",
                                       "not proven: the release key %1 does not exist: the call "
                                       "may not have run, or its key expired or was evicted; "
                                       "sending the same release again is answered from that "
                                       "key if it ran and the key still lives"),
                     QT_TRANSLATE_NOOP("inventory::RepairSettlement",
                                       "not proven: the adjustment key %1 does not exist: the "
                                       "call may not have run, or its key expired or was "
                                       "evicted; sending the same adjust again is answered from "
                                       "that key if it ran and the key still lives"))
                    .arg(keyName)};
    if (!record.wellFormed(plan.request.kind))
        return {false, std::nullopt,
                said(QT_TRANSLATE_NOOP("inventory::RepairSettlement",
                                       "not proven: the release key %1 holds %2, which no release "
                                       "writes"),
                     QT_TRANSLATE_NOOP("inventory::RepairSettlement",
                                       "not proven: the adjustment key %1 holds %2, which no "
                                       "adjust writes"))
                    .arg(keyName, core::escapeBytes(*record.value, 80))};
    const auto amount = record.amount(plan.request.kind);
    if (amount && *amount != plan.request.amount)
        return {false, amount,
                said(QT_TRANSLATE_NOOP("inventory::RepairSettlement",
                                       "not this release: the release key %1 holds %2, written "
                                       "by a release of %3 under the same key; this call, if it "
                                       "ran, was answered from it and wrote nothing, and sending "
                                       "it again changes nothing: find out which amount is owed"),
                     QT_TRANSLATE_NOOP("inventory::RepairSettlement",
                                       "not this adjust: the adjustment key %1 holds %2, written "
                                       "by an adjust of %3 under the same key; this call, if it "
                                       "ran, was answered from it and wrote nothing, and sending "
                                       "it again changes nothing: find out which amount is owed"))
                    .arg(keyName, record.text(), QString::fromUtf8(*amount))};
    return {true, std::nullopt,
            said(QT_TRANSLATE_NOOP("inventory::RepairSettlement",
                                   "released: the release key %1 exists (%2), so this release was "
                                   "applied, by this call or an earlier one with the same key; do "
                                   "not send it again"),
                 QT_TRANSLATE_NOOP("inventory::RepairSettlement",
                                   "adjusted: the adjustment key %1 exists (%2), so this adjust "
                                   "was applied, by this call or an earlier one with the same "
                                   "key; do not send it again"))
                .arg(keyName, record.text())};
}

RecordReading readRecordBlocking(redis::CommandSender &sender, const QByteArray &key, int timeoutMs)
{
    const QList<redis::ReplyResult> r = sender.callBatch({{"GET", key}, {"TTL", key}}, timeoutMs);
    return recordFrom(r.value(0, redis::RedisError::notSent({})),
                      r.value(1, redis::RedisError::notSent({})));
}

namespace {
// The stock and the record as they are after a call that was answered. A refusal while the
// stock moved means something wrote during the call, perhaps this one.
void readAfter(redis::CommandSender &sender, const DeductionContext &ctx, RepairResult &result)
{
    const auto after = sender.callBatch({{"GET", result.plan.stockKey},
                                         {"GET", result.plan.recordKey},
                                         {"TTL", result.plan.recordKey}},
                                        ctx.timeoutMs);
    const auto afterReply = [&](int i) {
        return after.value(i, redis::RedisError::notSent({}));
    };
    result.stockAfter = KeyReading::fromReply(afterReply(0));
    result.recordAfter = recordFrom(afterReply(1), afterReply(2));
    DeductionOutcome refusal;
    refusal.kind = OutcomeKind::Rejected;
    const DeductionOutcome moved =
        withStockReadings(refusal, result.stockBefore.value, result.stockAfter.value);
    if (result.outcome.kind == RepairOutcomeKind::Rejected && !moved.stockMoved.isEmpty()) {
        result.outcome.kind = RepairOutcomeKind::MayHaveWritten;
        result.outcome.stockMoved = moved.stockMoved;
    }
}

// The outcome record, after the attempt the write-ahead log holds; a failure is kept in the
// result (the outcome is shown anyway).
void recordOutcome(const AuditLog &log, const QString &attemptId, const QDateTime &sentAt,
                   const DeductionContext &ctx, RepairResult &result)
{
    const bool unknown = result.outcome.kind == RepairOutcomeKind::Unknown;
    AuditRecord rec = repairRecord(result, ctx);
    if (!result.outcome.anomaly.isEmpty())
        rec.detail += QStringLiteral("; reply %1").arg(result.outcome.replyText);
    rec.timeUtc = sentAt;
    rec.result = result.outcome.summary();
    rec.outcomeUnknown = unknown || result.outcome.kind == RepairOutcomeKind::MayHaveWritten;
    rec.durationMs = result.durationMs;
    const auto appended = log.appendOutcome(rec, attemptId);
    if (!appended.ok()) {
        qCWarning(lcInventory) << "audit record lost:" << appended.error().english;
        result.auditProblems << appended.error();
    }
}

} // namespace

RepairResult repairBlocking(redis::CommandSender &sender, const DeductionContext &ctx,
                            const RepairPlan &plan)
{
    RepairResult result;
    result.plan = plan;
    result.startedUtc = QDateTime::currentDateTimeUtc();
    const RepairKind kind = plan.request.kind;
    if (!plan.ok()) {
        QStringList why;
        for (const FieldProblem &p : plan.problems)
            why << p.field + QStringLiteral(": ") + p.message.english; // for the record
        result.outcome = notSent(
            kind,
            plan.problems.first().field == QLatin1String("keys") ? NotSentReason::CrossSlot
                                                                 : NotSentReason::InvalidRequest,
            core::Sentence::plain(
                QStringLiteral("refused before sending (%1)").arg(why.join(QStringLiteral("; ")))));
        return result;
    }
    // The INFOs carry no key: sent with the key reads, they reach the node the write goes to.
    const auto before = sender.callBatch({{"GET", plan.stockKey},
                                          {"INFO", "server"},
                                          {"INFO", "replication"},
                                          {"GET", plan.recordKey},
                                          {"TTL", plan.recordKey}},
                                         ctx.timeoutMs);
    const auto reply = [&](int i) {
        return before.value(i, redis::RedisError::notSent({}));
    };
    result.stockBefore = KeyReading::fromReply(reply(0));
    result.runId = runIdOf(reply(1));
    result.server = ctx.serverFor(plan.slot);
    result.recordBefore = recordFrom(reply(3), reply(4));
    const WriteTargetRole role = writeTargetRole(reply(2));
    if (!role.writable()) {
        result.outcome =
            notSent(kind,
                    role.kind == WriteTargetRole::Kind::Replica ? NotSentReason::Replica
                                                                : NotSentReason::RoleUnknown,
                    role.refusal());
        return result;
    }
    if (kind == RepairKind::Release)
        result.receiptBefore = checkReceiptBlocking(sender, plan.receiptKey, ctx.timeoutMs);

    // Write-ahead: the attempt is on disk before the command leaves, or it does not leave.
    const AuditLog log(ctx.auditLogPath);
    const auto attempt = log.appendAttempt(repairRecord(result, ctx));
    if (!attempt.ok()) {
        qCWarning(lcInventory) << "not sent, the attempt could not be recorded:"
                               << attempt.error().english;
        result.outcome = notSent(kind, NotSentReason::AuditLog, attempt.error());
        return result;
    }
    const QDateTime sentAt = QDateTime::currentDateTimeUtc();
    QElapsedTimer clock;
    clock.start();
    const redis::ReplyResult r =
        sender.callBatch({plan.command}, ctx.timeoutMs).value(0, redis::RedisError::notSent({}));
    result.durationMs = clock.elapsed();
    result.outcome = kind == RepairKind::Release ? decodeReleaseReply(r, plan.amount())
                                                 : decodeAdjustReply(r, plan.amount());

    // After an unknown outcome the connection may be stuck behind the call: the caller
    // settles it on another.
    const bool unknown = result.outcome.kind == RepairOutcomeKind::Unknown;
    if (!unknown && result.outcome.kind != RepairOutcomeKind::NotSent)
        readAfter(sender, ctx, result);
    recordOutcome(log, attempt.value().attemptId, sentAt, ctx, result);
    qCInfo(lcInventory) << repairName(kind) << core::escapeBytes(plan.stockKey, 80)
                        << result.outcome.summary();
    return result;
}

} // namespace inventory
