// SPDX-License-Identifier: GPL-3.0-or-later
// Every refusal of the offline inspector (functions/Inspection.h), with its message and Lua
// line, next to what a real redis-server says about the same code: the inspector must refuse
// what the server refuses, for the same reason. A few refusals are our policy only (size,
// text, names that differ only in case: Redis 7.0 accepts "f" and "F" in one library and
// then fails when that library is replaced); those are never sent.
#include "ServerTest.h"
#include "functions/Inspection.h"

#include <QRegularExpression>
#include <QTest>

using functions::InspectionProblem;
using Kind = InspectionProblem::Kind;

Q_DECLARE_METATYPE(InspectionProblem::Kind)

namespace {
const QByteArray Fn = "redis.register_function('f', function() return 1 end)\n";
const QByteArray Head = "#!lua name=refusal_test\n";
} // namespace

class TstFunctionsRefusals : public testsupport::ServerTest
{
    Q_OBJECT

private slots:
    void initTestCase() { QCOMPARE(startServer(), QString()); }

    void init() { QVERIFY(m_c->call({"FUNCTION", "FLUSH", "SYNC"}).ok()); }

    void refusals_data()
    {
        QTest::addColumn<QByteArray>("code");
        QTest::addColumn<Kind>("kind");
        QTest::addColumn<QString>("message"); // the inspector's, whole
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("server"); // what Redis says (contained); empty: not sent

        QTest::newRow("not utf-8")
            << Head + "-- caf\xe9\n" + Fn << Kind::NotText << "not UTF-8 text" << 2 << QString();
        QTest::newRow("NUL byte") << Head + QByteArray("local x = 1\0\n", 13) + Fn << Kind::NotText
                                  << "not a text file: a NUL byte at offset 35" << 2 << QString();
        QTest::newRow("too large") << Head + Fn + QByteArray(1024 * 1024, '-') << Kind::TooLarge
                                   << QStringLiteral("the library is %1 bytes, above the limit "
                                                     "of 1048576 bytes")
                                          .arg(Head.size() + Fn.size() + 1024 * 1024)
                                   << 0 << QString();
        QTest::newRow("no shebang")
            << "local x = 1\n" + Fn << Kind::MissingMetadata << "Missing library metadata" << 1
            << "Missing library metadata";
        QTest::newRow("shebang without newline")
            << QByteArray("#!lua name=refusal_test") << Kind::InvalidMetadata
            << "Invalid library metadata: the first line has no end" << 1
            << "Invalid library metadata";
        QTest::newRow("name twice")
            << "#!lua name=a name=b\n" + Fn << Kind::InvalidMetadata
            << "Invalid metadata value, name argument was given multiple times" << 1
            << "name argument was given multiple times";
        QTest::newRow("unbalanced quote")
            << "#!lua name=\"a\n" + Fn << Kind::InvalidMetadata << "Invalid library metadata" << 1
            << "Invalid library metadata";
        QTest::newRow("unknown metadata")
            << "#!lua name=a version=1\n" + Fn << Kind::UnknownMetadata
            << "Invalid metadata value given: version=1" << 1
            << "Invalid metadata value given: version=1";
        QTest::newRow("no name") << "#!lua\n" + Fn << Kind::MissingName
                                 << "Library name was not given" << 1
                                 << "Library name was not given";
        const QString badLib = QStringLiteral("Library names can only contain letters, numbers, "
                                              "or underscores(_) and must be at least one "
                                              "character long");
        QTest::newRow("library name with dash")
            << "#!lua name=a-b\n" + Fn << Kind::BadLibraryName << badLib << 1 << badLib;
        QTest::newRow("empty library name")
            << "#!lua name=\n" + Fn << Kind::BadLibraryName << badLib << 1 << badLib;
        QTest::newRow("unknown engine") << "#!js name=a\n" + Fn << Kind::UnknownEngine
                                        << "Engine 'js' not found" << 1 << "Engine 'js' not found";
        QTest::newRow("syntax error")
            << Head + "local x = 1\nlocal function f(\n"
            << Kind::CompileError
            << "Error compiling function: <name> or '...' expected near '<eof>'" << 4
            << "user_function:4: <name> or '...' expected near '<eof>'";
        QTest::newRow("read of string library")
            << Head + "local s = string.format('x')\n" + Fn << Kind::NonexistentGlobal
            << "Script attempted to access nonexistent global variable 'string'" << 2
            << "user_function:2: Script attempted to access nonexistent global variable 'string'";
        QTest::newRow("redis.call at load time")
            << Head + "\n\nredis.call('PING')\n" + Fn << Kind::NonexistentGlobal
            << "Script attempted to access nonexistent global variable 'call' (redis.call is not "
               "available while a library loads)"
            << 4
            << "user_function:4: Script attempted to access nonexistent global variable 'call'";
        QTest::newRow("error() at load time")
            << Head + "error('boom')\n"
            << Kind::NonexistentGlobal
            << "Script attempted to access nonexistent global variable 'error'" << 2
            << "nonexistent global variable 'error'";
        QTest::newRow("global assignment")
            << Head + "\ncounter = 5\n" + Fn << Kind::ReadOnlyGlobal
            << "Attempt to modify a readonly table (global 'counter')" << 3
            << "user_function:3: Attempt to modify a readonly table";
        QTest::newRow("global function")
            << Head + "function helper() end\n" + Fn << Kind::ReadOnlyGlobal
            << "Attempt to modify a readonly table (global 'helper')" << 2
            << "user_function:2: Attempt to modify a readonly";
        QTest::newRow("assignment to redis")
            << Head + "redis.extra = 1\n" + Fn << Kind::ReadOnlyGlobal
            << "Attempt to modify a readonly table (redis.extra)" << 2
            << "user_function:2: Attempt to modify a readonly table";
        QTest::newRow("index a nil local")
            << Head + "local t\nt.x = 1\n" + Fn << Kind::RuntimeError
            << "attempt to index local 't' (a nil value)" << 3
            << "user_function:3: attempt to index local 't' (a nil value)";
        const auto reg = [&](const char *name, const QByteArray &call, Kind kind,
                             const QString &message) {
            QTest::newRow(name) << Head + "\n" + call + "\n" << kind << message << 3 << message;
        };
        reg("register without arguments", "redis.register_function()", Kind::BadArguments,
            "wrong number of arguments to redis.register_function");
        reg("register with 3 arguments", "redis.register_function('f', function() end, 1)",
            Kind::BadArguments, "wrong number of arguments to redis.register_function");
        reg("name not a string", "redis.register_function({}, function() end)", Kind::BadArguments,
            "first argument to redis.register_function must be a string");
        reg("callback not a function", "redis.register_function('f', 3)", Kind::BadArguments,
            "second argument to redis.register_function must be a function");
        reg("single argument not a table", "redis.register_function('f')", Kind::BadArguments,
            "calling redis.register_function with a single argument is only applicable to Lua "
            "table (representing named arguments).");
        reg("named: no function_name", "redis.register_function{callback=function() end}",
            Kind::BadArguments, "redis.register_function must get a function name argument");
        reg("named: no callback", "redis.register_function{function_name='f'}", Kind::BadArguments,
            "redis.register_function must get a callback argument");
        reg("named: unknown argument",
            "redis.register_function{function_name='f', callback=function() end, ttl=1}",
            Kind::BadArguments, "unknown argument given to redis.register_function");
        reg("named: description a table",
            "redis.register_function{function_name='f', callback=function() end, "
            "description={}}",
            Kind::BadArguments,
            "description argument given to redis.register_function must be a string");
        reg("named: callback not a function",
            "redis.register_function{function_name='f', callback='x'}", Kind::BadArguments,
            "callback argument given to redis.register_function must be a function");
        reg("named: flags not a table",
            "redis.register_function{function_name='f', callback=function() end, "
            "flags='no-writes'}",
            Kind::BadArguments,
            "flags argument to redis.register_function must be a table representing function "
            "flags");
        reg("unknown flag",
            "redis.register_function{function_name='f', callback=function() end, "
            "flags={'no-writes', 'fast'}}",
            Kind::UnknownFlag, "unknown flag given");
        reg("flag not a string",
            "redis.register_function{function_name='f', callback=function() end, flags={1}}",
            Kind::UnknownFlag, "unknown flag given");
        QTest::newRow("function name with dash")
            << Head + "\nredis.register_function('f-g', function() end)\n"
            << Kind::BadFunctionName
            << "Function names can only contain letters, numbers, or underscores(_) and must be "
               "at least one character long"
            << 3 << "can only contain letters, numbers, or underscores";
        QTest::newRow("duplicate function")
            << Head + Fn + Fn << Kind::DuplicateFunction
            << "Function already exists in the library: 'f' (line 2) and 'f' compare equal, "
               "ignoring case"
            << 3 << "Function already exists in the library";
        QTest::newRow("names differing in case")
            << Head + Fn + "redis.register_function('F', function() return 2 end)\n"
            << Kind::DuplicateFunction
            << "Function already exists in the library: 'f' (line 2) and 'F' compare equal, "
               "ignoring case"
            << 3 << QString();
        QTest::newRow("redis.log with one argument")
            << Head + "redis.log(redis.LOG_NOTICE)\n" + Fn << Kind::BadArguments
            << "redis.log() requires two arguments or more." << 2
            << "redis.log() requires two arguments or more.";
        QTest::newRow("no function registered")
            << Head + "local x = 1\n"
            << Kind::NoFunctions << "No functions registered" << 0 << "No functions registered";
        QTest::newRow("endless top level")
            << Head + "local n = 0\nwhile true do n = n + 1 end\n" + Fn << Kind::TimeBudget
            << "FUNCTION LOAD timeout: the top level ran past the load budget (500 ms or "
               "50000000 instructions)"
            << 3 << QString(); // Redis: the same after 500 ms; not worth the wait
        // Doubling allocates each string in one piece, so the budget trips within ~100 ms
        // even under a sanitizer on a loaded machine; a huge string.rep is built byte by byte
        // in one C call and may first meet the CPU-time limit (a time-budget refusal).
        QTest::newRow("huge allocation")
            << Head + "local s = ('x'):rep(1024)\nfor i = 1, 20 do s = s .. s end\n" + Fn
            << Kind::MemoryBudget << "the top level allocated more than 64 MiB" << 0 << QString();
    }
    void refusals()
    {
        QFETCH(QByteArray, code);
        QFETCH(Kind, kind);
        QFETCH(QString, message);
        QFETCH(int, line);
        QFETCH(QString, server);
        const functions::Inspection i = functions::inspectLibrary(code);
        QVERIFY2(i.problem.has_value(), "the inspector accepted it");
        QCOMPARE(functions::problemKindName(i.problem->kind), functions::problemKindName(kind));
        QCOMPARE(i.problem->message.english, message);
        QCOMPARE(i.problem->line, line);
        QCOMPARE(i.problem->toString(),
                 line > 0 ? QStringLiteral("line %1: %2").arg(line).arg(message) : message);
        QVERIFY(i.functions.isEmpty());
        if (server.isEmpty())
            return;
        const redis::ReplyResult r = m_c->call({"FUNCTION", "LOAD", code});
        QVERIFY2(!r.ok(), qPrintable(testsupport::render(r)));
        // Valkey refuses the same code for the same reason, naming the API by its own name
        // (`server.register_function`, `server.log`): the reason is compared, not the name.
        static const QRegularExpression valkeyName(QStringLiteral("\\bserver\\."));
        const QString said =
            QString(r.error().message.english).replace(valkeyName, QStringLiteral("redis."));
        QVERIFY2(said.contains(server), qPrintable(r.error().message.english));
        QCOMPARE(testsupport::render(m_c->call({"FUNCTION", "LIST"})), QStringLiteral("{}"));
    }

    // What the inspector accepts, the server accepts, with the same functions and flags.
    void acceptedLikeTheServer_data()
    {
        QTest::addColumn<QByteArray>("code");
        QTest::newRow("shipped library") << testsupport::functionSource("inventory_lib_v1.lua");
        QTest::newRow("positional, flags in upper case, numeric description")
            << Head
                   + "redis.log(redis.LOG_NOTICE, 'loading on', redis.REDIS_VERSION, "
                     "redis.REDIS_VERSION_NUM)\n"
                     "local n = ('ab'):len()\n"
                     "redis.register_function('plain', function() return n end)\n"
                     "redis.register_function{FUNCTION_NAME='ro', CALLBACK=function() end, "
                     "FLAGS={'NO-WRITES', 'allow-stale', 'no-writes'}, description=42}\n";
    }
    void acceptedLikeTheServer()
    {
        QFETCH(QByteArray, code);
        const functions::Inspection i = functions::inspectLibrary(code);
        QVERIFY2(i.ok(), qPrintable(i.problem ? i.problem->toString() : QString()));
        const redis::ReplyResult r = m_c->call({"FUNCTION", "LOAD", code});
        QVERIFY2(r.ok(), qPrintable(testsupport::render(r)));
        auto listed = redis::decodeFunctionList(m_c->call({"FUNCTION", "LIST"}).value());
        QVERIFY(listed.ok());
        QCOMPARE(listed->size(), 1);
        QCOMPARE(listed->first().name, i.library);
        QCOMPARE(listed->first().functions.size(), i.functions.size());
        for (qsizetype k = 0; k < i.functions.size(); ++k) {
            const redis::FunctionInfo &server = listed->first().functions.at(k);
            const redis::FunctionInfo &offline = i.functions.at(k).info;
            QCOMPARE(offline.name, server.name);
            QCOMPARE(offline.flags, server.flags);
            QCOMPARE(offline.description, server.description);
        }
    }
};

QTEST_GUILESS_MAIN(TstFunctionsRefusals)
#include "tst_functions_refusals.moc"
