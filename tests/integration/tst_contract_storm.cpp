// SPDX-License-Identifier: GPL-3.0-or-later
// Concurrency storms against one SKU: thousands of deductions from many connections at once,
// interleaved by the server, must never oversell and (for the function) deduct each order once.
#include "RedisFixture.h"

#include <QEventLoop>
#include <QHash>
#include <QRandomGenerator>
#include <QSet>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <climits>
#include <functional>

using namespace redis;
using testsupport::render;
using testsupport::StandaloneRedis;

namespace {
const QByteArray Stock = "stock:{7}:available";
const QByteArray Function = "inventory_deduct_v1";
constexpr int Connections = 24;
constexpr int Window = 4; // commands in flight per connection
constexpr int Calls = 2000;

QByteArray receiptKey(int order)
{
    return "idem:{7}:" + QByteArray::number(order);
}

Command deductCommand(int order, int quantity = 1)
{
    return {"FCALL", Function, "2", Stock, receiptKey(order), QByteArray::number(quantity), "600"};
}

// {a,b} with two integers, else nullopt.
std::optional<std::pair<qint64, qint64>> pairOf(const ReplyResult &r)
{
    if (!r.ok() || !r->isArray() || r->size() != 2 || !r->at(0).isInteger()
        || !r->at(1).isInteger())
        return std::nullopt;
    return std::pair{r->at(0).toInteger(), r->at(1).toInteger()};
}

struct StormRun
{
    QList<ReplyResult> results; // one per command, in command order
    QList<int> connectionOf;    // which connection sent each command
    int answered = 0;
    qint64 minStockSeen = LLONG_MAX;
    int stockReads = 0;
    QStringList badReads; // stock reads that were not a canonical integer
    int clientsSeenByServer = 0;
};
} // namespace

class TstContractStorm : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    std::unique_ptr<RedisClient> m_c;
    QByteArray m_sha;
    QByteArray m_scriptSource;

    // Sends every command from `Connections` connections at once: command i goes out on
    // connection i % Connections, each connection keeping `Window` commands in flight and
    // sending the next from its callback, so the server interleaves all connections. A
    // separate connection reads the stock in a loop meanwhile.
    StormRun storm(const QList<Command> &commands, bool asBatches = false)
    {
        StormRun run;
        std::vector<std::unique_ptr<RedisClient>> clients;
        for (int c = 0; c < Connections; ++c) {
            clients.push_back(m_redis.connect());
            if (clients.back()->state() != ConnectionState::Ready)
                return run;
        }
        auto monitor = m_redis.connect();
        const auto clientList = m_c->call({"CLIENT", "LIST", "TYPE", "normal"});
        if (clientList.ok())
            run.clientsSeenByServer = int(clientList->bytes().count('\n'));

        const qsizetype total = commands.size();
        run.results.fill(
            RedisError::notSent(core::Sentence::plain(QStringLiteral("no reply in the storm"))),
            total);
        run.connectionOf.fill(-1, total);
        std::vector<qsizetype> next(Connections);
        for (int c = 0; c < Connections; ++c)
            next[size_t(c)] = c;
        QEventLoop loop;
        bool finished = false;
        std::function<void(int)> pump = [&](int c) {
            // One command, or (asBatches) up to three consecutive ones of this connection in
            // one sendBatch.
            QList<Command> batch;
            QList<qsizetype> indices;
            const int take = asBatches ? 3 : 1;
            while (batch.size() < take && next[size_t(c)] < total) {
                indices << next[size_t(c)];
                batch << commands.at(next[size_t(c)]);
                next[size_t(c)] += Connections;
            }
            if (batch.isEmpty())
                return;
            clients[size_t(c)]->sendBatch(
                batch, &loop, [&, c, indices](const QList<ReplyResult> &results) {
                    for (qsizetype k = 0; k < indices.size(); ++k) {
                        run.results[indices[k]] = results.value(
                            k, RedisError::notSent(core::Sentence::plain(QStringLiteral("short"))));
                        run.connectionOf[indices[k]] = c;
                        ++run.answered;
                    }
                    if (run.answered == total) {
                        finished = true;
                        loop.quit();
                    }
                    pump(c);
                });
        };
        std::function<void()> read = [&] {
            monitor->send({"GET", Stock}, &loop, [&](const ReplyResult &r) {
                ++run.stockReads;
                const auto v = r.ok() ? r->asInteger() : std::nullopt;
                if (v)
                    run.minStockSeen = std::min(run.minStockSeen, *v);
                else
                    run.badReads << render(r);
                if (!finished)
                    read();
            });
        };
        read();
        for (int w = 0; w < Window; ++w)
            for (int c = 0; c < Connections; ++c)
                pump(c);
        QTimer::singleShot(25000, &loop, &QEventLoop::quit);
        if (!finished)
            loop.exec();
        return run;
    }

    // Commands sent from different connections, in the order the server ran them, switch
    // connection many times: the storm really interleaved.
    static int connectionSwitches(const StormRun &run, const QList<qsizetype> &serverOrder)
    {
        int switches = 0;
        for (qsizetype k = 1; k < serverOrder.size(); ++k)
            switches += run.connectionOf[serverOrder[k]] != run.connectionOf[serverOrder[k - 1]];
        return switches;
    }

    QString set(const QByteArray &key, const QByteArray &value)
    {
        return render(m_c->call({"SET", key, value}));
    }

    QList<QByteArray> receiptKeys()
    {
        auto keys = m_c->call({"KEYS", "idem:{7}:*"});
        QList<QByteArray> out;
        if (keys.ok())
            for (const Reply &k : keys->elements())
                out << k.bytes();
        return out;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_c = m_redis.connect();
        QCOMPARE(m_c->state(), ConnectionState::Ready);
        const QByteArray lib = testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua"));
        QCOMPARE(render(m_c->call({"FUNCTION", "LOAD", "REPLACE", lib})),
                 QStringLiteral("\"inventory_lib_v1\""));
        m_scriptSource = testsupport::functionSource(QStringLiteral("stock_decrement.lua"));
        auto sha = m_c->call({"SCRIPT", "LOAD", m_scriptSource});
        QVERIFY2(sha.ok(), qPrintable(render(sha)));
        m_sha = sha->bytes();
    }

    void init() { QCOMPARE(render(m_c->call({"FLUSHALL", "SYNC"})), QStringLiteral("+OK")); }

    // 2,000 distinct orders of 1 unit against 500 units.
    void functionStormDistinctOrders()
    {
        const int initial = 500;
        QCOMPARE(set(Stock, QByteArray::number(initial)), QStringLiteral("+OK"));
        QList<Command> commands;
        for (int order = 0; order < Calls; ++order)
            commands << deductCommand(order);
        const StormRun run = storm(commands);
        QCOMPARE(run.answered, Calls);
        QVERIFY2(run.clientsSeenByServer >= Connections + 2,
                 qPrintable(QString::number(run.clientsSeenByServer)));

        QHash<qint64, qsizetype> successByRemaining; // remaining -> command index
        int successes = 0, insufficient = 0;
        for (qsizetype i = 0; i < run.results.size(); ++i) {
            const auto p = pairOf(run.results[i]);
            QVERIFY2(p, qPrintable(render(run.results[i])));
            if (p->first == 1) {
                ++successes;
                QVERIFY2(!successByRemaining.contains(p->second),
                         qPrintable(QStringLiteral("remaining %1 twice").arg(p->second)));
                successByRemaining.insert(p->second, i);
            } else {
                QCOMPARE(render(run.results[i]), QStringLiteral("{0,0}"));
                ++insufficient;
            }
        }
        QCOMPARE(successes, initial);
        QCOMPARE(insufficient, Calls - initial);
        // Each success saw a distinct remaining, 499 down to 0: the deductions were serialized.
        for (qint64 r = 0; r < initial; ++r)
            QVERIFY2(successByRemaining.contains(r), qPrintable(QString::number(r)));

        QCOMPARE(render(m_c->call({"GET", Stock})), QStringLiteral("\"0\""));
        QVERIFY2(run.badReads.isEmpty(), qPrintable(run.badReads.join(' ')));
        QVERIFY(run.stockReads > 0);
        QVERIFY2(run.minStockSeen >= 0, qPrintable(QString::number(run.minStockSeen)));
        const auto receipts = receiptKeys();
        QCOMPARE(int(receipts.size()), successes);
        QCOMPARE(0 + int(receipts.size()), initial); // stock + receipts == initial stock
        // Every success has its receipt, holding its remaining; no failure left a receipt.
        Command mget{"MGET"};
        for (int order = 0; order < Calls; ++order)
            mget << receiptKey(order);
        auto values = m_c->call(mget);
        QVERIFY(values.ok());
        for (int order = 0; order < Calls; ++order) {
            const auto p = pairOf(run.results[order]);
            const QString expected =
                p->first == 1 ? QStringLiteral("\"%1\"").arg(p->second) : QStringLiteral("nil");
            QCOMPARE(render(values->at(order)), expected);
        }
        QCOMPARE(render(m_c->call({"DBSIZE"})), QString::number(initial + 1));

        QList<qsizetype> serverOrder;
        for (qint64 r = initial - 1; r >= 0; --r)
            serverOrder << successByRemaining.value(r);
        const int switches = connectionSwitches(run, serverOrder);
        qInfo("stock reads during the storm: %d; connection switches among successes: %d",
              run.stockReads, switches);
        QVERIFY2(switches >= Connections, qPrintable(QString::number(switches)));
    }

    // Quantities 1..5: the sum deducted plus the stock left is the initial stock, every
    // refusal saw less than it asked for.
    void functionStormMixedQuantities()
    {
        const int initial = 500;
        QCOMPARE(set(Stock, QByteArray::number(initial)), QStringLiteral("+OK"));
        QRandomGenerator random(42);
        QList<int> quantity;
        QList<Command> commands;
        for (int order = 0; order < Calls; ++order) {
            quantity << 1 + int(random.bounded(5));
            commands << deductCommand(order, quantity.last());
        }
        const StormRun run = storm(commands, true);
        QCOMPARE(run.answered, Calls);
        qint64 deducted = 0;
        int successes = 0;
        QSet<qint64> remainings;
        for (int i = 0; i < Calls; ++i) {
            const auto p = pairOf(run.results[i]);
            QVERIFY2(p, qPrintable(render(run.results[i])));
            if (p->first == 1) {
                ++successes;
                deducted += quantity[i];
                QVERIFY(p->second >= 0);
                QVERIFY2(!remainings.contains(p->second), qPrintable(QString::number(p->second)));
                remainings.insert(p->second);
            } else {
                QCOMPARE(p->first, qint64(0));
                QVERIFY2(p->second >= 0 && p->second < quantity[i],
                         qPrintable(render(run.results[i])));
            }
        }
        auto stock = m_c->call({"GET", Stock});
        QVERIFY(stock.ok() && stock->asInteger());
        QCOMPARE(*stock->asInteger() + deducted, qint64(initial));
        QVERIFY(*stock->asInteger() >= 0);
        QCOMPARE(int(receiptKeys().size()), successes);
        QVERIFY2(run.minStockSeen >= 0 && run.badReads.isEmpty(),
                 qPrintable(run.badReads.join(' ')));
    }

    // The seed-000 script under the same storm (half the connections' commands as EVAL with
    // the source, half EVALSHA): never oversells.
    void scriptStorm()
    {
        const int initial = 500;
        QCOMPARE(set(Stock, QByteArray::number(initial)), QStringLiteral("+OK"));
        QList<Command> commands;
        for (int i = 0; i < Calls; ++i)
            commands << ((i / Connections) % 2 ? Command{"EVAL", m_scriptSource, "1", Stock, "1"}
                                               : Command{"EVALSHA", m_sha, "1", Stock, "1"});
        const StormRun run = storm(commands);
        QCOMPARE(run.answered, Calls);
        QSet<qint64> remainings;
        int successes = 0;
        for (const ReplyResult &r : run.results) {
            const auto p = pairOf(r);
            QVERIFY2(p, qPrintable(render(r)));
            if (p->first == 1) {
                ++successes;
                QVERIFY2(!remainings.contains(p->second), qPrintable(QString::number(p->second)));
                remainings.insert(p->second);
            } else {
                QCOMPARE(render(r), QStringLiteral("{0,0}"));
            }
        }
        QCOMPARE(successes, initial);
        QCOMPARE(remainings.size(), initial);
        QCOMPARE(*std::min_element(remainings.begin(), remainings.end()), qint64(0));
        QCOMPARE(*std::max_element(remainings.begin(), remainings.end()), qint64(initial - 1));
        QCOMPARE(render(m_c->call({"GET", Stock})), QStringLiteral("\"0\""));
        QVERIFY2(run.minStockSeen >= 0 && run.badReads.isEmpty(),
                 qPrintable(run.badReads.join(' ')));
        QVERIFY(run.stockReads > 0);
        QCOMPARE(render(m_c->call({"DBSIZE"})), QStringLiteral("1"));
    }

    // Each order sent many times, shuffled over all connections: each order deducts once,
    // its other calls are duplicates that report what it recorded.
    void functionStormRepeatedOrders_data()
    {
        QTest::addColumn<int>("orders");
        QTest::addColumn<int>("initial");
        QTest::newRow("250 orders x 8, enough stock") << 250 << 500;
        QTest::newRow("400 orders x 5, stock for 100") << 400 << 100;
    }
    void functionStormRepeatedOrders()
    {
        QFETCH(int, orders);
        QFETCH(int, initial);
        QCOMPARE(set(Stock, QByteArray::number(initial)), QStringLiteral("+OK"));
        QList<int> orderOf;
        for (int i = 0; i < Calls; ++i)
            orderOf << i % orders;
        QRandomGenerator random(7);
        std::shuffle(orderOf.begin(), orderOf.end(), random);
        QList<Command> commands;
        for (int order : orderOf)
            commands << deductCommand(order);
        const StormRun run = storm(commands, true);
        QCOMPARE(run.answered, Calls);

        QHash<int, qint64> recorded; // order -> remaining at its one success
        QHash<int, QList<qint64>> duplicates;
        QSet<int> refused;
        for (int i = 0; i < Calls; ++i) {
            const auto p = pairOf(run.results[i]);
            QVERIFY2(p, qPrintable(render(run.results[i])));
            const int order = orderOf[i];
            if (p->first == 1) {
                QVERIFY2(!recorded.contains(order),
                         qPrintable(QStringLiteral("order %1 deducted twice").arg(order)));
                recorded.insert(order, p->second);
            } else if (p->first == 2) {
                duplicates[order] << p->second;
            } else {
                QCOMPARE(render(run.results[i]), QStringLiteral("{0,0}"));
                refused.insert(order);
            }
        }
        const int expectedSuccesses = std::min(orders, initial);
        QCOMPARE(int(recorded.size()), expectedSuccesses);
        for (auto it = duplicates.cbegin(); it != duplicates.cend(); ++it) {
            QVERIFY2(
                recorded.contains(it.key()),
                qPrintable(QStringLiteral("duplicate of order %1 without success").arg(it.key())));
            for (qint64 v : it.value())
                QCOMPARE(v, recorded.value(it.key()));
        }
        // An order that deducted was never refused (its other calls found the receipt).
        for (int order : refused)
            QVERIFY2(!recorded.contains(order), qPrintable(QString::number(order)));
        // Remaining values are distinct and contiguous: initial-1 down to initial-successes.
        QSet<qint64> remainings;
        for (qint64 v : recorded)
            remainings.insert(v);
        QCOMPARE(int(remainings.size()), expectedSuccesses);
        for (qint64 r = initial - expectedSuccesses; r < initial; ++r)
            QVERIFY(remainings.contains(r));

        auto stock = m_c->call({"GET", Stock});
        QCOMPARE(render(stock), QStringLiteral("\"%1\"").arg(initial - expectedSuccesses));
        const auto receipts = receiptKeys();
        QCOMPARE(int(receipts.size()), expectedSuccesses);
        QCOMPARE(*stock->asInteger() + receipts.size(), qint64(initial));
        for (auto it = recorded.cbegin(); it != recorded.cend(); ++it)
            QCOMPARE(render(m_c->call({"GET", receiptKey(it.key())})),
                     QStringLiteral("\"%1\"").arg(it.value()));
        QVERIFY2(run.minStockSeen >= 0 && run.badReads.isEmpty(),
                 qPrintable(run.badReads.join(' ')));
    }
};

QTEST_GUILESS_MAIN(TstContractStorm)
#include "tst_contract_storm.moc"
