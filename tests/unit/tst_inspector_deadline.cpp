// SPDX-License-Identifier: GPL-3.0-or-later
// The offline inspector's time budget holds inside one long C call. A top level such as
// ("a"):rep(100):find(("a*"):rep(5).."b") spends seconds inside string.find, where the
// instruction hook never fires; the load run happens in a child process that is killed at the
// CPU-time limit (functions/IsolatedLoad.h). What the child finds comes back whole. A child the
// machine gives no time is not judged at all.
#include "functions/InspectInBackground.h"
#include "functions/Inspection.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace functions;
using Kind = InspectionProblem::Kind;

namespace {
QByteArray slowLibrary(int length, int stars)
{
    return "#!lua name=slow\n-- backtracking inside one C call\nlocal hit = ('a'):rep("
           + QByteArray::number(length) + "):find(('a*'):rep(" + QByteArray::number(stars)
           + ") .. 'b')\nredis.register_function('f', function() return 1 end)\n";
}
InspectOptions inProcess()
{
    InspectOptions o;
    o.isolate = false;
    return o;
}
} // namespace

class TstInspectorDeadline : public QObject
{
    Q_OBJECT

private slots:
    void backtrackingFindIsStopped_data()
    {
        QTest::addColumn<QByteArray>("code");
        QTest::newRow("issue's pattern (8.6 s in process)") << slowLibrary(100, 5);
        QTest::newRow("one that never finishes") << slowLibrary(2000, 20);
    }
    void backtrackingFindIsStopped()
    {
        QFETCH(QByteArray, code);
        QElapsedTimer clock;
        clock.start();
        const Inspection i = inspectLibrary(code, "slow.lua");
        const qint64 ms = clock.elapsed();
        QVERIFY2(!i.ok(), "accepted");
        QCOMPARE(i.problem->kind, Kind::TimeBudget);
        QCOMPARE(i.problem->message.english,
                 QStringLiteral("the top level used more than 2000 ms of CPU time and was "
                                "stopped: a single long C call (such as a backtracking string.find "
                                "or a huge string.rep) cannot be interrupted, and Redis would be "
                                "blocked as long by FUNCTION LOAD"));
        QVERIFY(i.functions.isEmpty());
        // CPU time is at most the wall time: it cannot have stopped sooner.
        QVERIFY2(ms >= 2000, qPrintable(QString::number(ms)));
        // Asked again (a change asks many times), the verdict is remembered.
        clock.restart();
        QCOMPARE(inspectLibrary(code).problem->kind, Kind::TimeBudget);
        QVERIFY2(clock.elapsed() < 200, qPrintable(QString::number(clock.elapsed())));
    }

    // A run that gets no time before the wall-clock ceiling is not judged: not a refusal of
    // the code, and not remembered, so the next attempt on a quieter machine judges it.
    void unfinishedRunIsNoVerdict()
    {
        QFile shipped(QStringLiteral(INVENTORY_SOURCE_DIR "/functions/inventory_lib_v1.lua"));
        QVERIFY(shipped.open(QIODevice::ReadOnly));
        const QByteArray code = shipped.readAll() + "\n-- unfinishedRunIsNoVerdict\n";
        InspectOptions starved;
        starved.wallClockCeilingMs = 0;
        const Inspection i = inspectLibrary(code, "lib.lua", starved);
        QVERIFY2(!i.ok(), "accepted without a run");
        QCOMPARE(i.problem->kind, Kind::NotInspected);
        QCOMPARE(problemKindName(i.problem->kind), QStringLiteral("not-inspected"));
        QVERIFY2(i.problem->message.english.startsWith("the inspection did not finish within 0 s"),
                 qPrintable(i.problem->message.english));
        QVERIFY2(i.problem->refusal().startsWith("could not be inspected offline, so it is not "
                                                 "loaded (this says nothing about the code"),
                 qPrintable(i.problem->refusal()));
        // The ceiling is not in the memo's key: were NotInspected remembered, it would answer
        // this call too.
        const Inspection judged = inspectLibrary(code, "lib.lua");
        QVERIFY2(judged.ok(), qPrintable(judged.problem ? judged.problem->toString() : QString()));
    }

    // The hook's own budget still answers first for Lua code that loops.
    void luaLoopStillStoppedByTheHook()
    {
        const Inspection i = inspectLibrary("#!lua name=loop\nwhile true do end\n");
        QCOMPARE(i.problem->kind, Kind::TimeBudget);
        QVERIFY2(i.problem->message.english.startsWith("FUNCTION LOAD timeout"),
                 qPrintable(i.problem->message.english));
        QCOMPARE(i.problem->line, 2);
    }

    // Everything the child finds comes back as the same run in this process would find it.
    void childResultIsWhole_data()
    {
        QTest::addColumn<QByteArray>("code");
        QFile shipped(QStringLiteral(INVENTORY_SOURCE_DIR "/functions/inventory_lib_v1.lua"));
        QVERIFY(shipped.open(QIODevice::ReadOnly));
        QTest::newRow("shipped library") << shipped.readAll();
        QTest::newRow("log and nil description")
            << QByteArray("#!lua name=logged\nredis.log(redis.LOG_WARNING, 'héllo')\n"
                          "redis.register_function{function_name='g', callback=function() end, "
                          "flags={'no-writes', 'allow-oom'}}\n"
                          "redis.register_function{function_name='h', callback=function() end, "
                          "description='d'}\n");
        QTest::newRow("refused with a line")
            << QByteArray("#!lua name=bad\nredis.register_function('f', function() end)\n"
                          "count = 1\n");
    }
    void childResultIsWhole()
    {
        QFETCH(QByteArray, code);
        const Inspection child = inspectLibrary(code, "x.lua");
        const Inspection here = inspectLibrary(code, "x.lua", inProcess());
        QCOMPARE(child.problem.has_value(), here.problem.has_value());
        if (here.problem) {
            QCOMPARE(child.problem->kind, here.problem->kind);
            QCOMPARE(child.problem->toString(), here.problem->toString());
        }
        QCOMPARE(child.log, here.log);
        QCOMPARE(child.functions.size(), here.functions.size());
        for (qsizetype f = 0; f < here.functions.size(); ++f) {
            const InspectedFunction &a = child.functions[f], &b = here.functions[f];
            QCOMPARE(a.info.name, b.info.name);
            QCOMPARE(a.info.description, b.info.description);
            QCOMPARE(a.info.flags, b.info.flags);
            QCOMPARE(a.line, b.line);
            QCOMPARE(a.firstLine, b.firstLine);
            QCOMPARE(a.lastLine, b.lastLine);
            QCOMPARE(a.behaviour, b.behaviour);
        }
    }

    // The window keeps running its event loop while a slow file is inspected.
    void backgroundInspectionKeepsTheLoopRunning()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath("slow.lua"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(slowLibrary(100, 6));
        f.close();
        int ticks = 0;
        QTimer timer;
        connect(&timer, &QTimer::timeout, this, [&] { ++ticks; });
        timer.start(20);
        std::optional<InspectedFile> result;
        inspectFileInBackground(f.fileName(), this, [&](const auto &r) { result = r; });
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 10000);
        QVERIFY(result->ok());
        QCOMPARE(result->value().problem->kind, Kind::TimeBudget);
        QVERIFY2(ticks > 20, qPrintable(QString::number(ticks)));
    }
};

QTEST_GUILESS_MAIN(TstInspectorDeadline)
#include "tst_inspector_deadline.moc"
