// SPDX-License-Identifier: GPL-3.0-or-later
// scripts/bench sentinel: how long the console takes to write again after a Sentinel failover.
// A primary, a replica and three sentinels (tests/support SentinelGroup) on loopback; each
// round resolves the primary, subscribes a SentinelWatcher, asks a sentinel for SENTINEL
// FAILOVER, and on primaryMoved opens a connection to the new primary and sends SET until one
// succeeds. Prints, per round and as medians, the time from SENTINEL FAILOVER to
// +switch-master heard, and from +switch-master heard to the first successful SET (target
// <= 2000 ms).
// Usage: bench_sentinel [--rounds N]
#include "SentinelFixture.h"
#include "sentinel/SentinelResolver.h"
#include "sentinel/SentinelWatcher.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>
#include <QTimer>

#include <algorithm>
#include <memory>

namespace {

double median(QList<double> v)
{
    std::sort(v.begin(), v.end());
    return v.isEmpty()    ? 0
           : v.size() % 2 ? v[v.size() / 2]
                          : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

struct Round
{
    double toSwitchMs = -1; // SENTINEL FAILOVER sent -> +switch-master heard
    double toWriteMs = -1;  // +switch-master heard -> first successful SET on the new primary
    int attempts = 0;
    QString error;
};

Round runRound(testsupport::SentinelGroup &group, QCoreApplication &app)
{
    Round out;
    sentinel::ResolverConfig config;
    for (int i = 0; i < group.sentinelCount(); ++i)
        config.sentinels << sentinel::NodeAddress{QStringLiteral("127.0.0.1"),
                                                  group.sentinelPort(i)};
    config.masterName = QStringLiteral("mymaster");
    const auto first = sentinel::resolveBlocking(config);
    if (!first.ok()) {
        out.error = first.error().message.english;
        return out;
    }
    sentinel::SentinelWatcher watcher(config, first->primary);
    watcher.start();
    QElapsedTimer wait;
    wait.start();
    while (watcher.subscribedCount() < group.sentinelCount() && wait.elapsed() < 10000)
        app.processEvents(QEventLoop::WaitForMoreEvents, 50);
    if (watcher.subscribedCount() < group.sentinelCount()) {
        out.error = QStringLiteral("the subscriptions did not come up");
        return out;
    }
    QElapsedTimer t;
    std::unique_ptr<redis::RedisClient> client;
    std::function<void()> attempt;
    bool finished = false;
    attempt = [&] {
        ++out.attempts;
        client->send({"SET", "bench:sentinel", QByteArray::number(out.attempts)}, client.get(),
                     [&](const redis::ReplyResult &r) {
                         if (r.ok()) {
                             out.toWriteMs = t.nsecsElapsed() / 1e6 - out.toSwitchMs;
                             finished = true;
                         } else {
                             QTimer::singleShot(5, client.get(), attempt);
                         }
                     });
    };
    QObject::connect(&watcher, &sentinel::SentinelWatcher::primaryMoved, &watcher,
                     [&](const sentinel::NodeAddress &, const sentinel::NodeAddress &to) {
                         out.toSwitchMs = t.nsecsElapsed() / 1e6;
                         redis::ConnectionOptions o;
                         o.host = to.host;
                         o.port = to.port;
                         client = std::make_unique<redis::RedisClient>(o);
                         client->open();
                         attempt();
                     });
    auto asker = group.connectSentinel(0);
    t.start();
    const auto asked = asker->call({"SENTINEL", "FAILOVER", "mymaster"});
    if (!asked.ok()) {
        out.error = QStringLiteral("SENTINEL FAILOVER: %1").arg(asked.error().message.english);
        return out;
    }
    while (!finished && t.elapsed() < 60000)
        app.processEvents(QEventLoop::WaitForMoreEvents, 50);
    if (!finished)
        out.error = QStringLiteral("no successful SET within 60 s of SENTINEL FAILOVER");
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.addHelpOption();
    p.addOption({"rounds", "failovers to measure", "n", "5"});
    p.process(app);
    QTextStream out(stdout);
    testsupport::SentinelGroup group;
    if (!group.start()) {
        out << "could not start the servers: " << group.errorString() << Qt::endl;
        return 1;
    }
    QList<double> toSwitch, toWrite;
    for (int round = 1; round <= p.value("rounds").toInt(); ++round) {
        const QString settled = group.waitUntilSettled(60000);
        if (!settled.isEmpty()) {
            out << "round " << round << ": not settled: " << settled << Qt::endl;
            return 1;
        }
        const Round r = runRound(group, app);
        if (!r.error.isEmpty()) {
            out << "round " << round << ": " << r.error << Qt::endl;
            return 1;
        }
        out << QStringLiteral("round %1: SENTINEL FAILOVER -> +switch-master %2 ms; "
                              "+switch-master -> first SET on the new primary %3 ms (%4 tries)")
                   .arg(round)
                   .arg(r.toSwitchMs, 0, 'f', 1)
                   .arg(r.toWriteMs, 0, 'f', 1)
                   .arg(r.attempts)
            << Qt::endl;
        toSwitch << r.toSwitchMs;
        toWrite << r.toWriteMs;
    }
    out << QStringLiteral("median: SENTINEL FAILOVER -> +switch-master %1 ms; +switch-master -> "
                          "first successful command %2 ms (max %3 ms)")
               .arg(median(toSwitch), 0, 'f', 1)
               .arg(median(toWrite), 0, 'f', 1)
               .arg(*std::max_element(toWrite.begin(), toWrite.end()), 0, 'f', 1)
        << Qt::endl;
    return 0;
}
