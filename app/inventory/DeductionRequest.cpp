// SPDX-License-Identifier: GPL-3.0-or-later
#include "DeductionRequest.h"
#include "core/CanonicalInteger.h"

#include "redis/Slot.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>

// The core is a static library: its resources must be pulled in explicitly.
static void initFunctionResources()
{
    Q_INIT_RESOURCE(functions);
}

namespace inventory {

namespace {

// Field problems are shown in the window's language (the Deduct tab, the repair dialog) and
// printed in English by the CLI; a request refused before sending quotes them in the audit
// record, in English.
core::Sentence requestSentence(const char *source)
{
    return core::Sentence::translated("inventory::DeductionRequest", source);
}

QString grouped(qint64 v)
{
    // "1,000,000" whatever the locale: the messages quote the contract's numbers.
    QString digits = QString::number(v);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    return digits;
}

} // namespace

std::optional<core::Sentence> identifierProblem(const QByteArray &value, const core::Sentence &what)
{
    if (value.isEmpty())
        return requestSentence(QT_TRANSLATE_NOOP("inventory::DeductionRequest", "enter the %1"))
            .arg(what);
    if (QByteArray(" \t\r\n").contains(value.front())
        || QByteArray(" \t\r\n").contains(value.back()))
        return requestSentence(QT_TRANSLATE_NOOP("inventory::DeductionRequest",
                                                 "the %1 starts or ends with a blank; remove it"))
            .arg(what);
    for (char c : value)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
            return requestSentence(QT_TRANSLATE_NOOP("inventory::DeductionRequest",
                                                     "the %1 contains a control character"))
                .arg(what);
    return std::nullopt;
}

core::Sentence fieldName(Field field)
{
    switch (field) {
    case Field::Sku:
        return requestSentence(QT_TRANSLATE_NOOP("inventory::DeductionRequest", "SKU"));
    case Field::OrderId:
        return requestSentence(QT_TRANSLATE_NOOP("inventory::DeductionRequest", "order id"));
    case Field::AdjustmentId:
        return requestSentence(QT_TRANSLATE_NOOP("inventory::DeductionRequest", "adjustment id"));
    }
    return {};
}

QString modeName(DeductionMode mode)
{
    return mode == DeductionMode::Function ? QStringLiteral("function") : QStringLiteral("script");
}

std::optional<DeductionMode> parseMode(const QString &text)
{
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("function"))
        return DeductionMode::Function;
    if (t == QLatin1String("script"))
        return DeductionMode::Script;
    return std::nullopt;
}

QByteArray deductScriptSource()
{
    initFunctionResources();
    QFile f(QString::fromLatin1(ScriptResource));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray deductScriptSha1()
{
    static const QByteArray sha =
        QCryptographicHash::hash(deductScriptSource(), QCryptographicHash::Sha1).toHex();
    return sha;
}

std::optional<core::Sentence> canonicalNumberProblem(const QByteArray &text, qint64 min, qint64 max)
{
    const core::Sentence range = requestSentence(QT_TRANSLATE_NOOP("inventory::DeductionRequest",
                                                                   "a whole number from %1 to %2"))
                                     .arg(grouped(min), grouped(max));
    const auto problem = [&](const char *source) {
        return requestSentence(source).arg(range);
    };
    if (text.isEmpty())
        return problem(QT_TRANSLATE_NOOP("inventory::DeductionRequest", "enter %1"));
    for (char c : text)
        if (c < '0' || c > '9')
            return problem(QT_TRANSLATE_NOOP("inventory::DeductionRequest",
                                             "digits only (no sign, spaces, separators or "
                                             "decimals): %1"));
    if (text.size() > 1 && text.front() == '0')
        return problem(QT_TRANSLATE_NOOP("inventory::DeductionRequest", "no leading zero: %1"));
    if (text.size() > 10)
        return problem(QT_TRANSLATE_NOOP("inventory::DeductionRequest", "too long: %1"));
    const qint64 v = *core::parseCanonicalInteger(text); // the checks above made it canonical
    if (v < min || v > max)
        return problem(QT_TRANSLATE_NOOP("inventory::DeductionRequest", "out of range: %1"));
    return std::nullopt;
}

std::optional<QString> DeductionPlan::problemFor(const QString &field) const
{
    for (const FieldProblem &p : problems)
        if (p.field == field)
            return p.message.text;
    return std::nullopt;
}

DeductionPlan planDeduction(const DeductionRequest &request, const KeySchema &schema)
{
    DeductionPlan plan;
    plan.request = request;
    const bool function = request.mode == DeductionMode::Function;
    auto add = [&](const char *field, const core::Sentence &message) {
        plan.problems << FieldProblem{QLatin1String(field), message};
    };
    if (auto p = identifierProblem(request.sku, fieldName(Field::Sku)))
        add("sku", *p);
    else if (auto braces = schema.skuProblem(request.sku))
        add("sku", *braces);
    if (function || !request.orderId.isEmpty())
        if (auto p = identifierProblem(request.orderId, fieldName(Field::OrderId)))
            add("order", *p);
    if (auto p = canonicalNumberProblem(request.quantity, 1, MaxQuantity))
        add("quantity", *p);
    if (function)
        if (auto p = canonicalNumberProblem(request.ttlSeconds, 1, MaxReceiptTtlSeconds))
            add("ttl", *p);

    plan.stockKey = schema.stockKey(request.sku);
    plan.stockSlot = redis::keySlot(plan.stockKey);
    if (function) {
        plan.receiptKey = schema.receiptKey(request.sku, request.orderId);
        plan.receiptSlot = redis::keySlot(plan.receiptKey);
        // A cluster refuses a call whose keys live in two slots (CROSSSLOT); a standalone
        // server would accept it, and the same call would then fail in production.
        if (plan.stockSlot != plan.receiptSlot && !plan.problemFor(QStringLiteral("sku")))
            add("keys", requestSentence(
                            QT_TRANSLATE_NOOP(
                                "inventory::DeductionRequest",
                                "the stock key (slot %1) and the receipt key (slot %2) hash to "
                                "different cluster slots; check the key templates' hash tags and "
                                "braces in the SKU"))
                            .arg(plan.stockSlot)
                            .arg(plan.receiptSlot));
        plan.command = {"FCALL",          DeductFunctionName, "2", plan.stockKey, plan.receiptKey,
                        request.quantity, request.ttlSeconds};
    } else {
        plan.command = {"EVALSHA", deductScriptSha1(), "1", plan.stockKey, request.quantity};
    }
    return plan;
}

} // namespace inventory
