// SPDX-License-Identifier: GPL-3.0-or-later
#include "Deducer.h"

#include "InventoryLog.h"
#include "WriteTargetRole.h"
#include "core/Bytes.h"
#include "core/Wording.h"
#include "redis/Blocking.h"
#include "redis/ReplyShape.h"
#include "redis/ResultReads.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPointer>

namespace inventory {

namespace {
// The readings and verdicts people read are translated in the window; the CLI installs no
// translator and prints the English. The audit record is built elsewhere, in English.
struct DeducerText
{
    Q_DECLARE_TR_FUNCTIONS(inventory::Deducer)
};
} // namespace

QString runIdOf(const redis::ReplyResult &info)
{
    const auto text = redis::stringOf(info);
    if (!text)
        return {};
    for (const QByteArray &line : text->split('\n'))
        if (line.startsWith("run_id:"))
            return QString::fromLatin1(line.mid(7).trimmed());
    return {};
}

namespace {

// One deduction in flight. It is its own callback context, so that the audit record is
// written whatever happens to the caller; it deletes itself when done.
class DeductionRun : public QObject
{
public:
    DeductionRun(redis::CommandSender &sender, const DeductionContext &ctx, QObject *caller,
                 std::function<void(const DeductionResult &)> done, const DeductionOptions &opt)
        : m_sender(sender)
        , m_ctx(ctx)
        , m_caller(caller)
        , m_hadCaller(caller != nullptr)
        , m_done(std::move(done))
        , m_options(opt)
    {}

    void start(const DeductionPlan &plan)
    {
        m_result.plan = plan;
        m_result.startedUtc = QDateTime::currentDateTimeUtc();
        if (!plan.ok()) {
            QStringList why;
            for (const FieldProblem &p : plan.problems)
                why << p.field + QStringLiteral(": ") + p.message.english; // for the record
            m_result.outcome.kind = OutcomeKind::NotSent;
            m_result.outcome.notSentReason = plan.problemFor(QStringLiteral("keys"))
                                                 ? NotSentReason::CrossSlot
                                                 : NotSentReason::InvalidRequest;
            m_result.outcome.transportError = core::Sentence::plain(
                QStringLiteral("refused before sending (%1)").arg(why.join(QStringLiteral("; "))));
            finish();
            return;
        }
        // The INFOs carry no key: sent with the GET, they reach the node the write goes to (on
        // a cluster the owner of the stock key's slot).
        m_sender.sendBatch(
            {{"GET", plan.stockKey}, {"INFO", "server"}, {"INFO", "replication"}}, this,
            [this](const QList<redis::ReplyResult> &r) {
                const auto reply = [&](int i) {
                    return r.value(i, redis::RedisError::notSent({}));
                };
                m_result.stockBefore = KeyReading::fromReply(reply(0));
                m_result.runId = runIdOf(reply(1));
                // The node the INFO went to: the one the run_id and the role belong to.
                m_result.server = m_ctx.serverFor(m_result.plan.stockSlot);
                const WriteTargetRole role = writeTargetRole(reply(2));
                if (!role.writable()) {
                    m_result.outcome.kind = OutcomeKind::NotSent;
                    m_result.outcome.notSentReason = role.kind == WriteTargetRole::Kind::Replica
                                                         ? NotSentReason::Replica
                                                         : NotSentReason::RoleUnknown;
                    m_result.outcome.transportError = role.refusal();
                    finish();
                    return;
                }
                if (callerGone()) {
                    finish(); // nothing was written: nobody is left to ask for it
                    return;
                }
                sendWrite(m_result.plan.command);
            },
            m_ctx.timeoutMs);
    }

private:
    bool callerGone() const { return m_hadCaller && !m_caller; }
    bool scriptMode() const { return m_result.plan.request.mode == DeductionMode::Script; }

    void sendWrite(const redis::Command &command)
    {
        // Write-ahead: the attempt is on disk before the command leaves, or it does not leave.
        const auto attempt = recordAttempt("deduct", command);
        if (!attempt.ok()) {
            m_result.outcome.kind = OutcomeKind::NotSent;
            m_result.outcome.notSentReason = NotSentReason::AuditLog;
            m_result.outcome.transportError = attempt.error();
            finish();
            return;
        }
        m_result.sent << command;
        const QDateTime sentAt = QDateTime::currentDateTimeUtc();
        auto clock = std::make_shared<QElapsedTimer>();
        clock->start();
        m_sender.send(
            command, this,
            [this, command, id = attempt.value().attemptId, sentAt,
             clock](const redis::ReplyResult &r) {
                onWriteReply(command, id, sentAt, clock->elapsed(), r);
            },
            m_ctx.timeoutMs);
    }

    void onWriteReply(const redis::Command &command, const QString &attemptId,
                      const QDateTime &sentAt, qint64 ms, const redis::ReplyResult &r)
    {
        m_result.durationMs = ms;
        // After a MOVED the router's map names the node that finally answered.
        const QString answered = m_ctx.serverFor(m_result.plan.stockSlot);
        if (answered != m_result.server) {
            m_result.server = answered;
            m_result.runId.clear();
        }
        if (scriptMode() && !m_result.scriptLoaded && !r.ok() && r.error().isServer("NOSCRIPT")) {
            // NOSCRIPT proves the script did not run: loading it and sending the same EVALSHA
            // once more cannot deduct twice. This is not a business retry.
            recordOutcome(
                "deduct", command, attemptId, sentAt, ms,
                QStringLiteral("not run: NOSCRIPT (the script is not loaded); loading it"), false);
            if (callerGone()) {
                m_result.outcome = decodeScriptReply(r); // Rejected: NOSCRIPT
                finish(); // nothing ran; nobody is left to load it for
                return;
            }
            loadScript();
            return;
        }
        // The plan validated the quantity: the decoder holds the reply to what this call could
        // have answered.
        const qint64 quantity = m_result.plan.request.quantity.toLongLong();
        m_result.outcome = scriptMode()
                               ? decodeScriptReply(r, quantity)
                               : decodeFunctionReply(r, ReplyContract::FunctionV1, quantity);
        // A reply outside the contract is described in words; the record keeps it as it came.
        const QString reply = m_result.outcome.anomaly.isEmpty()
                                  ? QString()
                                  : QStringLiteral("reply %1").arg(m_result.outcome.replyText);
        recordOutcome("deduct", command, attemptId, sentAt, ms, m_result.outcome.summary(),
                      m_result.outcome.kind == OutcomeKind::Unknown, reply);
        readAfter();
    }

    // A refusal the console words: the record keeps the English, the result card the text.
    void setServerError(const core::Sentence &error) { m_result.outcome.serverError = error; }

    void loadScript()
    {
        const redis::Command load{"SCRIPT", "LOAD", deductScriptSource()};
        const auto attempt = recordAttempt("script-load", load);
        if (!attempt.ok()) {
            m_result.outcome.kind = OutcomeKind::Rejected;
            setServerError(core::Sentence::translated(
                               "inventory::Deducer",
                               QT_TRANSLATE_NOOP("inventory::Deducer",
                                                 "NOSCRIPT: the script is not loaded, so the "
                                                 "deduction did not run; SCRIPT LOAD was not "
                                                 "sent because %1"))
                               .arg(attempt.error()));
            finish();
            return;
        }
        m_result.sent << load;
        m_result.scriptLoaded = true;
        const QDateTime sentAt = QDateTime::currentDateTimeUtc();
        auto clock = std::make_shared<QElapsedTimer>();
        clock->start();
        m_sender.send(
            load, this,
            [this, load, id = attempt.value().attemptId, sentAt,
             clock](const redis::ReplyResult &r) {
                const QByteArray expected = deductScriptSha1();
                const auto sha = redis::stringOf(r);
                const bool loaded = sha && *sha == expected;
                // Why it was not loaded: the record keeps the English, the result card the text.
                const core::Sentence failure =
                    loaded   ? core::Sentence()
                    : r.ok() ? core::Sentence::translated(
                                   "inventory::Deducer",
                                   QT_TRANSLATE_NOOP("inventory::Deducer",
                                                     "SCRIPT LOAD answered %1, not the expected "
                                                     "sha1 %2 (an anomaly)"))
                                   .arg(redis::replyShape(*r), QString::fromLatin1(expected))
                             : r.error().toString();
                const QString summary =
                    loaded ? QStringLiteral("loaded: sha1 %1").arg(QString::fromLatin1(expected))
                           : failure.english;
                recordOutcome("script-load", load, id, sentAt, clock->elapsed(), summary,
                              !r.ok() && r.error().mayHaveRun());
                if (!loaded) {
                    m_result.outcome.kind = OutcomeKind::Rejected;
                    setServerError(core::Sentence::translated(
                                       "inventory::Deducer",
                                       QT_TRANSLATE_NOOP("inventory::Deducer",
                                                         "the script was not loaded (NOSCRIPT) "
                                                         "and SCRIPT LOAD failed: %1; the "
                                                         "deduction did not run"))
                                       .arg(failure));
                    readAfter();
                    return;
                }
                if (callerGone()) {
                    finish();
                    return;
                }
                sendWrite(m_result.plan.command);
            },
            m_ctx.timeoutMs);
    }

    AuditRecord auditRecord(const char *action, const redis::Command &command) const
    {
        const DeductionRequest &req = m_result.plan.request;
        QStringList detail{modeName(req.mode) + QStringLiteral(" mode")};
        if (req.mode == DeductionMode::Script && !req.orderId.isEmpty())
            detail << QStringLiteral("order %1").arg(core::escapeBytes(req.orderId));
        if (!m_options.note.isEmpty())
            detail << m_options.note;
        AuditRecord rec;
        rec.action = QLatin1String(action);
        rec.profile = m_ctx.profileName;
        // The node that runs the command (on a cluster the slot's owner, not the seed). When a
        // MOVED sent the call elsewhere since the INFO, the run_id read is another node's: it
        // is left out rather than stored against the wrong server.
        rec.server = m_ctx.serverFor(m_result.plan.stockSlot);
        if (rec.server == m_result.server)
            rec.runId = m_result.runId;
        rec.command = command;
        rec.detail = detail.join(QStringLiteral("; "));
        return rec;
    }

    core::Result<AuditRecord, core::Sentence> recordAttempt(const char *action,
                                                            const redis::Command &command)
    {
        const auto id = AuditLog(m_ctx.auditLogPath).appendAttempt(auditRecord(action, command));
        if (!id.ok())
            qCWarning(lcInventory)
                << "not sent, the attempt could not be recorded:" << id.error().english;
        return id;
    }

    void recordOutcome(const char *action, const redis::Command &command, const QString &attemptId,
                       const QDateTime &sentAt, qint64 ms, const QString &summary, bool unknown,
                       const QString &extraDetail = {})
    {
        AuditRecord rec = auditRecord(action, command);
        if (!extraDetail.isEmpty())
            rec.detail += QStringLiteral("; ") + extraDetail;
        rec.timeUtc = sentAt;
        rec.result = summary;
        rec.outcomeUnknown = unknown;
        rec.durationMs = ms;
        const auto appended = AuditLog(m_ctx.auditLogPath).appendOutcome(rec, attemptId);
        if (!appended.ok()) {
            qCWarning(lcInventory) << "audit record lost:" << appended.error().english;
            m_result.auditProblems << appended.error();
        }
    }

    void readAfter()
    {
        const OutcomeKind k = m_result.outcome.kind;
        // After an unknown outcome the connection may be stuck behind the call (a paused
        // server) or gone; reading would only add another timeout. "Check receipt" does it.
        if (k == OutcomeKind::Unknown || k == OutcomeKind::NotSent || callerGone()) {
            finish();
            return;
        }
        readBack(
            m_sender, m_result, this,
            [this](const DeductionResult &r) {
                m_result = r;
                finish();
            },
            m_ctx.timeoutMs);
    }

    void finish()
    {
        qCInfo(lcInventory) << "deduction" << modeName(m_result.plan.request.mode)
                            << core::escapeBytes(m_result.plan.stockKey, 80)
                            << m_result.outcome.summary();
        if (!callerGone() && m_done)
            m_done(m_result);
        deleteLater();
    }

    redis::CommandSender &m_sender;
    DeductionContext m_ctx;
    QPointer<QObject> m_caller;
    bool m_hadCaller;
    std::function<void(const DeductionResult &)> m_done;
    DeductionOptions m_options;
    DeductionResult m_result;
};

} // namespace

KeyReading KeyReading::fromReply(const redis::ReplyResult &r)
{
    KeyReading k;
    k.read = true;
    if (!r.ok())
        k.error = r.error().toString();
    else if (const auto value = r->string())
        k.value = *value;
    else if (!r->isNil())
        k.error = core::Sentence::translated(
                      "inventory::Deducer",
                      QT_TRANSLATE_NOOP("inventory::Deducer",
                                        "GET answered %1, not a value (an anomaly)"))
                      .arg(redis::replyShape(*r));
    return k;
}

QString KeyReading::text() const
{
    if (!read)
        return DeducerText::tr("not read");
    if (!error.isEmpty())
        return DeducerText::tr("could not read (%1)").arg(error.text); // never a value
    if (!value)
        return DeducerText::tr("missing");
    return core::escapeBytes(*value, 60);
}

void readBack(redis::CommandSender &sender, DeductionResult result, QObject *context,
              std::function<void(const DeductionResult &)> done, int timeoutMs)
{
    sender.send(
        {"GET", result.plan.stockKey}, context,
        [&sender, result, context, done, timeoutMs](const redis::ReplyResult &r) mutable {
            result.stockAfter = KeyReading::fromReply(r);
            result.outcome = withStockReadings(result.outcome, result.stockBefore.value,
                                               result.stockAfter.value);
            if (result.plan.request.mode == DeductionMode::Script) {
                done(result);
                return;
            }
            const QByteArray key = result.plan.receiptKey;
            checkReceipt(
                sender, key, context,
                [result, done](const ReceiptStatus &s) mutable {
                    result.receiptAfter = s;
                    done(result);
                },
                timeoutMs);
        },
        timeoutMs);
}

DeductionResult readBackBlocking(redis::CommandSender &sender, const DeductionResult &result,
                                 int timeoutMs)
{
    return redis::blockUntilReply<DeductionResult>(
        [&](QObject *context, auto done) { readBack(sender, result, context, done, timeoutMs); });
}

void deduct(redis::CommandSender &sender, const DeductionContext &ctx, const DeductionPlan &plan,
            QObject *context, std::function<void(const DeductionResult &)> done,
            const DeductionOptions &options)
{
    auto *run = new DeductionRun(sender, ctx, context, std::move(done), options);
    run->start(plan);
}

DeductionResult deductBlocking(redis::CommandSender &sender, const DeductionContext &ctx,
                               const DeductionPlan &plan, const DeductionOptions &options)
{
    return redis::blockUntilReply<DeductionResult>(
        [&](QObject *context, auto done) { deduct(sender, ctx, plan, context, done, options); });
}

QString scriptCheckVerdict(const DeductionResult &result, const KeyReading &now)
{
    if (!now.read || !now.error.isEmpty())
        return DeducerText::tr("The stock could not be read (%1); try again when the server "
                               "answers.")
            .arg(now.text());
    const auto before =
        result.stockBefore.value ? result.stockBefore.value->toLongLong() : qint64(-1);
    const qint64 quantity = result.plan.request.quantity.toLongLong();
    if (!now.value)
        return DeducerText::tr("The stock key does not exist now. The script does not create or "
                               "delete stock; someone else changed it.");
    const qint64 current = now.value->toLongLong();
    if (before < 0)
        return DeducerText::tr("Stock is %1 now; it was not read before the call, so nothing "
                               "can be concluded. Compare with your order records.")
            .arg(current);
    // Whole sentences, so that a translation keeps its own word order.
    const QString caveat = DeducerText::tr("This is evidence only if no other client changed "
                                           "this SKU meanwhile. The script keeps no receipt.");
    QString reading;
    if (current == before - quantity)
        reading = DeducerText::tr("Stock is %1 now, %2 just before the call: it went down by "
                                  "exactly the quantity (%3), so the deduction most likely "
                                  "happened. Do not run it again.")
                      .arg(current)
                      .arg(before)
                      .arg(quantity);
    else if (current == before)
        reading = DeducerText::tr("Stock is %1 now, %2 just before the call: unchanged, so the "
                                  "deduction most likely did not happen.")
                      .arg(current)
                      .arg(before);
    else
        reading = DeducerText::tr("Stock is %1 now, %2 just before the call: it changed by %3, "
                                  "not by the quantity (%4); other clients changed it, so "
                                  "nothing can be concluded.")
                      .arg(current)
                      .arg(before)
                      .arg(current - before)
                      .arg(quantity);
    return reading + QLatin1Char(' ') + caveat;
}

QString receiptVerdict(const DeductionResult &result, const ReceiptStatus &receipt)
{
    if (receipt.ok() && !receipt.exists && result.outcome.kind == OutcomeKind::MayHaveWritten)
        return DeducerText::tr("No receipt, but the call failed in a way that may come after a "
                               "write: if the stock went down by the quantity, the deduction "
                               "happened without its receipt, and a retry with the same order "
                               "id would deduct again.");
    const OutcomeKind k = result.outcome.kind;
    if (receipt.ok() && !receipt.exists && result.plan.request.mode == DeductionMode::Function
        && (k == OutcomeKind::Deducted || k == OutcomeKind::AlreadyApplied))
        return DeducerText::tr("No receipt found, though this call's reply said one was there: "
                               "it expired, was evicted or was deleted since, so a retry of this "
                               "order would deduct again.");
    return receipt.verdict();
}

void readKey(redis::CommandSender &sender, const QByteArray &key, QObject *context,
             std::function<void(const KeyReading &)> done, int timeoutMs)
{
    sender.send(
        {"GET", key}, context,
        [done](const redis::ReplyResult &r) { done(KeyReading::fromReply(r)); }, timeoutMs);
}

} // namespace inventory
