// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "KeySchema.h"
#include "core/Wording.h"
#include "redis/RespCodec.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>

namespace inventory {

// The bounds of the Lua contracts (functions/inventory_lib_v1.lua, stock_decrement.lua).
constexpr qint64 MaxQuantity = 1000000;
constexpr qint64 MaxStockValue = 1000000000; // a stock, and so any remaining a receipt records
constexpr qint64 MaxReceiptTtlSeconds = 31536000;
constexpr qint64 DefaultReceiptTtlSeconds = 604800; // 7 days

// Function: FCALL inventory_deduct_v1, idempotent per order (a receipt key).
// Script: EVALSHA of stock_decrement.lua, not idempotent (no receipt).
enum class DeductionMode { Function, Script };
QString modeName(DeductionMode mode); // "function" | "script"
std::optional<DeductionMode> parseMode(const QString &text);

// The function and script the console calls.
constexpr auto DeductFunctionName = "inventory_deduct_v1";
constexpr auto ReceiptFunctionName = "inventory_receipt_v1";
constexpr auto ScriptResource = ":/functions/stock_decrement.lua";
// The script's text as shipped, and its SHA1 (what EVALSHA names it by), lower-case hex.
QByteArray deductScriptSource();
QByteArray deductScriptSha1();

// What Lua accepts as a number: a canonical unsigned decimal string of 1..10 characters,
// digits only, no leading zero unless the whole text is "0", and here within [min, max].
// Returns nullopt when valid, else a sentence for an inline message ("must be 1 to 1,000,000").
// Both copies: the window shows the text, the CLI and the audit record the English.
std::optional<core::Sentence> canonicalNumberProblem(const QByteArray &text, qint64 min,
                                                     qint64 max);

// Why an identifier (a SKU, an order or adjustment id) cannot be used, or nullopt: empty,
// blanks around it, or a control character. Typed by hand, identifiers are usually pasted:
// surrounding blanks are a mistake that would silently address another key.
std::optional<core::Sentence> identifierProblem(const QByteArray &value,
                                                const core::Sentence &what);
// The identifiers' names, for identifierProblem: "SKU", "order id", "adjustment id".
enum class Field { Sku, OrderId, AdjustmentId };
core::Sentence fieldName(Field field);

// One field that failed validation; `field` is "sku", "order", "quantity", "ttl" or "keys".
struct FieldProblem
{
    QString field;
    core::Sentence message; // the window shows the text; the CLI and records the English
};

// A deduction as typed by a person or given on the command line. Values are kept exactly
// as typed: they travel as command arguments, never spliced into Lua or command text.
struct DeductionRequest
{
    QByteArray sku;
    QByteArray orderId; // required in Function mode; only recorded in Script mode
    QByteArray quantity;
    QByteArray ttlSeconds; // Function mode only
    DeductionMode mode = DeductionMode::Function;
};

// The request resolved against a key schema: keys, their cluster slots, the command.
struct DeductionPlan
{
    DeductionRequest request;
    QByteArray stockKey;
    QByteArray receiptKey; // empty in Script mode
    int stockSlot = -1;
    int receiptSlot = -1; // -1 in Script mode
    redis::Command command;
    QList<FieldProblem> problems; // empty when the plan may be sent

    bool ok() const { return problems.isEmpty(); }
    // The window's copy of the field's problem (message.text), or nullopt.
    std::optional<QString> problemFor(const QString &field) const;
};

// Validates every field (all problems at once, for inline messages) and builds the command:
//   FCALL inventory_deduct_v1 2 <stock> <receipt> <quantity> <ttl>
//   EVALSHA <sha1 of stock_decrement.lua> 1 <stock> <quantity>
// Both keys of a Function-mode deduction must hash to the same cluster slot.
DeductionPlan planDeduction(const DeductionRequest &request, const KeySchema &schema);

} // namespace inventory
