// SPDX-License-Identifier: GPL-3.0-or-later
// Valkey's Lua has `server` as an alias of `redis`; Redis has no such global (issue 29). The
// offline inspector must agree with the server it targets: a library that uses `server` at its
// top level loads on Valkey and not on Redis, one that uses it in a function body loads on both
// and fails on Redis when called; either way the inspection warns, naming the lines. Runs on
// every server of the matrix (tests/ServerMatrix.cmake): the target is what the server says.
#include "CliRunner.h"
#include "RedisFixture.h"
#include "functions/Inspection.h"

#include <QTemporaryDir>
#include <QTest>

namespace {
const QByteArray TopLevel = "#!lua name=alias_top\n"
                            "-- Valkey spells redis.register_function as:\n"
                            "server.register_function('alias_top_f', function() return 1 end)\n";
const QByteArray InBody = "#!lua name=alias_body\n"
                          "local function read(key)\n"
                          "  return server.call('GET', key)\n"
                          "end\n"
                          "redis.register_function('alias_body_get', function(keys)\n"
                          "  return read(keys[1])\n"
                          "end)\n";
// `server` as a local, a field, a comment and a string: none is the global.
const QByteArray NotTheGlobal = "#!lua name=alias_none\n"
                                "local server = redis -- server.call in a comment\n"
                                "local t = {server = 1}\n"
                                "local s = 'server.call'\n"
                                "server.register_function('alias_none_f', function()\n"
                                "  return t.server\n"
                                "end)\n";
} // namespace

class TstFunctionsServerAlias : public QObject
{
    Q_OBJECT

    testsupport::StandaloneRedis m_redis;
    std::unique_ptr<redis::RedisClient> m_c;
    bool m_valkey = false;

    QTemporaryDir m_dir;

    QString writeFile(const QByteArray &code)
    {
        const QString path = m_dir.filePath(QStringLiteral("library.lua"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(code) != code.size())
            return {};
        return path;
    }

    functions::Inspection inspect(const QByteArray &code, bool valkey)
    {
        functions::InspectOptions options;
        options.valkey = valkey;
        return functions::inspectLibrary(code, {}, options);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_c = m_redis.connect();
        const QString server = testsupport::serverLabel(*m_c);
        QVERIFY(!server.isEmpty());
        m_valkey = server.startsWith(QLatin1String("Valkey "));
        qInfo("target: %s", qPrintable(server));
    }

    void init() { QVERIFY(m_c->call({"FUNCTION", "FLUSH", "SYNC"}).ok()); }

    void topLevelLoadsOnValkeyOnly()
    {
        const auto load = m_c->call({"FUNCTION", "LOAD", TopLevel});
        QCOMPARE(load.ok(), m_valkey);
        if (!load.ok())
            QVERIFY2(load.error().message.english.contains(
                         "user_function:3: Script attempted to access nonexistent global "
                         "variable 'server'"),
                     qPrintable(load.error().message.english));

        const functions::Inspection here = inspect(TopLevel, m_valkey);
        QCOMPARE(here.ok(), load.ok()); // the inspector agrees with this server
        const functions::Inspection onRedis = inspect(TopLevel, false);
        QVERIFY(!onRedis.ok());
        QCOMPARE(onRedis.problem->kind, functions::InspectionProblem::Kind::NonexistentGlobal);
        QCOMPARE(onRedis.problem->line, 3);
        const functions::Inspection onValkey = inspect(TopLevel, true);
        QVERIFY2(onValkey.ok(),
                 qPrintable(onValkey.problem ? onValkey.problem->toString() : QString()));
        QCOMPARE(onValkey.functions.size(), 1);
        QCOMPARE(onValkey.functions[0].info.name, QStringLiteral("alias_top_f"));
        for (const functions::Inspection &i : {onRedis, onValkey}) {
            QCOMPARE(i.serverAlias.topLevelLines, QList<int>{3});
            QVERIFY(i.serverAlias.functionLines.isEmpty());
            QCOMPARE(i.warnings.size(), 1);
            QVERIFY2(i.warnings[0].english.startsWith(QLatin1String("line 3: `server` is Valkey's"))
                         && i.warnings[0].english.contains(QLatin1String("will not load on Redis")),
                     qPrintable(i.warnings[0].english));
        }
    }

    void bodyLoadsEverywhereAndFailsOnRedis()
    {
        QVERIFY(m_c->call({"SET", "alias:k", "7"}).ok());
        QVERIFY(m_c->call({"FUNCTION", "LOAD", InBody}).ok());
        const auto call = m_c->call({"FCALL", "alias_body_get", "1", "alias:k"});
        if (m_valkey) {
            QCOMPARE(testsupport::render(call), QStringLiteral("\"7\""));
        } else {
            QVERIFY(!call.ok());
            QVERIFY2(call.error().message.english.contains("'server'"),
                     qPrintable(call.error().message.english));
        }
        for (bool valkey : {false, true}) {
            const functions::Inspection i = inspect(InBody, valkey);
            QVERIFY(i.ok());
            QVERIFY(i.serverAlias.topLevelLines.isEmpty());
            QCOMPARE(i.serverAlias.functionLines, QList<int>{3});
            QCOMPARE(i.warnings.size(), 1);
            QVERIFY2(i.warnings[0].english.startsWith(QLatin1String("line 3: `server`"))
                         && i.warnings[0].english.contains(QLatin1String("functions fail")),
                     qPrintable(i.warnings[0].english));
        }
    }

    void localsFieldsAndStringsAreNotTheAlias()
    {
        QVERIFY(m_c->call({"FUNCTION", "LOAD", NotTheGlobal}).ok()); // on Redis and Valkey
        const functions::Inspection i = inspect(NotTheGlobal, false);
        QVERIFY2(i.ok(), qPrintable(i.problem ? i.problem->toString() : QString()));
        QVERIFY(!i.serverAlias.any());
        QVERIFY(i.warnings.isEmpty());
    }

    void cliCheckTakesTheTarget()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        const QString file = writeFile(TopLevel);
        const auto redisRun = testsupport::runCli({"functions", "check", file});
        QCOMPARE(redisRun.exitCode, 3);
        QVERIFY2(redisRun.err.contains(": warning: line 3: `server` is Valkey's"),
                 redisRun.err.constData());
        const auto valkeyRun =
            testsupport::runCli({"functions", "check", file, "--target", "valkey"});
        QCOMPARE(valkeyRun.exitCode, 0);
        QVERIFY(valkeyRun.out.contains("alias_top_f"));
        QVERIFY(valkeyRun.err.contains("will not load on Redis"));
        const auto bad = testsupport::runCli({"functions", "check", file, "--target", "keydb"});
        QCOMPARE(bad.exitCode, 4);
    }

    // A load knows its target: the server says what it is.
    void cliLoadAcceptsTheAliasOnValkeyOnly()
    {
        testsupport::CliOptions o;
        o.environment.insert(QStringLiteral("INVENTORY_SECRETS"), QStringLiteral("session"));
        const QString url = QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port());
        const auto r = testsupport::runCli(
            {"functions", "load", writeFile(TopLevel), "--url", url, "--confirm", "alias_top"}, o);
        QVERIFY2(r.exitCode == (m_valkey ? 0 : 1), r.out + r.err);
        QVERIFY2(r.err.contains("will not load on Redis"), r.err.constData());
        QCOMPARE(testsupport::render(m_c->call({"FUNCTION", "LIST", "LIBRARYNAME", "alias_top"}))
                     != "{}",
                 m_valkey);
    }
};

QTEST_GUILESS_MAIN(TstFunctionsServerAlias)
#include "tst_functions_server_alias.moc"
