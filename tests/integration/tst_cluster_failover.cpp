// SPDX-License-Identifier: GPL-3.0-or-later
#include "CliRunner.h"
#include "RedisFixture.h"
#include "TrustedTunnel.h"
#include "redis/ClusterRouter.h"
#include "redis/Slot.h"
#include "session/TunnelRoute.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <csignal>

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

    // The node index of the primary owning sku-<i>, as the router sees it.
    int primaryOfSku(ClusterRouter &r, int i)
    {
        const int owner = r.topology().ownerOf(keySlot(stockKey(i)));
        for (int n = 0; owner >= 0 && n < m_cluster.size(); ++n)
            if (m_cluster.nodes().at(n).port == r.topology().nodes().at(owner).port)
                return n;
        return -1;
    }

    struct Stream
    {
        QByteArray prefix; // of the order ids, so that two streams never share a receipt
        QList<Order> orders;
        qint64 doneAtPromotion = -1;
        int applied = 0, refused = 0, unknown = 0;
        QByteArray receiptKey(qsizetype n) const
        {
            const int i = orders[n].skuIndex;
            return "idem:{" + sku(i) + "}:" + prefix + QByteArray::number(n);
        }
    };

    // Deductions, eight in flight, against every SKU (so every primary); `strike` runs once
    // 200 have completed, and the stream goes on until 300 more completed after `replica`
    // said it is a primary (its ROLE polled every 20 ms without blocking the stream).
    void runStream(ClusterRouter &r, Stream &s, int replica, const std::function<void()> &strike)
    {
        auto replicaClient = m_cluster.connectNode(replica);
        int inFlight = 0, done = 0;
        bool struck = false, promoted = false;
        QTimer poll;
        connect(&poll, &QTimer::timeout, this, [&] {
            replicaClient->send({"ROLE"}, this, [&](const ReplyResult &role) {
                if (role.ok() && role->at(0).bytes() == "master" && !promoted) {
                    promoted = true;
                    s.doneAtPromotion = done;
                }
            });
        });
        std::function<void()> next = [&] {
            while (inFlight < 8 && s.orders.size() < 20000
                   && !(promoted && done >= s.doneAtPromotion + 300)) {
                const int n = int(s.orders.size());
                s.orders << Order{n % Skus, 1 + n % 5, Outcome::Pending, {}};
                ++inFlight;
                const Order &o = s.orders.last();
                r.send({"FCALL", "inventory_deduct_v2", "2", stockKey(o.skuIndex), s.receiptKey(n),
                        QByteArray::number(o.quantity), "3600"},
                       this, [&, n](const ReplyResult &result) {
                           Order &order = s.orders[n];
                           if (result.ok() && result->at(0).toInteger() == 1)
                               order.outcome = Outcome::Applied;
                           else if (!result.ok() && result.error().mayHaveRun())
                               order.outcome = Outcome::Unknown;
                           else
                               order.outcome = Outcome::Refused;
                           order.detail = testsupport::render(result);
                           --inFlight;
                           ++done;
                           if (done == 200 && !struck) {
                               struck = true;
                               strike();
                               poll.start(20);
                           }
                           next();
                       });
            }
        };
        next();
        QTRY_VERIFY_WITH_TIMEOUT(inFlight == 0, 60000);
        poll.stop();
        QVERIFY2(promoted, "the replica never became a primary");
        QVERIFY2(s.doneAtPromotion < done, "no deduction ran after the promotion");
        const QString settled = m_cluster.waitUntilPrimary(replica);
        QVERIFY2(settled.isEmpty(), qPrintable(settled));

        // Each deduction: applied, a named refusal, or outcome unknown. Never "already
        // applied": every order was sent once, so a duplicate would be a silent resend.
        for (const Order &o : s.orders) {
            QVERIFY(o.outcome != Outcome::Pending);
            QVERIFY2(!o.detail.startsWith(QLatin1String("{2,")), qPrintable(o.detail));
            QVERIFY2(!o.detail.contains(QLatin1String("MOVED"))
                         && !o.detail.contains(QLatin1String("ASK ")),
                     qPrintable(o.detail));
            if (o.outcome == Outcome::Refused)
                QVERIFY2(o.detail.size() > 10, qPrintable(o.detail)); // says why
            s.applied += o.outcome == Outcome::Applied;
            s.refused += o.outcome == Outcome::Refused;
            s.unknown += o.outcome == Outcome::Unknown;
        }
        QSet<QString> refusals; // what a refused deduction said, numbers left out
        for (const Order &o : s.orders)
            if (o.outcome == Outcome::Refused)
                refusals << o.detail.left(70).remove(QRegularExpression(QStringLiteral("\\d+")));
        for (const QString &why : refusals)
            qInfo("refused: %s", qPrintable(why));
        qInfo("%lld deductions: %d applied, %d refused, %d outcome unknown",
              qint64(s.orders.size()), s.applied, s.refused, s.unknown);
        QVERIFY(s.applied > 0);
    }

    // runStream with CLUSTER FAILOVER asked of `replica` as its strike; what refused the
    // failover, if anything.
    QString streamThroughFailover(ClusterRouter &r, Stream &s, int replica)
    {
        auto replicaClient = m_cluster.connectNode(replica);
        QString failoverError;
        runStream(r, s, replica, [&] {
            replicaClient->send({"CLUSTER", "FAILOVER"}, this, [&](const ReplyResult &asked) {
                if (!asked.ok())
                    failoverError = testsupport::render(asked);
            });
        });
        return failoverError;
    }

    // The whole stock of the SKUs, read through a fresh router (it knows the new primary).
    qint64 totalStock()
    {
        auto r = m_cluster.router();
        QList<Command> reads;
        for (int i = 0; i < Skus; ++i)
            reads << Command{"GET", stockKey(i)};
        qint64 total = 0;
        for (const auto &v : r->callBatch(reads, 20000)) {
            if (!v.ok())
                return -1;
            total += v->bytes().toLongLong();
        }
        return total;
    }

    // Each order's receipt quantity (0: none). Stock before == stock after + their sum, a
    // refused order has none; returns how many acknowledged orders have none (a primary
    // killed before replicating its last writes loses them, stock and receipt together).
    int checkAccounting(const Stream &s, qint64 stockBefore, qint64 *receipts)
    {
        auto r = m_cluster.router();
        QList<Command> reads;
        for (qsizetype n = 0; n < s.orders.size(); ++n)
            reads << Command{"HGET", s.receiptKey(n), "quantity"};
        const auto values = r->callBatch(reads, 20000);
        qint64 receipted = 0;
        int ackedWithout = 0;
        *receipts = 0;
        for (qsizetype n = 0; n < s.orders.size(); ++n) {
            const auto &v = values[n];
            if (!v.ok()) {
                qWarning("%s", qPrintable(testsupport::render(v)));
                return -1;
            }
            const bool hasReceipt = !v->isNil();
            if (hasReceipt) {
                ++*receipts;
                if (v->bytes().toInt() != s.orders[n].quantity)
                    return -1;
                receipted += s.orders[n].quantity;
            }
            if (s.orders[n].outcome == Outcome::Applied && !hasReceipt)
                ++ackedWithout;
            if (s.orders[n].outcome == Outcome::Refused && hasReceipt) {
                qWarning("refused but written: %s", qPrintable(s.orders[n].detail));
                return -1;
            }
        }
        const qint64 stockAfter = totalStock();
        if (stockBefore != stockAfter + receipted) {
            qWarning("stock %lld before, %lld after, %lld in receipts", stockBefore, stockAfter,
                     receipted);
            return -1;
        }
        return ackedWithout;
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
        const int oldPrimary = primaryOfSku(*r, 0);
        QVERIFY(oldPrimary >= 0);
        const int replica = m_cluster.replicaOf(oldPrimary);
        QVERIFY(replica >= 0);
        QSet<int> primariesUsed;
        for (int i = 0; i < Skus; ++i)
            primariesUsed << r->topology().ownerOf(keySlot(stockKey(i)));
        QCOMPARE(primariesUsed.size(), 3);

        Stream s;
        s.prefix = "f-";
        const QString failoverError = streamThroughFailover(*r, s, replica);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(failoverError.isEmpty(), qPrintable(failoverError));

        qint64 receipts = 0;
        QCOMPARE(checkAccounting(s, InitialStock * Skus, &receipts), 0);
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

    // A replica's URL (the old primary, demoted) is as good a seed as a primary's: the CLI
    // deducts on every primary through it and counts every SKU.
    void theCliWorksThroughAReplicasUrl()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        const QList<int> primaries = m_cluster.primaries();
        int replica = -1;
        for (int i = 0; i < m_cluster.size() && replica < 0; ++i)
            if (!primaries.contains(i))
                replica = i;
        QVERIFY(replica >= 0);
        const QString url =
            QStringLiteral("redis://127.0.0.1:%1").arg(m_cluster.nodes().at(replica).port);
        auto r = m_cluster.router();
        QSet<int> owners;
        for (int i = 0; i < Skus; ++i) {
            owners << r->topology().ownerOf(keySlot(stockKey(i)));
            const auto run = testsupport::runCli(
                {QStringLiteral("deduct"), QStringLiteral("--url"), url, QStringLiteral("--sku"),
                 QString::fromLatin1(sku(i)), QStringLiteral("--order"), QStringLiteral("cli-1"),
                 QStringLiteral("--quantity"), QStringLiteral("1")});
            QVERIFY2(run.exitCode == 0, run.out + run.err);
            QVERIFY2(run.out.contains("deducted"), run.out);
        }
        QCOMPARE(owners.size(), 3);
        const auto keys =
            testsupport::runCli({QStringLiteral("keys"), QStringLiteral("--url"), url,
                                 QStringLiteral("--summary"), QStringLiteral("--json")});
        QVERIFY2(keys.exitCode == 0, keys.out + keys.err);
        QVERIFY2(keys.out.contains("\"skus\":" + QByteArray::number(Skus)), keys.out);
    }

    // The same failover with every connection behind an SSH bastion (a real sshd on
    // loopback): the router reaches each primary, and the promoted replica, through forwards
    // of one tunnel, and every deduction is still accounted for once.
    void deductionsThroughAFailoverBehindAnSshTunnel()
    {
        testsupport::Sshd sshd;
        QVERIFY2(sshd.start(), qPrintable(sshd.errorString()));
        QTemporaryDir data;
        const auto tunnel = testsupport::trustedTunnel<std::shared_ptr<ssh::SshTunnel>>(
            sshd, data.filePath(QStringLiteral("known_hosts")));
        QVERIFY(tunnel);
        ConnectionOptions seed;
        seed.route = session::tunnelRoute(tunnel);
        auto r = m_cluster.router(seed);
        QVERIFY(r->waitUntilDiscovered(15000));
        // A shard neither the fixture's first node (the seed of the checks' fresh routers) nor
        // the next test's victim (sku-1's primary) is in, so that their layout stays as it was.
        int oldPrimary = -1;
        for (int i = 2; i < Skus && oldPrimary < 0; ++i) {
            const int p = primaryOfSku(*r, i);
            if (p != primaryOfSku(*r, 1) && p != 0 && m_cluster.replicaOf(p) != 0)
                oldPrimary = p;
        }
        QVERIFY(oldPrimary >= 0);
        const int replica = m_cluster.replicaOf(oldPrimary);
        QVERIFY(replica >= 0);
        QVERIFY(m_cluster.waitUntilReplicated().isEmpty());
        const qint64 stockBefore = totalStock();
        const qint64 fcallsBefore = fcallsRun();

        Stream s;
        s.prefix = "t-";
        const QString failoverError = streamThroughFailover(*r, s, replica);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(failoverError.isEmpty(), qPrintable(failoverError));
        qint64 receipts = 0;
        QCOMPARE(checkAccounting(s, stockBefore, &receipts), 0);
        QCOMPARE(fcallsRun() - fcallsBefore, receipts);
        const QString log = sshd.fullLog();
        for (int i : m_cluster.primaries())
            QVERIFY2(
                log.contains(
                    QStringLiteral("target 127.0.0.1 port %1").arg(m_cluster.nodes().at(i).port)),
                qPrintable(QStringLiteral("primary %1 not reached through sshd").arg(i)));
        QVERIFY(m_cluster.primaries().contains(replica));
    }

    // A primary killed (SIGKILL) with deductions in flight: the connection drops with writes
    // on it, whose outcome nobody can know; they are "outcome unknown", never resent. The
    // shard's deductions are refused by name until its replica takes over (node timeout),
    // then served by it through the same router.
    void deductionsThroughAPrimaryKilledAreNeverResent()
    {
        auto r = m_cluster.router();
        const int victim = primaryOfSku(*r, 1);
        QVERIFY(victim >= 0);
        const int replica = m_cluster.replicaOf(victim);
        QVERIFY(replica >= 0);
        // What came before this stream is on every replica, so only its own writes can die.
        QVERIFY(m_cluster.waitUntilReplicated().isEmpty());
        const qint64 stockBefore = totalStock();
        QVERIFY(stockBefore > 0);
        const qint64 pid = m_cluster.pid(victim);
        Stream s;
        s.prefix = "k-";
        runStream(*r, s, replica, [pid] { ::kill(pid_t(pid), SIGKILL); });
        m_cluster.kill(victim); // reaps it
        if (QTest::currentTestFailed())
            return;
        // Some were on the dropped connection.
        QVERIFY(s.unknown > 0);
        for (const Order &o : s.orders)
            if (o.outcome == Outcome::Unknown)
                QVERIFY2(o.detail.contains(QLatin1String("may or may not have run")),
                         qPrintable(o.detail));
        qint64 receipts = 0;
        const int lost = checkAccounting(s, stockBefore, &receipts);
        QVERIFY(lost >= 0);
        // Only what the primary acknowledged just before it died can have missed its replica.
        QVERIFY2(lost <= 8, qPrintable(QString::number(lost)));
        qInfo("%lld receipts; %d acknowledged deductions lost with the killed primary", receipts,
              lost);
    }
};

QTEST_GUILESS_MAIN(TstClusterFailover)
#include "tst_cluster_failover.moc"
