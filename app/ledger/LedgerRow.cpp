// SPDX-License-Identifier: GPL-3.0-or-later
#include "LedgerRow.h"

#include "core/Bytes.h"
#include "core/CanonicalInteger.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QStringList>

namespace ledger {

namespace {
constexpr qsizetype MaxIdBytes = 512;

QString shown(const QByteArray &bytes)
{
    return QStringLiteral("\"%1\"").arg(core::escapeBytes(bytes, 64));
}

// Why a ledger row is refused: the Reconcile tab shows it, the CLI keeps the English.
core::Sentence rowSays(const char *source)
{
    return core::Sentence::translated("ledger::LedgerRow", source);
}

struct IdField
{
    const QByteArray *value;
    const char *empty;
    const char *tooLong;
};
} // namespace

QString stateName(OrderState state)
{
    switch (state) {
    case OrderState::Committed:
        return QStringLiteral("committed");
    case OrderState::Cancelled:
        return QStringLiteral("cancelled");
    case OrderState::Failed:
        return QStringLiteral("failed");
    case OrderState::Pending:
        return QStringLiteral("pending");
    }
    return {};
}

core::Result<Columns, core::Sentence> Columns::parse(const QString &spec)
{
    Columns c;
    QHash<QString, QString *> fields{{QStringLiteral("order_id"), &c.orderId},
                                     {QStringLiteral("sku"), &c.sku},
                                     {QStringLiteral("quantity"), &c.quantity},
                                     {QStringLiteral("state"), &c.state},
                                     {QStringLiteral("time"), &c.time}};
    for (const QString &pair : spec.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qsizetype eq = pair.indexOf(QLatin1Char('='));
        const QString field = pair.left(eq).trimmed(), column = pair.mid(eq + 1).trimmed();
        if (eq < 0 || column.isEmpty() || !fields.contains(field))
            return core::err(
                rowSays(QT_TRANSLATE_NOOP("ledger::LedgerRow", "column mapping \"%1\": give "
                                                               "field=column, the fields being "
                                                               "order_id, sku, quantity, state and "
                                                               "time"))
                    .arg(pair));
        *fields.value(field) = column;
    }
    return c;
}

StateMap::StateMap()
{
    for (OrderState s :
         {OrderState::Committed, OrderState::Cancelled, OrderState::Failed, OrderState::Pending})
        m_names.insert(stateName(s).toUtf8(), s);
}

core::Result<StateMap, core::Sentence> StateMap::parse(const QString &spec)
{
    StateMap m;
    const StateMap base;
    for (const QString &pair : spec.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qsizetype eq = pair.indexOf(QLatin1Char('='));
        const QByteArray name = pair.left(eq).trimmed().toUtf8();
        const auto state = base.map(pair.mid(eq + 1).trimmed().toUtf8());
        if (eq < 0 || name.isEmpty() || !state)
            return core::err(rowSays(QT_TRANSLATE_NOOP("ledger::LedgerRow",
                                                       "state mapping \"%1\": give "
                                                       "ledger_state=state, the states being "
                                                       "committed, cancelled, failed and "
                                                       "pending"))
                                 .arg(pair));
        m.m_names.insert(name, *state);
    }
    return m;
}

std::optional<OrderState> StateMap::map(const QByteArray &text) const
{
    const auto it = m_names.constFind(text);
    return it == m_names.cend() ? std::nullopt : std::optional<OrderState>(*it);
}

QString StateMap::knownNames() const
{
    QStringList names;
    for (auto it = m_names.cbegin(); it != m_names.cend(); ++it)
        names << QString::fromUtf8(it.key());
    names.sort();
    return names.join(QLatin1String(", "));
}

std::optional<qint64> parseLedgerTime(QByteArrayView text)
{
    if (const auto seconds = core::parseCanonicalInteger(text)) {
        if (*seconds < 0 || *seconds > 253402300799) // up to year 9999
            return std::nullopt;
        return *seconds * 1000;
    }
    const QString s = QString::fromLatin1(text.data(), text.size());
    // A zone is required: Z or +hh:mm at the end, after the time.
    const bool zoned =
        s.endsWith(QLatin1Char('Z'))
        || (s.size() > 6
            && (s.at(s.size() - 6) == QLatin1Char('+') || s.at(s.size() - 6) == QLatin1Char('-')));
    if (!zoned || !s.contains(QLatin1Char('T')))
        return std::nullopt;
    const QDateTime t = QDateTime::fromString(s, Qt::ISODateWithMs);
    if (!t.isValid())
        return std::nullopt;
    return t.toMSecsSinceEpoch();
}

core::Result<LedgerRow, core::Sentence> validateRow(const RawRow &raw, const StateMap &states)
{
    LedgerRow row;
    for (const IdField &f :
         {IdField{&raw.orderId, QT_TRANSLATE_NOOP("ledger::LedgerRow", "the order id is empty"),
                  QT_TRANSLATE_NOOP("ledger::LedgerRow", "the order id is longer than %1 bytes")},
          IdField{&raw.sku, QT_TRANSLATE_NOOP("ledger::LedgerRow", "the SKU is empty"),
                  QT_TRANSLATE_NOOP("ledger::LedgerRow", "the SKU is longer than %1 bytes")}}) {
        if (f.value->isEmpty())
            return core::err(rowSays(f.empty));
        if (f.value->size() > MaxIdBytes)
            return core::err(rowSays(f.tooLong).arg(MaxIdBytes));
    }
    row.orderId = raw.orderId;
    row.sku = raw.sku;
    const auto quantity = core::parseCanonicalInteger(raw.quantity);
    if (!quantity || *quantity < 1 || *quantity > MaxQuantity)
        return core::err(rowSays(QT_TRANSLATE_NOOP("ledger::LedgerRow",
                                                   "the quantity %1 is not a whole number from "
                                                   "1 to %2"))
                             .arg(shown(raw.quantity), QString::number(MaxQuantity)));
    row.quantity = *quantity;
    const auto state = states.map(raw.state);
    if (!state)
        return core::err(rowSays(QT_TRANSLATE_NOOP("ledger::LedgerRow",
                                                   "the state %1 is not one this ledger maps "
                                                   "(%2; --ledger-states maps others)"))
                             .arg(shown(raw.state), states.knownNames()));
    row.state = *state;
    if (raw.timeText) {
        const auto t = parseLedgerTime(*raw.timeText);
        if (!t)
            return core::err(rowSays(QT_TRANSLATE_NOOP("ledger::LedgerRow",
                                                       "the time %1 is neither ISO 8601 with a "
                                                       "zone nor whole seconds since 1970"))
                                 .arg(shown(*raw.timeText)));
        row.timeMs = *t;
    } else {
        row.timeMs = raw.timeMs;
    }
    return row;
}

} // namespace ledger
