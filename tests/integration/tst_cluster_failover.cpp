#include "RedisFixture.h"
#include "redis/ClusterRouter.h"
#include "redis/Slot.h"

#include <QTest>
#include <QTimer>

using namespace redis;
using testsupport::RedisCluster;

// A replica promoted with CLUSTER FAILOVER while deductions stream through the router to
// every primary. The old primary holds writes during the handover and then answers MOVED,
// which proves the write did not run there, so the router resends it to the new primary;
// a write whose connection failed with it in flight is "outcome unknown" and is never resent.
// Whatever happened, stock and receipts account for every deduction exactly once.
class TstClusterFailover : public QObject
{
    Q_OBJECT

    RedisCluster m_cluster;
    static constexpr int Skus = 24;
    static constexpr qint64 InitialStock = 1000000;

    static QByteArray sku(int i) { return "sku-" + QByteArray::number(i); }
    static QByteArray stockKey(int i) { return "stock:{" + sku(i) + "}:available"; }
    static QByteArray receiptKey(int i, int order)
    {
        return "idem:{" + sku(i) + "}:o-" + QByteArray::number(order);
    }

    enum class Outcome { Pending, Applied, Refused, Unknown };
    struct Order
    {
        int skuIndex = 0;
        int quantity = 0;
        Outcome outcome = Outcome::Pending;
        QString detail;
    };

    // Every primary's FCALL executions (INFO commandstats): replicas get the function's
    // effects, not the FCALL, so the sum over all nodes counts each run once.
    qint64 fcallsRun()
    {
        qint64 total = 0;
        for (int i = 0; i < m_cluster.size(); ++i)
            total += fcallStat(i, "calls");
        return total;
    }
    // One field of a node's cmdstat_fcall line ("calls", "rejected_calls": refused unrun,
    // as with MOVED), 0 before its first FCALL.
    qint64 fcallStat(int node, const QByteArray &field)
    {
        const auto stats = m_cluster.connectNode(node)->call({"INFO", "commandstats"});
        if (!stats.ok())
            return -1;
        for (const QByteArray &line : stats->bytes().split('\n'))
            if (line.startsWith("cmdstat_fcall:"))
                for (const QByteArray &pair : line.trimmed().mid(14).split(','))
                    if (pair.startsWith(field + '='))
                        return pair.mid(field.size() + 1).toLongLong();
        return 0;
    }

private slots:
    void initTestCase()
    {
        RedisCluster::Options o;
        o.replicasPerPrimary = 1;
        o.nodeTimeoutMs = 1500;
        QVERIFY2(m_cluster.start(o), qPrintable(m_cluster.errorString()));
        QCOMPARE(m_cluster.primaries().size(), 3);
        // FUNCTION LOAD reaches a primary's replica, not the other shards.
        const QByteArray library =
            testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua"));
        for (int i : m_cluster.primaries()) {
            auto loaded = m_cluster.connectNode(i)->call({"FUNCTION", "LOAD", "REPLACE", library});
            QVERIFY2(loaded.ok(), qPrintable(testsupport::render(loaded)));
        }
        auto r = m_cluster.router();
        QList<Command> seed;
        for (int i = 0; i < Skus; ++i)
            seed << Command{"SET", stockKey(i), QByteArray::number(InitialStock)};
        for (const auto &result : r->callBatch(seed))
            QVERIFY2(result.ok(), qPrintable(testsupport::render(result)));
        QCOMPARE(fcallsRun(), qint64(0));
    }

    void deductionsThroughAFailoverAreEachAccountedOnce()
    {
        auto r = m_cluster.router();
        // The shard failed over: the primary owning sku-0, and its replica.
        const int owner = r->topology().ownerOf(keySlot(stockKey(0)));
        QVERIFY(owner >= 0);
        int oldPrimary = -1;
        for (int i = 0; i < m_cluster.size(); ++i)
            if (m_cluster.nodes().at(i).port == r->topology().nodes().at(owner).port)
                oldPrimary = i;
        QVERIFY(oldPrimary >= 0);
        const int replica = m_cluster.replicaOf(oldPrimary);
        QVERIFY(replica >= 0);
        QSet<int> primariesUsed;
        for (int i = 0; i < Skus; ++i)
            primariesUsed << r->topology().ownerOf(keySlot(stockKey(i)));
        QCOMPARE(primariesUsed.size(), 3);

        auto replicaClient = m_cluster.connectNode(replica);
        QList<Order> orders;
        int inFlight = 0, done = 0;
        bool failoverAsked = false, promoted = false;
        qint64 completedAtPromotion = -1;
        QString failoverError;
        QTimer poll; // watches the replica's role without blocking the stream
        connect(&poll, &QTimer::timeout, this, [&] {
            replicaClient->send({"ROLE"}, this, [&](const ReplyResult &role) {
                if (role.ok() && role->at(0).bytes() == "master" && !promoted) {
                    promoted = true;
                    completedAtPromotion = done;
                }
            });
        });

        // Eight deductions in flight at a time until well after the promotion.
        std::function<void()> next = [&] {
            while (inFlight < 8 && orders.size() < 20000
                   && !(promoted && done >= completedAtPromotion + 300)) {
                const int n = int(orders.size());
                orders << Order{n % Skus, 1 + n % 5, Outcome::Pending, {}};
                ++inFlight;
                const Order &o = orders.last();
                r->send({"FCALL", "inventory_deduct_v2", "2", stockKey(o.skuIndex),
                         receiptKey(o.skuIndex, n), QByteArray::number(o.quantity), "3600"},
                        this, [&, n](const ReplyResult &result) {
                            Order &order = orders[n];
                            if (result.ok() && result->at(0).toInteger() == 1)
                                order.outcome = Outcome::Applied;
                            else if (!result.ok() && result.error().outcomeUnknown())
                                order.outcome = Outcome::Unknown;
                            else
                                order.outcome = Outcome::Refused;
                            order.detail = testsupport::render(result);
                            --inFlight;
                            ++done;
                            if (done == 200 && !failoverAsked) {
                                failoverAsked = true;
                                replicaClient->send(
                                    {"CLUSTER", "FAILOVER"}, this, [&](const ReplyResult &asked) {
                                        if (!asked.ok())
                                            failoverError = testsupport::render(asked);
                                    });
                                poll.start(20);
                            }
                            next();
                        });
            }
        };
        next();
        QTRY_VERIFY_WITH_TIMEOUT(inFlight == 0 && (promoted || !failoverError.isEmpty()), 60000);
        poll.stop();
        QVERIFY2(failoverError.isEmpty(), qPrintable(failoverError));
        QVERIFY2(promoted, "the replica never became a primary");
        QVERIFY2(completedAtPromotion < done, "no deduction ran after the promotion");
        const QString settled = m_cluster.waitUntilPrimary(replica);
        QVERIFY2(settled.isEmpty(), qPrintable(settled));

        // Each deduction: applied, a named refusal, or outcome unknown. Never "already
        // applied": every order was sent once, so a duplicate would be a silent resend.
        int applied = 0, refused = 0, unknown = 0;
        for (const Order &o : orders) {
            QVERIFY(o.outcome != Outcome::Pending);
            QVERIFY2(!o.detail.startsWith(QLatin1String("{2,")), qPrintable(o.detail));
            QVERIFY2(!o.detail.contains(QLatin1String("MOVED"))
                         && !o.detail.contains(QLatin1String("ASK ")),
                     qPrintable(o.detail));
            if (o.outcome == Outcome::Refused)
                QVERIFY2(o.detail.size() > 10, qPrintable(o.detail)); // says why
            applied += o.outcome == Outcome::Applied;
            refused += o.outcome == Outcome::Refused;
            unknown += o.outcome == Outcome::Unknown;
        }
        qInfo("%lld deductions: %d applied, %d refused, %d outcome unknown", qint64(orders.size()),
              applied, refused, unknown);
        QVERIFY(applied > 0);

        // The accounting, read through a fresh router that knows the new primary.
        auto after = m_cluster.router();
        QList<Command> reads;
        for (int i = 0; i < Skus; ++i)
            reads << Command{"GET", stockKey(i)};
        for (qsizetype n = 0; n < orders.size(); ++n)
            reads << Command{"HGET", receiptKey(orders[n].skuIndex, int(n)), "quantity"};
        const auto values = after->callBatch(reads, 20000);
        qint64 finalStock = 0, receipted = 0, receipts = 0;
        for (int i = 0; i < Skus; ++i) {
            QVERIFY2(values[i].ok(), qPrintable(testsupport::render(values[i])));
            finalStock += values[i]->bytes().toLongLong();
        }
        for (qsizetype n = 0; n < orders.size(); ++n) {
            const auto &v = values[Skus + n];
            QVERIFY2(v.ok(), qPrintable(testsupport::render(v)));
            const bool hasReceipt = !v->isNil();
            if (hasReceipt) {
                ++receipts;
                QCOMPARE(v->bytes().toInt(), orders[n].quantity);
                receipted += orders[n].quantity;
            }
            if (orders[n].outcome == Outcome::Applied)
                QVERIFY2(hasReceipt,
                         qPrintable(QStringLiteral("order %1 acknowledged, no receipt").arg(n)));
            if (orders[n].outcome == Outcome::Refused)
                QVERIFY2(!hasReceipt, qPrintable(orders[n].detail));
        }
        QCOMPARE(InitialStock * Skus, finalStock + receipted);
        // Every run of the function left one receipt: no deduction ran twice.
        QCOMPARE(fcallsRun(), receipts);
        // The handover was crossed: the old primary refused some deductions with MOVED.
        QVERIFY(fcallStat(oldPrimary, "rejected_calls") > 0);
    }

    // The promoted replica now owns the shard: the router routes there, and the old
    // primary (a replica now) is not among the nodes a scan visits.
    void theRouterUsesTheNewPrimary()
    {
        auto r = m_cluster.router();
        const QList<int> primaries = m_cluster.primaries();
        QCOMPARE(primaries.size(), 3);
        QSet<quint16> primaryPorts, scanned;
        for (int i : primaries)
            primaryPorts << m_cluster.nodes().at(i).port;
        for (const ScanNode &n : r->scanNodes())
            scanned << quint16(n.name.section(QLatin1Char(':'), -1).toUInt());
        QCOMPARE(scanned, primaryPorts);
        for (int i = 0; i < Skus; ++i) {
            auto d = r->call({"FCALL", "inventory_deduct_v2", "2", stockKey(i),
                              "idem:{" + sku(i) + "}:after", "1", "3600"});
            QVERIFY2(d.ok() && d->at(0).toInteger() == 1, qPrintable(testsupport::render(d)));
            const int owner = r->topology().ownerOf(keySlot(stockKey(i)));
            QVERIFY(primaryPorts.contains(r->topology().nodes().at(owner).port));
        }
    }
};

QTEST_GUILESS_MAIN(TstClusterFailover)
#include "tst_cluster_failover.moc"
