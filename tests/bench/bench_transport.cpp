// SPDX-License-Identifier: GPL-3.0-or-later
// Pipelined GET throughput through the console's transport, shaped like redis-benchmark:
// C connections, each with batches of P GETs in flight, N requests in all.
// Usage: bench_transport --port N [--connections C] [--pipeline P] [--requests N]
//                        [--on-caller-thread]  (the command line's one-connection shape)
//                        [--no-quick-reply-wait]  (sleep at once for every reply)
// Prints the rate and the client's CPU time per request (user + system).
#include "core/EventDispatcher.h"
#include "redis/RedisClient.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>

#include <sys/resource.h>

#include <memory>
#include <vector>

int main(int argc, char **argv)
{
    core::preferFastEventDispatcher();
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.addHelpOption();
    p.addOption({"port", "server port", "port"});
    p.addOption({"connections", "connections", "n", "8"});
    p.addOption({"pipeline", "commands per batch", "n", "32"});
    p.addOption({"requests", "total requests", "n", "1000000"});
    p.addOption({"on-caller-thread", "sockets on this thread, as inventory-cli deduct has them"});
    p.addOption({"no-quick-reply-wait", "never poll for a reply before sleeping"});
    p.process(app);
    redis::ConnectionOptions o;
    o.port = quint16(p.value("port").toUInt());
    o.commandTimeoutMs = 30000;
    o.onCallerThread = p.isSet("on-caller-thread");
    if (p.isSet("no-quick-reply-wait"))
        o.quickReplyWaitUs = 0;
    const int connections = p.value("connections").toInt();
    const int pipeline = p.value("pipeline").toInt();
    const qint64 requests = p.value("requests").toLongLong();

    std::vector<std::unique_ptr<redis::RedisClient>> clients;
    for (int i = 0; i < connections; ++i) {
        clients.push_back(std::make_unique<redis::RedisClient>(o));
        clients.back()->open();
        if (!clients.back()->waitUntilReady(5000)) {
            QTextStream(stderr) << "connect failed: " << clients.back()->stateDetail().english
                                << '\n';
            return 1;
        }
    }
    QList<redis::Command> batch(pipeline, redis::Command{"GET", "key:__rand_int__"});
    qint64 issued = 0, done = 0, errors = 0;
    int active = 0;
    QElapsedTimer t;
    std::function<void(redis::RedisClient *)> pump = [&](redis::RedisClient *c) {
        if (issued >= requests) {
            if (--active == 0)
                app.quit();
            return;
        }
        issued += pipeline;
        c->sendBatch(batch, &app, [&, c](const QList<redis::ReplyResult> &results) {
            for (const auto &r : results)
                errors += r.ok() ? 0 : 1;
            done += results.size();
            pump(c);
        });
    };
    t.start();
    for (auto &c : clients) {
        ++active;
        pump(c.get());
    }
    app.exec();
    const double secs = t.nsecsElapsed() / 1e9;
    rusage used{};
    getrusage(RUSAGE_SELF, &used);
    const double cpuUs = (used.ru_utime.tv_sec + used.ru_stime.tv_sec) * 1e6 + used.ru_utime.tv_usec
                         + used.ru_stime.tv_usec;
    QTextStream(stdout) << "transport GET: " << qint64(done / secs) << " requests/s (" << done
                        << " in " << QString::number(secs, 'f', 2) << " s, " << errors
                        << " errors, c=" << connections << " P=" << pipeline << ", "
                        << QString::number(cpuUs / qMax<qint64>(done, 1), 'f', 1)
                        << " us CPU per request)\n";
    return errors == 0 ? 0 : 1;
}
