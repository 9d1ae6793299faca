// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli deduct's output (see DeductReport.h).
#include "DeductReport.h"

#include "inventory/RetryProtection.h"

#include <QJsonArray>
#include <QTextStream>

namespace cli {
namespace {

using namespace inventory;

QJsonValue optionalNumber(const std::optional<qint64> &v)
{
    return v ? QJsonValue(double(*v)) : QJsonValue();
}

QJsonValue readingJson(const KeyReading &k)
{
    if (!k.read)
        return QJsonValue();
    if (!k.error.isEmpty())
        return QJsonObject{{QStringLiteral("error"), k.error.english}};
    return k.value ? QJsonValue(QString::fromUtf8(*k.value)) : QJsonValue();
}

} // namespace

QString planProblemsLine(const QList<FieldProblem> &problems)
{
    QStringList why;
    for (const FieldProblem &p : problems)
        why << QStringLiteral("--%1: %2")
                   .arg(p.field == QLatin1String("keys") ? QStringLiteral("sku") : p.field,
                        p.message.english);
    return QStringLiteral("nothing sent: %1").arg(why.join(QStringLiteral("; ")));
}

QJsonObject receiptJson(const ReceiptStatus &s)
{
    QJsonObject o{{QStringLiteral("key"), QString::fromUtf8(s.key)},
                  {QStringLiteral("verdict"), s.verdictName()},
                  {QStringLiteral("exists"), s.exists},
                  {QStringLiteral("ttl"), double(s.ttlSeconds)},
                  {QStringLiteral("remaining"), optionalNumber(s.remaining)},
                  {QStringLiteral("quantity"), optionalNumber(s.quantity)},
                  {QStringLiteral("source"), s.source},
                  {QStringLiteral("message"), s.verdict()}};
    if (!s.ok())
        o.insert(QStringLiteral("error"), s.error.english);
    return o;
}

QJsonObject resultJson(const DeductionResult &r, const QString &auditPath)
{
    const DeductionPlan &p = r.plan;
    const DeductionOutcome &o = r.outcome;
    QJsonArray command;
    for (const QByteArray &a : p.command)
        command.append(QString::fromUtf8(a));
    const QJsonArray problems =
        QJsonArray::fromStringList(core::copies(r.auditProblems, core::Wording::English));
    QJsonObject j{{QStringLiteral("outcome"), outcomeName(o.kind)},
                  {QStringLiteral("mode"), modeName(p.request.mode)},
                  {QStringLiteral("remaining"), optionalNumber(o.remaining)},
                  {QStringLiteral("stock"), optionalNumber(o.stock)},
                  {QStringLiteral("stock_key"), QString::fromUtf8(p.stockKey)},
                  {QStringLiteral("server"), r.server},
                  {QStringLiteral("run_id"), r.runId},
                  {QStringLiteral("slot"), p.stockSlot},
                  {QStringLiteral("command"), command},
                  {QStringLiteral("stock_before"), readingJson(r.stockBefore)},
                  {QStringLiteral("stock_after"), readingJson(r.stockAfter)},
                  {QStringLiteral("message"), resultMeaning(r)},
                  {QStringLiteral("next_step"), resultNextStep(r)},
                  {QStringLiteral("duration_ms"), double(r.durationMs)},
                  {QStringLiteral("script_loaded"), r.scriptLoaded},
                  {QStringLiteral("audit_log"), auditPath},
                  {QStringLiteral("audit_problems"), problems}};
    if (p.request.mode == DeductionMode::Function) {
        j.insert(QStringLiteral("receipt_key"), QString::fromUtf8(p.receiptKey));
        j.insert(QStringLiteral("receipt_slot"), p.receiptSlot);
        // Whether the receipt read back still stands behind "a retry returns Already applied".
        j.insert(QStringLiteral("retry_protection"), retryProtectionName(retryProtection(r)));
    }
    if (o.recordedQuantity)
        j.insert(QStringLiteral("recorded_quantity"), double(*o.recordedQuantity));
    if (o.kind == OutcomeKind::Rejected
        || (o.kind == OutcomeKind::MayHaveWritten && !o.outsideContract()))
        j.insert(QStringLiteral("error"), o.serverError.english);
    if (!o.stockMoved.isEmpty())
        j.insert(QStringLiteral("stock_moved"), o.stockMoved);
    if (!o.anomaly.isEmpty()) {
        j.insert(QStringLiteral("anomaly"), o.anomaly.english);
        j.insert(QStringLiteral("reply"), o.replyText); // as it came, for whoever investigates
    }
    if (o.kind == OutcomeKind::Unknown || o.kind == OutcomeKind::NotSent)
        j.insert(QStringLiteral("error"), o.transportError.english);
    if (r.receiptAfter) {
        QJsonObject receipt = receiptJson(*r.receiptAfter);
        receipt.insert(QStringLiteral("message"), receiptVerdict(r, *r.receiptAfter));
        j.insert(QStringLiteral("receipt"), receipt);
    }
    return j;
}

void printResultText(QTextStream &out, const DeductionResult &r, const DeductionContext &ctx)
{
    const DeductionPlan &p = r.plan;
    const DeductionMode mode = p.request.mode;
    const auto line = [&](const QString &label, const QString &value) {
        out << (label + QLatin1Char(':')).leftJustified(14) << value << '\n';
    };
    line(QStringLiteral("outcome"), r.outcome.summary());
    line(QStringLiteral("meaning"), resultMeaning(r));
    line(QStringLiteral("next step"), resultNextStep(r));
    if (!r.server.isEmpty())
        line(QStringLiteral("server"),
             r.runId.isEmpty() ? r.server
                               : QStringLiteral("%1 (run_id %2)").arg(r.server, r.runId.left(12)));
    line(QStringLiteral("stock key"),
         QStringLiteral("%1 (slot %2)").arg(QString::fromUtf8(p.stockKey)).arg(p.stockSlot));
    if (mode == DeductionMode::Function)
        line(
            QStringLiteral("receipt key"),
            QStringLiteral("%1 (slot %2)").arg(QString::fromUtf8(p.receiptKey)).arg(p.receiptSlot));
    line(QStringLiteral("stock before"),
         r.stockBefore.text() + QStringLiteral(" (read just before)"));
    line(QStringLiteral("stock after"),
         r.stockAfter.read ? r.stockAfter.text() + QStringLiteral(" (read just after)")
                           : QStringLiteral("not read"));
    if (r.receiptAfter)
        line(QStringLiteral("receipt"),
             r.receiptAfter->exists
                 ? QStringLiteral("exists, value %1, TTL %2")
                       .arg(QString::fromUtf8(r.receiptAfter->rawValue), r.receiptAfter->ttlText())
                 : (r.receiptAfter->ok() ? QStringLiteral("missing")
                                         : r.receiptAfter->error.english));
    if (r.scriptLoaded)
        line(QStringLiteral("script"), QStringLiteral("was not loaded (NOSCRIPT): loaded it "
                                                      "and sent the call once more"));
    line(QStringLiteral("audit log"), ctx.auditLogPath);
    out.flush();
}

} // namespace cli
