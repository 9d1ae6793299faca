// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "core/Wording.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <cstdint>
#include <limits>
#include <optional>

namespace ledger {

// What the order system says became of an order line. Anything else a ledger holds must be
// mapped to one of these by the caller (StateMap): an unknown state is an error naming the
// row, never a guess.
enum class OrderState : uint8_t { Committed, Cancelled, Failed, Pending };
QString stateName(OrderState state); // "committed", ...

constexpr qint64 NoTime = std::numeric_limits<qint64>::min();
constexpr qint64 MaxQuantity = 1000000; // the deduction functions' bound

// One validated ledger line: one order's quantity of one SKU.
struct LedgerRow
{
    QByteArray orderId, sku;
    qint64 quantity = 0; // 1..MaxQuantity
    OrderState state = OrderState::Pending;
    qint64 timeMs = NoTime; // when the ledger has a time column
    qint64 number = 0;      // the line (files) or row (SQL) it came from, for messages
};

// Which column (CSV header, JSON key, SQL result column) holds each field. The time column is
// optional: without one, a time window cannot be applied.
struct Columns
{
    QString orderId = QStringLiteral("order_id");
    QString sku = QStringLiteral("sku");
    QString quantity = QStringLiteral("quantity");
    QString state = QStringLiteral("state");
    QString time; // empty: none

    // "order_id=id,sku=product_sku,quantity=qty,state=status,time=created_at": the fields
    // named are mapped, the others keep their default name.
    static core::Result<Columns, core::Sentence> parse(const QString &spec);
};

// Ledger state text to OrderState. The four names themselves always map to themselves;
// "paid=committed,refunded=cancelled" adds (or overrides) names. Matched exactly.
class StateMap
{
public:
    StateMap();
    static core::Result<StateMap, core::Sentence> parse(const QString &spec);
    std::optional<OrderState> map(const QByteArray &text) const;
    QString knownNames() const; // for the error about an unknown state

private:
    QHash<QByteArray, OrderState> m_names;
};

// The cells of one line as read, before validation. The time is text (files) or already a
// point in time (SQL timestamps).
struct RawRow
{
    QByteArray orderId, sku, quantity, state;
    std::optional<QByteArray> timeText;
    qint64 timeMs = NoTime;
};

// Checks every field: order id and SKU not empty (at most 512 bytes each), quantity a
// canonical whole number from 1 to 1,000,000, state known to the map, time (when a time column
// is read) ISO 8601 with a zone or whole seconds since the epoch. The error names the field and
// its value; the caller prefixes where the row is.
core::Result<LedgerRow, core::Sentence> validateRow(const RawRow &raw, const StateMap &states);

// "2026-12-03T10:00:00Z", "2026-12-03T10:00:00.250+01:00" or "1764756000" as ms since the
// epoch; nullopt for anything else (a time without a zone is ambiguous: refused).
std::optional<qint64> parseLedgerTime(QByteArrayView text);

} // namespace ledger
