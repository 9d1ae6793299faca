// SPDX-License-Identifier: GPL-3.0-or-later
#include "DemoSeeder.h"

#include "functions/LocalCatalog.h"

#include "DemoLog.h"
#include "redis/Blocking.h"
#include "redis/ResultReads.h"

#include <QElapsedTimer>
#include <QFile>
#include <memory>

namespace demo {

namespace {

constexpr int kBatchTimeoutMs = 30000;

QString describe(const redis::Command &command)
{
    return QString::fromUtf8(command.mid(0, 2).join(' '));
}

// Why the demo could not be seeded: the Demo data panel shows it, the log keeps the English.
// Command names and the server's words go in as they are.
core::Sentence seedSays(const char *source)
{
    return core::Sentence::translated("demo::DemoSeeder", source);
}

core::Sentence commandFailed(const QString &command, const core::Sentence &why)
{
    return seedSays(QT_TRANSLATE_NOOP("demo::DemoSeeder", "%1 failed: %2")).arg(command, why);
}

// One seeding run: each step sends one pipelined batch and continues from its callback.
class SeedRun : public std::enable_shared_from_this<SeedRun>
{
public:
    SeedRun(redis::CommandSender &sender, QObject *context, const SeedOptions &options,
            std::function<void(const SeedResult &)> done)
        : m_sender(sender)
        , m_context(context)
        , m_plan(buildSeedPlan(options))
        , m_done(std::move(done))
    {
        m_report.anomalies = m_plan.planted;
        m_clock.start();
    }

    void checkEmpty()
    {
        send({{"DBSIZE"}}, [](SeedRun &run, const QList<redis::ReplyResult> &r) {
            const auto keys = redis::integerOf(r[0]);
            if (!keys)
                return run.fail(commandFailed(QStringLiteral("DBSIZE"), keys.error().toString()));
            if (*keys != 0)
                return run.fail(
                    seedSays(QT_TRANSLATE_NOOP("demo::DemoSeeder", "refusing to seed: the database "
                                                                   "already holds %1 keys"))
                        .arg(*keys));
            run.loadAndStock();
        });
    }

private:
    using Step = void (*)(SeedRun &, const QList<redis::ReplyResult> &);

    void send(QList<redis::Command> commands, Step step)
    {
        ++m_report.roundTrips;
        auto self = shared_from_this();
        m_sender.sendBatch(
            std::move(commands), m_context,
            [self, step](const QList<redis::ReplyResult> &r) { step(*self, r); }, kBatchTimeoutMs);
    }

    void loadAndStock()
    {
        const QByteArray code = inventoryLibrarySource();
        if (code.isEmpty())
            return fail(seedSays(QT_TRANSLATE_NOOP(
                "demo::DemoSeeder", "the embedded library inventory_lib_v1.lua is missing")));
        QList<redis::Command> batch{{"FUNCTION", "LOAD", "REPLACE", code}};
        batch += m_plan.stock;
        send(batch, [](SeedRun &run, const QList<redis::ReplyResult> &r) {
            if (!run.allOk(r, [&](qsizetype i) {
                    return i == 0 ? QStringLiteral("FUNCTION LOAD REPLACE")
                                  : describe(run.m_plan.stock[i - 1]);
                }))
                return;
            const auto name = r[0]->string(); // FUNCTION LOAD answers the library's name
            if (!name)
                return run.fail(core::Sentence::plain(QStringLiteral("FUNCTION LOAD REPLACE: %1"))
                                    .arg(name.error().message));
            run.m_report.libraryName = *name;
            run.placeOrders();
        });
    }

    void placeOrders()
    {
        send(m_plan.orders, [](SeedRun &run, const QList<redis::ReplyResult> &r) {
            for (qsizetype i = 0; i < r.size(); ++i) {
                const auto &reply = r[i];
                if (!reply.ok())
                    return run.fail(
                        commandFailed(describe(run.m_plan.orders[i]), reply.error().toString()));
                const auto pair = reply->array();
                const auto code =
                    pair && pair->size() == 2 ? pair->at(0).asInteger() : std::nullopt;
                if (code == 1)
                    ++run.m_report.receipts;
                else if (code == 2)
                    ++run.m_report.duplicates;
                else if (code == 0)
                    ++run.m_report.insufficient;
                else if (code == -2)
                    ++run.m_report.missingStock;
                else
                    return run.fail(
                        seedSays(QT_TRANSLATE_NOOP("demo::DemoSeeder", "unexpected FCALL reply %1"))
                            .arg(reply->debugString(80)));
            }
            run.plantAnomalies();
        });
    }

    void plantAnomalies()
    {
        QList<redis::Command> batch = m_plan.anomalies;
        batch << redis::Command{"DBSIZE"};
        send(batch, [](SeedRun &run, const QList<redis::ReplyResult> &r) {
            if (!run.allOk(r, [&](qsizetype i) {
                    return i < run.m_plan.anomalies.size() ? describe(run.m_plan.anomalies[i])
                                                           : QStringLiteral("DBSIZE");
                }))
                return;
            const auto keys = r.last()->integer();
            if (!keys)
                return run.fail(
                    core::Sentence::plain(QStringLiteral("DBSIZE: %1")).arg(keys.error().message));
            run.m_report.keyCount = *keys;
            run.m_report.stockKeys = int(run.m_plan.stock.size()) - 1; // discontinued: deleted
            qCInfo(lcDemo).nospace()
                << "seeded " << run.m_report.stockKeys << " SKUs and " << run.m_report.receipts
                << " receipts (" << run.m_report.keyCount << " keys) in " << run.m_report.roundTrips
                << " round trips, " << run.m_clock.elapsed() << " ms";
            run.m_done(run.m_report);
        });
    }

    template<class Name>
    bool allOk(const QList<redis::ReplyResult> &r, Name name)
    {
        for (qsizetype i = 0; i < r.size(); ++i) {
            if (!r[i].ok()) {
                fail(commandFailed(name(i), r[i].error().toString()));
                return false;
            }
        }
        return true;
    }

    void fail(const core::Sentence &why)
    {
        qCWarning(lcDemo) << "seeding failed:" << why.english;
        m_done(why);
    }

    redis::CommandSender &m_sender;
    QObject *m_context;
    SeedPlan m_plan;
    SeedReport m_report;
    std::function<void(const SeedResult &)> m_done;
    QElapsedTimer m_clock;
};

} // namespace

QByteArray inventoryLibrarySource()
{
    // The demo runs the previous release (1.0.0), so that a new user sees "loaded 1.0.0,
    // local file 1.1.0 differs" and can preview and load the upgrade.
    functions::initFunctionResources();
    QFile f(functions::previousReleasePath());
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void seedDemo(redis::CommandSender &sender, QObject *context, const SeedOptions &options,
              std::function<void(const SeedResult &)> done)
{
    std::make_shared<SeedRun>(sender, context, options, std::move(done))->checkEmpty();
}

SeedResult seedDemoBlocking(redis::CommandSender &sender, const SeedOptions &options)
{
    return redis::blockUntilReply<SeedResult>(
        [&](QObject *context, auto done) { seedDemo(sender, context, options, done); });
}

} // namespace demo
