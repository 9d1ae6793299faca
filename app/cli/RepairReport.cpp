// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli release/adjust output (see RepairReport.h).
#include "RepairReport.h"

#include "DeductReport.h"

#include <QJsonArray>
#include <QTextStream>

namespace cli {
namespace {

using namespace inventory;

QJsonValue recordJson(const RecordReading &r)
{
    if (!r.read)
        return QJsonValue();
    if (!r.error.isEmpty())
        return QJsonObject{{QStringLiteral("error"), r.error.english}};
    if (!r.value)
        return QJsonObject{{QStringLiteral("exists"), false}};
    return QJsonObject{{QStringLiteral("exists"), true},
                       {QStringLiteral("value"), QString::fromUtf8(*r.value)},
                       {QStringLiteral("ttl"), double(r.ttlSeconds)}};
}

QJsonValue stockJson(const KeyReading &k)
{
    if (!k.read)
        return QJsonValue();
    if (!k.error.isEmpty())
        return QJsonObject{{QStringLiteral("error"), k.error.english}};
    return k.value ? QJsonValue(QString::fromUtf8(*k.value)) : QJsonValue();
}

QString recordLabel(const RepairPlan &plan)
{
    return plan.request.kind == RepairKind::Release ? QStringLiteral("release key")
                                                    : QStringLiteral("adjustment key");
}

} // namespace

QJsonObject repairJson(const RepairResult &r, const std::optional<RepairSettlement> &settlement,
                       const QString &auditPath)
{
    const RepairPlan &p = r.plan;
    const RepairOutcome &o = r.outcome;
    QJsonArray command;
    for (const QByteArray &a : p.command)
        command.append(QString::fromUtf8(a));
    const QJsonArray problems =
        QJsonArray::fromStringList(core::copies(r.auditProblems, core::Wording::English));
    QJsonObject j{{QStringLiteral("outcome"), o.name()},
                  {QStringLiteral("message"), o.sentence(p).english},
                  {QStringLiteral("stock"), o.stock ? QJsonValue(double(*o.stock)) : QJsonValue()},
                  {QStringLiteral("stock_key"), QString::fromUtf8(p.stockKey)},
                  {QStringLiteral("record_key"), QString::fromUtf8(p.recordKey)},
                  {QStringLiteral("slot"), p.slot},
                  {QStringLiteral("server"), r.server},
                  {QStringLiteral("run_id"), r.runId},
                  {QStringLiteral("command"), command},
                  {QStringLiteral("stock_before"), stockJson(r.stockBefore)},
                  {QStringLiteral("stock_after"), stockJson(r.stockAfter)},
                  {QStringLiteral("record_before"), recordJson(r.recordBefore)},
                  {QStringLiteral("record_after"), recordJson(r.recordAfter)},
                  {QStringLiteral("duration_ms"), double(r.durationMs)},
                  {QStringLiteral("audit_log"), auditPath},
                  {QStringLiteral("audit_problems"), problems}};
    if (p.request.kind == RepairKind::Release) {
        j.insert(QStringLiteral("receipt_key"), QString::fromUtf8(p.receiptKey));
        if (r.receiptBefore)
            j.insert(QStringLiteral("receipt_before"), receiptJson(*r.receiptBefore));
    }
    if (!p.request.reason.isEmpty())
        j.insert(QStringLiteral("reason"), p.request.reason);
    if (o.recordedQuantity)
        j.insert(QStringLiteral("recorded_quantity"), double(*o.recordedQuantity));
    if (const auto other = r.otherRecordedAmount()) {
        j.insert(QStringLiteral("recorded_amount"), QString::fromLatin1(*other));
        j.insert(QStringLiteral("note"), r.otherAmountSentence());
    }
    if (!o.serverError.isEmpty())
        j.insert(QStringLiteral("error"), o.serverError.english);
    if (!o.transportError.isEmpty())
        j.insert(QStringLiteral("error"), o.transportError.english);
    if (!o.stockMoved.isEmpty())
        j.insert(QStringLiteral("stock_moved"), o.stockMoved);
    if (!o.anomaly.isEmpty()) {
        j.insert(QStringLiteral("anomaly"), o.anomaly.english);
        j.insert(QStringLiteral("reply"), o.replyText); // as it came, for whoever investigates
    }
    if (settlement) {
        QJsonObject settled{{QStringLiteral("applied"), settlement->applied},
                            {QStringLiteral("message"), settlement->sentence}};
        if (settlement->otherAmount)
            settled.insert(QStringLiteral("recorded_amount"),
                           QString::fromUtf8(*settlement->otherAmount));
        j.insert(QStringLiteral("settled"), settled);
    }
    return j;
}

void printRepairText(QTextStream &out, const RepairResult &r,
                     const std::optional<RepairSettlement> &settlement, const QString &auditPath)
{
    const RepairPlan &p = r.plan;
    const auto line = [&](const QString &label, const QString &value) {
        out << (label + QLatin1Char(':')).leftJustified(16) << value << '\n';
    };
    out << r.outcome.sentence(p).english << '\n';
    if (r.otherRecordedAmount())
        out << r.otherAmountSentence() << '\n';
    if (settlement)
        out << QStringLiteral("Settled by reading: ") << settlement->sentence << ".\n";
    if (!r.server.isEmpty())
        line(QStringLiteral("server"),
             r.runId.isEmpty() ? r.server
                               : QStringLiteral("%1 (run_id %2)").arg(r.server, r.runId.left(12)));
    line(QStringLiteral("stock key"),
         QStringLiteral("%1 (slot %2)").arg(QString::fromUtf8(p.stockKey)).arg(p.slot));
    line(recordLabel(p), QString::fromUtf8(p.recordKey));
    if (r.receiptBefore)
        line(QStringLiteral("receipt before"), r.receiptBefore->verdict());
    line(QStringLiteral("stock before"), r.stockBefore.text());
    if (r.stockAfter.read)
        line(QStringLiteral("stock after"), r.stockAfter.text());
    if (r.recordAfter.read)
        line(recordLabel(p) + QStringLiteral(" now"), r.recordAfter.text());
    line(QStringLiteral("audit log"), auditPath);
    out.flush();
}

} // namespace cli
