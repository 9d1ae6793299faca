// SPDX-License-Identifier: GPL-3.0-or-later
// A storm of deductions, releases and adjustments on one SKU from many connections at once
// (issue 32): every deduction, release and adjustment is sent twice, interleaved by the
// server, and each must apply exactly once; the stock left is the initial stock minus what was
// deducted, plus what was released, plus the adjustments.
#include "RedisFixture.h"

#include <QEventLoop>
#include <QHash>
#include <QRandomGenerator>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <functional>

using namespace redis;
using testsupport::render;
using testsupport::StandaloneRedis;

namespace {
const QByteArray Stock = "stock:{9}:available";
constexpr int Connections = 16;
constexpr int Window = 4; // commands in flight per connection
constexpr int Orders = 400;
constexpr int Adjustments = 200;
constexpr qint64 Initial = 100000;

enum class Kind { Deduct, Release, Adjust };

struct Call
{
    Kind kind;
    int id;        // the order, or the adjustment
    qint64 amount; // the quantity, or the delta
    Command command;
};

QByteArray receiptKey(int order)
{
    return "idem:{9}:" + QByteArray::number(order);
}
QByteArray releaseKey(int order)
{
    return "rel:{9}:" + QByteArray::number(order);
}
QByteArray adjustmentKey(int id)
{
    return "adj:{9}:fix-" + QByteArray::number(id);
}

std::optional<std::pair<qint64, qint64>> pairOf(const ReplyResult &r)
{
    if (!r.ok() || !r->isArray() || r->size() != 2 || !r->at(0).isInteger()
        || !r->at(1).isInteger())
        return std::nullopt;
    return std::pair{r->at(0).toInteger(), r->at(1).toInteger()};
}
} // namespace

class TstContractRepairStorm : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    std::unique_ptr<RedisClient> m_c;

    // Sends call i on connection i % Connections, each connection keeping `Window` calls in
    // flight and sending its next from the callback, so the server interleaves them all.
    QList<ReplyResult> storm(const QList<Call> &calls)
    {
        QList<ReplyResult> results(
            calls.size(), RedisError::notSent(core::Sentence::plain(QStringLiteral("no reply"))));
        std::vector<std::unique_ptr<RedisClient>> clients;
        for (int c = 0; c < Connections; ++c) {
            clients.push_back(m_redis.connect());
            if (clients.back()->state() != ConnectionState::Ready)
                return results;
        }
        std::vector<qsizetype> next(Connections);
        for (int c = 0; c < Connections; ++c)
            next[size_t(c)] = c;
        QEventLoop loop;
        qsizetype answered = 0;
        std::function<void(int)> pump = [&](int c) {
            const qsizetype i = next[size_t(c)];
            if (i >= calls.size())
                return;
            next[size_t(c)] += Connections;
            clients[size_t(c)]->send(calls[i].command, &loop, [&, c, i](const ReplyResult &r) {
                results[i] = r;
                if (++answered == calls.size())
                    loop.quit();
                pump(c);
            });
        };
        for (int w = 0; w < Window; ++w)
            for (int c = 0; c < Connections; ++c)
                pump(c);
        QTimer::singleShot(60000, &loop, &QEventLoop::quit); // a guard, not a wait
        if (answered < calls.size())
            loop.exec();
        return results;
    }

    int countKeys(const QByteArray &pattern)
    {
        const ReplyResult keys = m_c->call({"KEYS", pattern});
        return keys.ok() ? int(keys->size()) : -1;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_c = m_redis.connect();
        QCOMPARE(m_c->state(), ConnectionState::Ready);
        QCOMPARE(render(m_c->call({"FUNCTION", "LOAD", "REPLACE",
                                   testsupport::functionSource("inventory_lib_v1.lua")})),
                 QStringLiteral("\"inventory_lib_v1\""));
    }

    void eachRepairAppliesOnce()
    {
        QCOMPARE(render(m_c->call({"SET", Stock, QByteArray::number(Initial)})),
                 QStringLiteral("+OK"));
        QRandomGenerator random(32);
        QList<qint64> quantity;
        QList<Call> first, second;
        for (int order = 0; order < Orders; ++order) {
            quantity << 1 + random.bounded(5);
            const QByteArray q = QByteArray::number(quantity.last());
            const Call deduct{
                Kind::Deduct,
                order,
                quantity.last(),
                {"FCALL", "inventory_deduct_v2", "2", Stock, receiptKey(order), q, "600"}};
            first << deduct;
            second << deduct; // the retry of a deduction, later: answered by its receipt
            if (order % 2 == 0) {
                const Call release{Kind::Release,
                                   order,
                                   quantity.last(),
                                   {"FCALL", "inventory_release_v1", "3", Stock, receiptKey(order),
                                    releaseKey(order), q, "600"}};
                second << release << release;
            }
        }
        for (int id = 0; id < Adjustments; ++id) {
            const qint64 delta = (id % 3 == 0 ? -1 : 1) * (1 + random.bounded(50));
            const Call adjust{Kind::Adjust,
                              id,
                              delta,
                              {"FCALL", "inventory_adjust_v1", "2", Stock, adjustmentKey(id),
                               QByteArray::number(delta), "600"}};
            (id % 2 ? first : second) << adjust << adjust;
        }
        // Deductions mostly go before their releases, but the halves overlap on the wire: some
        // releases meet no receipt yet ({-4, 0}).
        std::shuffle(first.begin(), first.end(), random);
        std::shuffle(second.begin(), second.end(), random);
        const QList<Call> calls = first + second;
        const QList<ReplyResult> results = storm(calls);

        QHash<int, int> deducted, released, adjusted, duplicates;
        qint64 expected = Initial;
        int noReceipt = 0;
        for (qsizetype i = 0; i < calls.size(); ++i) {
            const Call &call = calls[i];
            const auto p = pairOf(results[i]);
            QVERIFY2(p, qPrintable(render(results[i])));
            const auto [code, value] = *p;
            QVERIFY2(code == 1 || code == 2 || (call.kind == Kind::Release && code == -4),
                     qPrintable(render(results[i])));
            QVERIFY(value >= 0 || (code == -4 && value == 0));
            if (code == -4)
                ++noReceipt;
            if (code == 2)
                ++duplicates[int(call.kind)];
            if (code != 1)
                continue;
            switch (call.kind) {
            case Kind::Deduct:
                ++deducted[call.id];
                expected -= call.amount;
                break;
            case Kind::Release:
                ++released[call.id];
                expected += call.amount;
                break;
            case Kind::Adjust:
                ++adjusted[call.id];
                expected += call.amount;
                break;
            }
        }
        QCOMPARE(int(deducted.size()), Orders);
        QCOMPARE(int(adjusted.size()), Adjustments);
        for (int n : deducted)
            QCOMPARE(n, 1);
        for (int n : adjusted)
            QCOMPARE(n, 1);
        for (auto it = released.cbegin(); it != released.cend(); ++it) {
            QCOMPARE(it.value(), 1);
            QCOMPARE(it.key() % 2, 0);
        }
        // Each adjustment's copy, and each deduction's retry, was answered as already applied.
        QCOMPARE(duplicates.value(int(Kind::Adjust)), Adjustments);
        QCOMPARE(duplicates.value(int(Kind::Deduct)), Orders);
        QVERIFY2(released.size() > Orders / 4,
                 qPrintable(QStringLiteral("%1 released, %2 without a receipt yet")
                                .arg(released.size())
                                .arg(noReceipt)));
        qInfo("%d orders released, %d releases met no receipt yet", int(released.size()),
              noReceipt);

        QCOMPARE(render(m_c->call({"GET", Stock})), QStringLiteral("\"%1\"").arg(expected));
        QCOMPARE(countKeys("idem:{9}:*"), Orders);
        QCOMPARE(countKeys("rel:{9}:*"), int(released.size()));
        QCOMPARE(countKeys("adj:{9}:*"), Adjustments);
    }
};

QTEST_GUILESS_MAIN(TstContractRepairStorm)
#include "tst_contract_repair_storm.moc"
