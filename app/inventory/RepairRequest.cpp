// SPDX-License-Identifier: GPL-3.0-or-later
#include "RepairRequest.h"

#include "redis/Slot.h"

#include <QCoreApplication>

namespace inventory {

namespace {
// Shown in the repair dialog, printed by the CLI, quoted in English by a refused repair's
// audit record: both copies (FieldProblem).
core::Sentence repairSentence(const char *source)
{
    return core::Sentence::translated("inventory::RepairRequest", source);
}
} // namespace

QString repairName(RepairKind kind)
{
    return kind == RepairKind::Release ? QStringLiteral("release") : QStringLiteral("adjust");
}

std::optional<core::Sentence> signedDeltaProblem(const QByteArray &text)
{
    const bool negative = text.startsWith('-');
    // "-0" and "-01" are refused by the magnitude's own rules (out of range, leading zero).
    if (auto p = canonicalNumberProblem(negative ? text.mid(1) : text, 1, MaxQuantity))
        return repairSentence(QT_TRANSLATE_NOOP("inventory::RepairRequest",
                                                "%1 (a leading '-' for a decrease, nothing "
                                                "else)"))
            .arg(*p);
    return std::nullopt;
}

RepairPlan planRepair(const RepairRequest &request, const KeySchema &schema)
{
    RepairPlan plan;
    plan.request = request;
    const bool release = request.kind == RepairKind::Release;
    auto add = [&](const char *field, const core::Sentence &message) {
        plan.problems << FieldProblem{QLatin1String(field), message};
    };
    if (auto p = identifierProblem(request.sku, fieldName(Field::Sku)))
        add("sku", *p);
    else if (auto braces = schema.skuProblem(request.sku))
        add("sku", *braces);
    if (auto p = identifierProblem(request.id,
                                   fieldName(release ? Field::OrderId : Field::AdjustmentId)))
        add(release ? "order" : "id", *p);
    if (release) {
        if (auto p = canonicalNumberProblem(request.amount, 1, MaxQuantity))
            add("quantity", *p);
    } else if (auto p = signedDeltaProblem(request.amount)) {
        add("delta", *p);
    }
    if (auto p = canonicalNumberProblem(request.ttlSeconds, 1, MaxReceiptTtlSeconds))
        add("ttl", *p);
    // A correction nobody can explain later is not one: the reason goes to the audit log.
    if (!release && request.reason.trimmed().isEmpty())
        add("reason", repairSentence(QT_TRANSLATE_NOOP("inventory::RepairRequest",
                                                       "say why the stock is corrected (it is "
                                                       "recorded in the audit log)")));

    plan.stockKey = schema.stockKey(request.sku);
    plan.slot = redis::keySlot(plan.stockKey);
    QList<QByteArray> keys{plan.stockKey};
    if (release) {
        plan.receiptKey = schema.receiptKey(request.sku, request.id);
        plan.recordKey = schema.releaseKey(request.sku, request.id);
        keys << plan.receiptKey << plan.recordKey;
        plan.command = {"FCALL",        ReleaseFunctionName, "3",
                        plan.stockKey,  plan.receiptKey,     plan.recordKey,
                        request.amount, request.ttlSeconds};
    } else {
        plan.recordKey = schema.adjustmentKey(request.sku, request.id);
        keys << plan.recordKey;
        plan.command = {"FCALL",        AdjustFunctionName, "2", plan.stockKey, plan.recordKey,
                        request.amount, request.ttlSeconds};
    }
    // A cluster refuses keys of two slots (CROSSSLOT); a standalone server would accept them,
    // and the same call would then fail in production.
    for (const QByteArray &key : keys)
        if (redis::keySlot(key) != plan.slot && plan.problems.isEmpty()) {
            add("keys", repairSentence(
                            QT_TRANSLATE_NOOP("inventory::RepairRequest",
                                              "%1 (slot %2) and the stock key (slot %3) hash to "
                                              "different cluster slots; check the key templates' "
                                              "hash tags"))
                            .arg(QString::fromUtf8(key))
                            .arg(redis::keySlot(key))
                            .arg(plan.slot));
            break;
        }
    return plan;
}

} // namespace inventory
