// SPDX-License-Identifier: GPL-3.0-or-later
#include "CliRunner.h"
#include "FailoverStream.h"
#include "RedisFixture.h"
#include "SentinelFixture.h"
#include "SshdFixture.h"
#include "profiles/ProfileStore.h"
#include "sentinel/SentinelResolver.h"
#include "sentinel/SentinelWatcher.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sentinel;
using testsupport::SentinelGroup;

// A real primary, replica and sentinel trio: the primary found and confirmed with ROLE, each
// way of failing said for what it is, and a SENTINEL FAILOVER followed while deductions
// stream, each accounted for once.
class TstSentinel : public QObject
{
    Q_OBJECT

    SentinelGroup m_group;
    // A second primary with a sentinel of its own, that also calls it "mymaster": to stand
    // for a sentinel that still names the old primary of a failover.
    SentinelGroup m_other;
    static constexpr qint64 InitialStock = 1000000;

    ResolverConfig config(const QList<int> &sentinels, const QByteArray &name = "mymaster") const
    {
        ResolverConfig c;
        for (int i : sentinels)
            c.sentinels << NodeAddress{QStringLiteral("127.0.0.1"), m_group.sentinelPort(i)};
        c.masterName = QString::fromUtf8(name);
        c.sentinelOptions.connectTimeoutMs = 2000;
        c.sentinelOptions.commandTimeoutMs = 3000;
        c.dataOptions = c.sentinelOptions;
        return c;
    }
    QList<int> all() const { return {0, 1, 2}; }
    // `c` with m_other's sentinel added, before the others or after them.
    ResolverConfig withOther(ResolverConfig c, bool first) const
    {
        const NodeAddress other{QStringLiteral("127.0.0.1"), m_other.sentinelPort(0)};
        if (first)
            c.sentinels.prepend(other);
        else
            c.sentinels.append(other);
        return c;
    }
    // A primary and one sentinel, each with a password of its own.
    static SentinelGroup::Options secure(const QByteArray &sentinelPassword,
                                         const QByteArray &dataPassword)
    {
        SentinelGroup::Options o;
        o.sentinels = 1;
        o.withReplica = false;
        o.sentinelPassword = sentinelPassword;
        o.dataPassword = dataPassword;
        return o;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_group.start(), qPrintable(m_group.errorString()));
        const QString settled = m_group.waitUntilSettled();
        QVERIFY2(settled.isEmpty(), qPrintable(settled));
        QCOMPARE(m_group.primary(), 0);
    }

    void resolvesAndConfirmsThePrimary()
    {
        const auto r = resolveBlocking(config(all()));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message.english));
        QCOMPARE(r->primary.port, m_group.dataPort(0));
        QCOMPARE(r->answeredBy.port, m_group.sentinelPort(0));
        QCOMPARE(r->answers.size(), 3); // every sentinel asked, not only the first
        for (const SentinelAnswer &a : r->answers)
            QCOMPARE(a.kind, SentinelAnswer::Kind::Named);
    }

    // Two sentinels name two nodes that each say master, at the same config epoch: neither
    // is claimed as the primary, and the message says what each sentinel named.
    void twoPrimariesAtOneEpochAreNotChosen()
    {
        SentinelGroup::Options o;
        o.sentinels = 1;
        o.withReplica = false;
        QVERIFY2(m_other.start(o), qPrintable(m_other.errorString()));
        const auto r = resolveBlocking(withOther(config({0}), /*first=*/false));
        QVERIFY(!r.ok());
        QCOMPARE(r.error().failure, ResolveFailure::SentinelsDisagree);
        const QString m = r.error().message.english;
        QVERIFY2(m.startsWith(QLatin1String("not proven which node is the primary of 'mymaster'")),
                 qPrintable(m));
        for (quint16 port : {m_group.dataPort(0), m_other.dataPort(0)})
            QVERIFY2(m.contains(QStringLiteral("127.0.0.1:%1 at config epoch 0").arg(port)),
                     qPrintable(m));
    }

    void listsTheReplicas()
    {
        SentinelResolver resolver(config(all()));
        QSignalSpy read(&resolver, &SentinelResolver::replicasRead);
        resolver.readReplicas();
        QVERIFY(read.wait(10000));
        const auto replicas = read.first().at(0).value<QList<ReplicaEntry>>();
        QCOMPARE(replicas.size(), 1);
        QCOMPARE(replicas.first().address.port, m_group.dataPort(1));
        QVERIFY(!replicas.first().isDown());
    }

    void aWrongMasterNameIsSaidSo()
    {
        const auto r = resolveBlocking(config(all(), "no-such-master"));
        QVERIFY(!r.ok());
        QCOMPARE(r.error().failure, ResolveFailure::MasterUnknown);
        QCOMPARE(r.error().answers.size(), 3);
        const QString m = r.error().message.english;
        QVERIFY2(m.startsWith(QLatin1String("no sentinel knows a master named 'no-such-master'")),
                 qPrintable(m));
        QVERIFY2(m.contains(QStringLiteral("127.0.0.1:%1 does not know the master")
                                .arg(m_group.sentinelPort(2))),
                 qPrintable(m));
    }

    void aDataPortIsNotASentinel()
    {
        ResolverConfig c = config({});
        c.sentinels << NodeAddress{QStringLiteral("127.0.0.1"), m_group.dataPort(0)};
        const auto r = resolveBlocking(c);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().failure, ResolveFailure::SentinelRefused);
        QVERIFY2(r.error().message.english.contains(QLatin1String("are these sentinel ports")),
                 qPrintable(r.error().message.english));
    }

    // A sentinel that names a node whose ROLE says replica: never taken as the primary.
    void aReplicaNamedIsNotTakenForThePrimary()
    {
        const int stale = m_group.addSentinel("stale", 1);
        QVERIFY2(stale >= 0, qPrintable(m_group.errorString()));
        ResolverConfig c = config({stale}, "stale");
        const auto r = resolveBlocking(c);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().failure, ResolveFailure::NotPrimary);
        QVERIFY2(r.error().message.english.contains(QStringLiteral("ROLE says it is a replica of "
                                                                   "127.0.0.1:%1")
                                                        .arg(m_group.dataPort(0))),
                 qPrintable(r.error().message.english));
        m_group.stopSentinel(stale);
    }

    void sentinelCredentialsAreTheSentinels()
    {
        SentinelGroup secured;
        QVERIFY2(secured.start(secure("sentinel-pw-1", "data-pw-2")),
                 qPrintable(secured.errorString()));
        ResolverConfig c;
        c.sentinels << NodeAddress{QStringLiteral("127.0.0.1"), secured.sentinelPort(0)};
        c.masterName = QStringLiteral("mymaster");

        // None given: the sentinel wants one.
        auto r = resolveBlocking(c);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().failure, ResolveFailure::SentinelAuthRefused);
        // The data node's password is not the sentinel's.
        c.sentinelOptions.password = QStringLiteral("data-pw-2");
        r = resolveBlocking(c);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().failure, ResolveFailure::SentinelAuthRefused);
        QVERIFY2(!r.error().message.english.contains(QLatin1String("data-pw-2")),
                 qPrintable(r.error().message.english));
        // The sentinel's, and no password for the data node: named, but ROLE unreadable.
        c.sentinelOptions.password = QStringLiteral("sentinel-pw-1");
        r = resolveBlocking(c);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().failure, ResolveFailure::PrimaryUnreadable);
        QVERIFY2(!r.error().message.english.contains(QLatin1String("sentinel-pw-1")),
                 qPrintable(r.error().message.english));
        // Each its own: resolved.
        c.dataOptions.password = QStringLiteral("data-pw-2");
        r = resolveBlocking(c);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message.english));
        QCOMPARE(r->primary.port, secured.dataPort(0));

        // The watcher's subscription uses the sentinel credentials too: up with the right
        // ones, refused (and not retried) with wrong ones, the password never said.
        SentinelWatcher watcher(c, r->primary);
        QSignalSpy changed(&watcher, &SentinelWatcher::subscriptionChanged);
        watcher.start();
        QTRY_COMPARE_WITH_TIMEOUT(watcher.subscribedCount(), 1, 10000);
        c.sentinelOptions.password = QStringLiteral("wrong-pw-6");
        SentinelWatcher refused(c, r->primary);
        QSignalSpy lost(&refused, &SentinelWatcher::subscriptionChanged);
        refused.start();
        QVERIFY(lost.wait(10000));
        QCOMPARE(lost.first().at(1).toBool(), false);
        const QString why = lost.first().at(2).toString();
        QVERIFY2(why.startsWith(QStringLiteral("authentication failed on 127.0.0.1:%1 (WRONGPASS)")
                                    .arg(secured.sentinelPort(0))),
                 qPrintable(why));
        QVERIFY(!why.contains(QLatin1String("wrong-pw-6")));
        QCOMPARE(refused.subscribedCount(), 0);
    }

    // An ACL user of the sentinels' own (Sentinel has ACLs since 6.2): asked as that user,
    // by the resolver and by the watcher's subscription; a wrong password is said as such.
    void aSentinelAclUserIsAskedAsItself()
    {
        SentinelGroup secured;
        QVERIFY2(secured.start(secure("sentinel-pw-7", "data-pw-8")),
                 qPrintable(secured.errorString()));
        auto admin = secured.connectSentinel(0);
        const auto made = admin->call(
            {"ACL", "SETUSER", "watcher", "on", ">watcher-pw-9", "allcommands", "allchannels"});
        QVERIFY2(made.ok(), qPrintable(testsupport::render(made)));
        ResolverConfig c;
        c.sentinels << NodeAddress{QStringLiteral("127.0.0.1"), secured.sentinelPort(0)};
        c.masterName = QStringLiteral("mymaster");
        c.sentinelOptions.username = QStringLiteral("watcher");
        c.sentinelOptions.password = QStringLiteral("watcher-pw-9");
        c.dataOptions.password = QStringLiteral("data-pw-8");
        const auto r = resolveBlocking(c);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message.english));
        QCOMPARE(r->primary.port, secured.dataPort(0));
        SentinelWatcher watcher(c, r->primary);
        watcher.start();
        QTRY_COMPARE_WITH_TIMEOUT(watcher.subscribedCount(), 1, 10000);
        const auto clients = admin->call({"CLIENT", "LIST"});
        QVERIFY(clients.ok());
        QVERIFY2(clients->bytes().contains("user=watcher"), clients->bytes().constData());

        c.sentinelOptions.password = QStringLiteral("sentinel-pw-7"); // the default user's
        const auto wrong = resolveBlocking(c);
        QVERIFY(!wrong.ok());
        QCOMPARE(wrong.error().failure, ResolveFailure::SentinelAuthRefused);
        QVERIFY(!wrong.error().message.english.contains(QLatin1String("sentinel-pw-7")));
    }

    // Behind a bastion (a real sshd on loopback): the sentinels and the primary they name are
    // each reached through a forward of the tunnel, and the primary is production unless
    // labelled otherwise.
    void theCliAsksTheSentinelsThroughAnSshTunnel()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        testsupport::Sshd sshd;
        QVERIFY2(sshd.start(), qPrintable(sshd.errorString()));
        testsupport::CliOptions o;
        o.environment.remove(QStringLiteral("SSH_AUTH_SOCK"));
        const QStringList through{
            QStringLiteral("--url"),
            QStringLiteral("redis-sentinel://127.0.0.1:%1#mymaster").arg(m_group.sentinelPort(0)),
            QStringLiteral("--ssh"),
            QStringLiteral("%1@127.0.0.1:%2").arg(testsupport::Sshd::user()).arg(sshd.port()),
            QStringLiteral("--ssh-identity"),
            sshd.clientKey(),
            QStringLiteral("--ssh-trust-host-key"),
            sshd.hostKeyFingerprint()};
        auto run = testsupport::runCli(QStringList{QStringLiteral("ping")} + through, o);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        // Production: a deduction is refused before anything is sent.
        run = testsupport::runCli(QStringList{QStringLiteral("deduct"), QStringLiteral("--sku"),
                                              QStringLiteral("s"), QStringLiteral("--quantity"),
                                              QStringLiteral("1"), QStringLiteral("--order"),
                                              QStringLiteral("1"), QStringLiteral("--json")}
                                      + through,
                                  o);
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.out.contains("not_sent") && run.out.contains("production"),
                 run.out.constData());
        const QString log = sshd.fullLog();
        for (quint16 port : {m_group.sentinelPort(0), m_group.dataPort(0)})
            QVERIFY2(log.contains(QStringLiteral("target 127.0.0.1 port %1").arg(port)),
                     qPrintable(QStringLiteral("port %1 not reached through sshd").arg(port)));
    }

    // The CLI's --url takes the sentinel form: the verb runs on the confirmed primary, and a
    // failure says what failed.
    void theCliResolvesBeforeTheVerbRuns()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        const QString sentinels = QStringLiteral("127.0.0.1:%1,127.0.0.1:%2")
                                      .arg(m_group.sentinelPort(0))
                                      .arg(m_group.sentinelPort(1));
        auto run = testsupport::runCli(
            {QStringLiteral("ping"), QStringLiteral("--json"), QStringLiteral("--url"),
             QStringLiteral("redis-sentinel://%1#mymaster").arg(sentinels)});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.err.contains(QStringLiteral("names 127.0.0.1:%1 as the primary of "
                                                 "'mymaster' (ROLE confirmed)")
                                      .arg(m_group.dataPort(0))
                                      .toUtf8()),
                 run.err.constData());
        QVERIFY2(run.out.contains(QByteArray::number(m_group.dataPort(0))), run.out.constData());

        run = testsupport::runCli({QStringLiteral("ping"), QStringLiteral("--url"),
                                   QStringLiteral("redis-sentinel://%1#nope").arg(sentinels)});
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains("no sentinel knows a master named 'nope'"), run.err.constData());

        run = testsupport::runCli({QStringLiteral("ping"), QStringLiteral("--url"),
                                   QStringLiteral("redis-sentinel://%1").arg(sentinels)});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--url: no master name"), run.err.constData());

        run = testsupport::runCli({QStringLiteral("ping"), QStringLiteral("--url"),
                                   QStringLiteral("redis://127.0.0.1:%1").arg(m_group.dataPort(0)),
                                   QStringLiteral("--sentinel-user"), QStringLiteral("watcher")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--sentinel-user and --sentinel-password-stdin need --url "
                                  "redis-sentinel://"),
                 run.err.constData());

        // Unlabelled behind Sentinel: production, whatever the host the sentinels name.
        run = testsupport::runCli(
            {QStringLiteral("deduct"), QStringLiteral("--sku"), QStringLiteral("s"),
             QStringLiteral("--quantity"), QStringLiteral("1"), QStringLiteral("--order"),
             QStringLiteral("1"), QStringLiteral("--json"), QStringLiteral("--url"),
             QStringLiteral("redis-sentinel://%1#mymaster").arg(sentinels)});
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.out.contains("not_sent") && run.out.contains("production"),
                 run.out.constData());
    }

    // A saved Sentinel profile (as the console saves it) is resolved through its sentinels by
    // --profile too: never its host and port fields, which the console does not use.
    void theCliResolvesASavedSentinelProfile()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        QTemporaryDir config;
        {
            QSettings settings(config.filePath(QStringLiteral("InventoryConsole/"
                                                              "inventory-console.conf")),
                               QSettings::IniFormat);
            profiles::ConnectionProfile p;
            p.name = QStringLiteral("orders");
            p.environment = QStringLiteral("test");
            p.port = 1; // nothing listens there: only the sentinels' answer may be used
            p.sentinel.masterName = QStringLiteral("mymaster");
            p.sentinel.sentinels = QStringLiteral("127.0.0.1:%1").arg(m_group.sentinelPort(1));
            QVERIFY(profiles::ProfileStore(&settings).save(p).ok());
        }
        testsupport::CliOptions o;
        o.environment.insert(QStringLiteral("XDG_CONFIG_HOME"), config.path());
        o.environment.insert(QStringLiteral("INVENTORY_SECRETS"), QStringLiteral("session"));
        const auto run = testsupport::runCli(
            {QStringLiteral("ping"), QStringLiteral("--profile"), QStringLiteral("orders")}, o);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const int primary = m_group.primary();
        QVERIFY(primary >= 0);
        QVERIFY2(run.err.contains(QStringLiteral("names 127.0.0.1:%1 as the primary of "
                                                 "'mymaster'")
                                      .arg(m_group.dataPort(primary))
                                      .toUtf8()),
                 run.err.constData());
    }

    void theCliReadsTheSentinelPasswordFromStdin()
    {
        SentinelGroup secured;
        QVERIFY2(secured.start(secure("sentinel-pw-3", "data-pw-4")),
                 qPrintable(secured.errorString()));
        const QStringList args{
            QStringLiteral("ping"), QStringLiteral("--password-stdin"),
            QStringLiteral("--sentinel-password-stdin"), QStringLiteral("--url"),
            QStringLiteral("redis-sentinel://127.0.0.1:%1#mymaster").arg(secured.sentinelPort(0))};
        testsupport::CliOptions in;
        in.input = "data-pw-4\nwrong-pw-5\n";
        auto run = testsupport::runCli(args, in);
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains("refused the sentinel credentials"), run.err.constData());
        QVERIFY2(!run.err.contains("wrong-pw-5") && !run.err.contains("data-pw-4"),
                 run.err.constData());
        in.input = "data-pw-4\nsentinel-pw-3\n";
        run = testsupport::runCli(args, in);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(!run.err.contains("sentinel-pw-3"), run.err.constData());
    }

    // SENTINEL FAILOVER while deductions stream to the primary: the watcher reports the
    // move from A to B, the stream goes on on B (nothing in flight on A is resent), a
    // re-resolve returns B, and stock and receipts account for each deduction once.
    void aFailoverIsFollowedAndNothingResent()
    {
        auto admin = m_group.connectData(0);
        QVERIFY(admin
                    ->call({"FUNCTION", "LOAD", "REPLACE",
                            testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua"))})
                    .ok());
        QVERIFY(
            admin->call({"SET", "stock:{sku-s}:available", QByteArray::number(InitialStock)}).ok());
        QVERIFY(admin->call({"WAIT", "1", "5000"}).ok());

        const auto first = resolveBlocking(config(all()));
        QVERIFY(first.ok());
        SentinelWatcher watcher(config(all()), first->primary);
        QSignalSpy moved(&watcher, &SentinelWatcher::primaryMoved);
        watcher.start();
        QTRY_COMPARE_WITH_TIMEOUT(watcher.subscribedCount(), 3, 10000);

        std::unique_ptr<redis::RedisClient> current = m_group.connectData(0);
        std::vector<std::unique_ptr<redis::RedisClient>> retired; // kept until their replies
        testsupport::FailoverStream stream(
            this, "stock:{sku-s}:available", "idem:{sku-s}:o",
            [&] {
                return testsupport::FailoverStream::Target{current.get(), current->address()};
            },
            [&] {
                auto s = m_group.connectSentinel(1);
                const auto asked = s->call({"SENTINEL", "FAILOVER", "mymaster"});
                QVERIFY2(asked.ok(), qPrintable(testsupport::render(asked)));
            });
        connect(&watcher, &SentinelWatcher::primaryMoved, this,
                [&](const NodeAddress &, const NodeAddress &to, const QDateTime &) {
                    stream.moved();
                    redis::ConnectionOptions o = m_group.dataOptions(0);
                    o.port = to.port;
                    retired.push_back(std::move(current));
                    current = std::make_unique<redis::RedisClient>(o);
                    current->open();
                });
        stream.start();
        QTRY_VERIFY_WITH_TIMEOUT(stream.finished(), 60000);
        QCOMPARE(moved.size(), 1); // three sentinels announced it; reported once
        QCOMPARE(moved.first().at(0).value<NodeAddress>().port, m_group.dataPort(0));
        QCOMPARE(moved.first().at(1).value<NodeAddress>().port, m_group.dataPort(1));
        QVERIFY(moved.first().at(2).toDateTime().isValid());

        // A caller that saw READONLY asks again: B, confirmed by ROLE.
        QSignalSpy again(&watcher, &SentinelWatcher::reresolved);
        watcher.reresolve(QStringLiteral("READONLY from the old primary"));
        QVERIFY(again.wait(10000));
        QCOMPARE(again.first().at(0).value<Resolution>().primary.port, m_group.dataPort(1));
        QCOMPARE(watcher.primary().port, m_group.dataPort(1));
        QCOMPARE(moved.size(), 1); // not moved again

        // Every order sent once: none may find its receipt already there ({2,...}).
        auto b = m_group.connectData(1);
        testsupport::FailoverStream::Tally t;
        const QString wrong =
            stream.account(*b, QStringLiteral("127.0.0.1:%1").arg(m_group.dataPort(0)), &t);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        const auto stock = b->call({"GET", "stock:{sku-s}:available"});
        QVERIFY(stock.ok());
        QCOMPARE(stock->bytes().toLongLong(), InitialStock - t.receipted);
        qInfo("%lld deductions: %d applied (%d lost with the old primary), %d refused, %d outcome "
              "unknown",
              qint64(stream.orders().size()), t.applied, t.lost, t.refused, t.unknown);
        QVERIFY(t.applied > 0);
        const auto &orders = stream.orders();
        const bool someOnB = std::any_of(orders.cbegin(), orders.cend(), [&](const auto &o) {
            return o.sentTo == b->address()
                   && o.outcome == testsupport::FailoverStream::Outcome::Applied;
        });
        QVERIFY(someOnB);
    }

    // After the failover above, m_other's sentinel still names a node that says master, at
    // config epoch 0; the trio names the new primary at a higher epoch: that one is taken,
    // though the stale sentinel is asked first.
    void theNewerEpochNamesThePrimary()
    {
        const auto r = resolveBlocking(withOther(config({1}), /*first=*/true));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message.english));
        QCOMPARE(r->primary.port, m_group.dataPort(1));
        QCOMPARE(r->answeredBy.port, m_group.sentinelPort(1));
        QCOMPARE(r->answers.first().named.port, m_other.dataPort(0));
    }

    // Run last: it stops a sentinel of the trio.
    void oneSentinelDownStillResolves()
    {
        m_group.stopSentinel(0);
        const auto r = resolveBlocking(config(all()));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message.english));
        QCOMPARE(r->answeredBy.port, m_group.sentinelPort(1));
        QCOMPARE(r->answers.first().kind, SentinelAnswer::Kind::Unreachable);
        QCOMPARE(r->primary.port, m_group.dataPort(1)); // since the failover above

        // None left that answers: each one's reason is given.
        const auto none = resolveBlocking(config({0}));
        QVERIFY(!none.ok());
        QCOMPARE(none.error().failure, ResolveFailure::NoSentinelReachable);
        QVERIFY2(none.error().message.english.contains(
                     QStringLiteral("127.0.0.1:%1 unreachable (").arg(m_group.sentinelPort(0))),
                 qPrintable(none.error().message.english));
    }
};

QTEST_MAIN(TstSentinel)
#include "tst_sentinel.moc"
