// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RedisFixture.h"
#include "redis/CommandSender.h"

#include <QList>
#include <QObject>
#include <functional>

namespace testsupport {

// A stream of FCALL inventory_deduct_v2 through a failover: four deductions in flight, a new
// order each (never resent), quantities 1 to 3. After `strikeAfter` answers it calls `strike`
// (a SENTINEL FAILOVER, say); once the test calls moved(), it sends `tailAfterMove` more and
// stops. Each order keeps where it was sent and how it ended, for the test to hold against
// the stock and receipts it finds afterwards.
class FailoverStream
{
public:
    enum class Outcome { Pending, Applied, Refused, Unknown };
    struct Order
    {
        int quantity = 1;
        QString sentTo; // host:port of the connection it went out on
        Outcome outcome = Outcome::Pending;
        QString detail;
    };
    // Where the next order goes, and the address it is sent to as that connection says.
    struct Target
    {
        redis::CommandSender *sender = nullptr;
        QString address;
    };

    FailoverStream(QObject *context, QByteArray stockKey, QByteArray receiptPrefix,
                   std::function<Target()> target, std::function<void()> strike,
                   int strikeAfter = 200, int tailAfterMove = 200)
        : m_context(context)
        , m_stockKey(std::move(stockKey))
        , m_receiptPrefix(std::move(receiptPrefix))
        , m_target(std::move(target))
        , m_strike(std::move(strike))
        , m_strikeAfter(strikeAfter)
        , m_tailAfterMove(tailAfterMove)
    {}

    QByteArray receiptKey(qsizetype n) const { return m_receiptPrefix + QByteArray::number(n); }
    void start() { next(); }
    // The test saw the move: a last `tailAfterMove` orders, then the stream ends.
    void moved() { m_doneAtMove = m_done; }
    bool finished() const { return m_doneAtMove >= 0 && m_inFlight == 0; }
    const QList<Order> &orders() const { return m_orders; }

    struct Tally
    {
        int applied = 0, unknown = 0, refused = 0;
        int lost = 0;         // acknowledged, yet no receipt on the survivor
        qint64 receipted = 0; // units the survivor's receipts record
    };
    // Holds every order against the receipts on `survivor` (the primary after the failover):
    // none found its receipt already there (nothing was resent), each receipt records its
    // order's quantity and belongs to an order not refused, and an acknowledged order without
    // a receipt went to `lostOnlyFrom` (the old primary, which SENTINEL FAILOVER does not
    // pause before the promotion). Empty when all holds, else the first thing that does not.
    QString account(redis::CommandSender &survivor, const QString &lostOnlyFrom, Tally *t) const
    {
        for (qsizetype n = 0; n < m_orders.size(); ++n) {
            const Order &o = m_orders[n];
            const QString which = QStringLiteral("order %1 (%2)").arg(n).arg(o.detail);
            if (o.outcome == Outcome::Pending || o.detail.startsWith(QLatin1String("{2,")))
                return which + QStringLiteral(": unanswered, or answered from its own receipt");
            const auto receipt = survivor.call({"HGET", receiptKey(n), "quantity"});
            if (!receipt.ok())
                return which + QStringLiteral(": its receipt could not be read");
            if (!receipt->isNil()) {
                if (receipt->bytes().toInt() != o.quantity || o.outcome == Outcome::Refused)
                    return which + QStringLiteral(": a receipt of another quantity, or refused");
                t->receipted += o.quantity;
            } else if (o.outcome == Outcome::Applied) {
                if (o.sentTo != lostOnlyFrom)
                    return which + QStringLiteral(": acknowledged by %1 and lost").arg(o.sentTo);
                ++t->lost;
            }
            t->applied += o.outcome == Outcome::Applied;
            t->unknown += o.outcome == Outcome::Unknown;
            t->refused += o.outcome == Outcome::Refused;
        }
        return {};
    }

private:
    void next()
    {
        while (m_inFlight < 4 && m_orders.size() < 20000
               && !(m_doneAtMove >= 0 && m_done >= m_doneAtMove + m_tailAfterMove)) {
            const qsizetype n = m_orders.size();
            const Target t = m_target();
            m_orders << Order{1 + int(n % 3), t.address, Outcome::Pending, {}};
            ++m_inFlight;
            t.sender->send({"FCALL", "inventory_deduct_v2", "2", m_stockKey, receiptKey(n),
                            QByteArray::number(m_orders.last().quantity), "3600"},
                           m_context, [this, n](const redis::ReplyResult &result) {
                               Order &o = m_orders[n];
                               if (result.ok() && result->at(0).toInteger() == 1)
                                   o.outcome = Outcome::Applied;
                               else if (!result.ok() && result.error().mayHaveRun())
                                   o.outcome = Outcome::Unknown;
                               else
                                   o.outcome = Outcome::Refused;
                               o.detail = render(result);
                               --m_inFlight;
                               if (++m_done == m_strikeAfter)
                                   m_strike();
                               next();
                           });
        }
    }

    QObject *m_context;
    QByteArray m_stockKey, m_receiptPrefix;
    std::function<Target()> m_target;
    std::function<void()> m_strike;
    int m_strikeAfter, m_tailAfterMove;
    QList<Order> m_orders;
    int m_inFlight = 0, m_done = 0, m_doneAtMove = -1;
};

} // namespace testsupport
