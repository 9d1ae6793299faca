// SPDX-License-Identifier: GPL-3.0-or-later
#include "IsolatedLoad.h"

#include "LuaSandbox.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDataStream>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHash>
#include <QIODevice>
#include <QMutex>
#include <QProcess>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <sys/prctl.h>
#include <unistd.h>

namespace functions::detail {

namespace {

using Kind = InspectionProblem::Kind;
constexpr quint32 Magic = 0x4c4f4144; // "LOAD": the child finished and wrote a whole result

LoadRun runHere(const QByteArray &code, const InspectOptions &options)
{
    SandboxContext ctx;
    ctx.options = &options;
    ctx.lines = code.split('\n');
    runLoad(ctx, code.mid(code.indexOf('\n')));
    return LoadRun{ctx.problem, ctx.functions, ctx.log};
}

QByteArray encode(const LoadRun &run)
{
    QByteArray bytes;
    QDataStream s(&bytes, QIODevice::WriteOnly);
    s << Magic << run.problem.has_value();
    if (run.problem)
        s << int(run.problem->kind) << run.problem->source << run.problem->args
          << run.problem->line;
    s << run.log << qint32(run.functions.size());
    for (const InspectedFunction &f : run.functions)
        s << f.info.name << f.info.description.has_value() << f.info.description.value_or(QString())
          << f.info.flags << f.line << f.firstLine << f.lastLine << f.behaviour;
    s << Magic;
    return bytes;
}

std::optional<LoadRun> decode(const QByteArray &bytes)
{
    QDataStream s(bytes);
    LoadRun run;
    quint32 magic = 0;
    bool hasProblem = false;
    s >> magic >> hasProblem;
    if (magic != Magic)
        return std::nullopt;
    if (hasProblem) {
        int kind = 0;
        RunProblem p;
        s >> kind >> p.source >> p.args >> p.line;
        p.kind = Kind(kind);
        run.problem = p;
    }
    qint32 count = 0;
    s >> run.log >> count;
    for (qint32 i = 0; i < count && s.status() == QDataStream::Ok; ++i) {
        InspectedFunction f;
        bool hasDescription = false;
        QString description;
        s >> f.info.name >> hasDescription >> description >> f.info.flags >> f.line >> f.firstLine
            >> f.lastLine >> f.behaviour;
        if (hasDescription)
            f.info.description = description;
        run.functions << f;
    }
    s >> magic;
    if (s.status() != QDataStream::Ok || magic != Magic)
        return std::nullopt;
    return run;
}

LoadRun failed(Kind kind, const char *source, const QStringList &args)
{
    return LoadRun{RunProblem{kind, source, args, 0}, {}, {}};
}

// What the helper reads on its standard input: the options the run depends on, then the code.
QByteArray encodeRequest(const QByteArray &code, const InspectOptions &o)
{
    QByteArray bytes;
    QDataStream s(&bytes, QIODevice::WriteOnly);
    s << Magic << o.redisVersion << o.valkey << qint64(o.instructionBudget)
      << qint32(o.timeBudgetMs) << qint64(o.memoryBudget) << code << Magic;
    return bytes;
}

std::optional<std::pair<QByteArray, InspectOptions>> decodeRequest(const QByteArray &bytes)
{
    QDataStream s(bytes);
    quint32 magic = 0, end = 0;
    InspectOptions o;
    qint64 instructions = 0, memory = 0;
    qint32 timeMs = 0;
    QByteArray code;
    s >> magic >> o.redisVersion >> o.valkey >> instructions >> timeMs >> memory >> code >> end;
    if (s.status() != QDataStream::Ok || magic != Magic || end != Magic)
        return std::nullopt;
    o.instructionBudget = instructions;
    o.timeBudgetMs = timeMs;
    o.memoryBudget = memory;
    return std::make_pair(code, o);
}

LoadRun notInspected(const char *source, const QStringList &args)
{
    return failed(Kind::NotInspected, source, args);
}

// The machine gave the helper no time to finish: no verdict on the code.
LoadRun unfinished(const InspectOptions &options, qint64 usedMs)
{
    const QString seconds = QString::number(options.wallClockCeilingMs / 1000.0);
    if (usedMs < 0)
        return notInspected(QT_TRANSLATE_NOOP("functions::Inspection",
                                              "the inspection did not finish within %1 s and was "
                                              "stopped: the machine is too busy to judge the code"),
                            {seconds});
    return notInspected(QT_TRANSLATE_NOOP("functions::Inspection",
                                          "the inspection did not finish within %1 s and was "
                                          "stopped after %2 ms of CPU time: the machine is too "
                                          "busy to judge the code"),
                        {seconds, QString::number(usedMs)});
}

// `said`: what the helper wrote on its standard error, if anything.
LoadRun stoppedAbnormally(const QString &said)
{
    if (said.isEmpty())
        return notInspected(
            QT_TRANSLATE_NOOP("functions::Inspection", "the inspection helper stopped abnormally"),
            {});
    return notInspected(
        QT_TRANSLATE_NOOP("functions::Inspection", "the inspection helper stopped abnormally: %1"),
        {said});
}

// The helper is a process of its own, started by exec: a fork of this multithreaded process
// that went on running its code could meet a lock another thread held at the fork.
LoadRun runInHelper(const QByteArray &code, const InspectOptions &options)
{
    const QString program = loadRunHelperPath();
    if (program.isEmpty())
        return notInspected(
            QT_TRANSLATE_NOOP("functions::Inspection",
                              "the inspection helper %1 was not found next to the program, in "
                              "%2, or in $INVENTORY_LOAD_RUN"),
            {QLatin1String(LoadRunHelperName), QLatin1String(INVENTORY_LIBEXEC_FROM_BIN)});
    QElapsedTimer wall;
    wall.start();
    QProcess helper;
    helper.start(program, {}, QIODevice::ReadWrite);
    if (!helper.waitForStarted(std::max(options.wallClockCeilingMs, 1))) {
        // Still starting when the ceiling came (a busy machine): that says nothing about
        // whether it can start, only that there was no time to judge the code.
        if (helper.state() == QProcess::Starting) {
            helper.kill();
            helper.waitForFinished(-1);
            return unfinished(options, -1);
        }
        return notInspected(QT_TRANSLATE_NOOP("functions::Inspection",
                                              "the inspection helper %1 could not start: %2"),
                            {program, helper.errorString()});
    }
    clockid_t childCpu{};
    const bool cpuReadable = ::clock_getcpuclockid(pid_t(helper.processId()), &childCpu) == 0;
    helper.write(encodeRequest(code, options));
    helper.closeWriteChannel();
    const int cpuLimitMs = std::max(options.cpuLimitMs, options.timeBudgetMs + 500);
    enum class End { Finished, OverCpu, OverWall } end = End::Finished;
    while (helper.state() != QProcess::NotRunning) {
        if (cpuReadable && cpuMs(childCpu) > cpuLimitMs) {
            end = End::OverCpu;
            break;
        }
        const qint64 left = options.wallClockCeilingMs - wall.elapsed();
        if (left <= 0) {
            end = End::OverWall;
            break;
        }
        // Short slices: the CPU limit is checked between them.
        helper.waitForFinished(int(std::min<qint64>(left, 50)));
    }
    const qint64 usedMs = cpuReadable ? cpuMs(childCpu) : -1;
    if (end != End::Finished) {
        helper.kill();
        helper.waitForFinished(-1);
    }
    if (end == End::OverCpu)
        return failed(Kind::TimeBudget,
                      QT_TRANSLATE_NOOP("functions::Inspection",
                                        "the top level used more than %1 ms of CPU time and was "
                                        "stopped: a single long C call (such as a backtracking "
                                        "string.find or a huge string.rep) cannot be "
                                        "interrupted, and Redis would be blocked as long by "
                                        "FUNCTION LOAD"),
                      {QString::number(cpuLimitMs)});
    if (end == End::OverWall)
        return unfinished(options, usedMs);
    const auto run = decode(helper.readAllStandardOutput());
    if (helper.exitStatus() != QProcess::NormalExit || helper.exitCode() != 0 || !run) {
        const QString said = QString::fromUtf8(helper.readAllStandardError().left(300)).trimmed();
        return stoppedAbnormally(said);
    }
    return *run;
}

QByteArray cacheKey(const QByteArray &code, const InspectOptions &o)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(code);
    // Every option the run depends on: the same code is accepted on Valkey and refused on
    // Redis when it uses `server`.
    h.addData(QStringLiteral("|%1|%2|%3|%4|%5|%6|%7")
                  .arg(o.redisVersion)
                  .arg(o.valkey)
                  .arg(o.instructionBudget)
                  .arg(o.timeBudgetMs)
                  .arg(o.memoryBudget)
                  .arg(o.cpuLimitMs)
                  .arg(o.isolate)
                  .toUtf8());
    return h.result();
}

} // namespace

core::Sentence RunProblem::message() const
{
    if (source.isEmpty())
        return core::Sentence::plain(args.value(0));
    const core::Sentence said =
        core::Sentence::translated("functions::Inspection", source.constData());
    // All at once, as one QString::arg call: an argument holding "%2" stays as it is.
    switch (args.size()) {
    case 0:
        return said;
    case 1:
        return said.arg(args.at(0));
    case 2:
        return said.arg(args.at(0), args.at(1));
    default:
        return said.arg(args.at(0), args.at(1), args.at(2));
    }
}

LoadRun runLoadIsolated(const QByteArray &code, const InspectOptions &options)
{
    static QMutex mutex;
    static QHash<QByteArray, LoadRun> cache;
    const QByteArray key = cacheKey(code, options);
    {
        QMutexLocker lock(&mutex);
        if (const auto it = cache.constFind(key); it != cache.constEnd())
            return *it;
    }
    // Not under the lock: two threads may inspect at once, each in its own child.
    const LoadRun run = options.isolate ? runInHelper(code, options) : runHere(code, options);
    if (run.problem && run.problem->kind == Kind::NotInspected)
        return run; // not a verdict on the code: the next attempt may succeed
    QMutexLocker lock(&mutex);
    if (cache.size() >= 256)
        cache.clear(); // a bound, not an LRU: a session sees a handful of libraries
    cache.insert(key, run);
    return run;
}

QString loadRunHelperPath()
{
    const QString given = qEnvironmentVariable("INVENTORY_LOAD_RUN");
    if (!given.isEmpty())
        return given;
    const QString dir = QCoreApplication::applicationDirPath();
    for (const QString &candidate :
         {QStringLiteral("%1/%2").arg(dir, QLatin1String(LoadRunHelperName)),
          QStringLiteral("%1/%2/%3")
              .arg(dir, QLatin1String(INVENTORY_LIBEXEC_FROM_BIN),
                   QLatin1String(LoadRunHelperName))})
        if (const QFileInfo file(candidate); file.isFile() && file.isExecutable())
            return file.canonicalFilePath();
    return {};
}

int loadRunHelperMain()
{
    // Never outlive the console that asked (it may quit or crash meanwhile).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() == 1)
        return 1;
    // A bounded read: the console sends at most its library size limit plus the options.
    QByteArray request;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0 || request.size() > 64 * 1024 * 1024)
            break;
        request.append(buffer, n);
    }
    const auto decoded = decodeRequest(request);
    if (!decoded) {
        std::fputs("the request could not be read\n", stderr);
        return 3;
    }
    const QByteArray reply = encode(runHere(decoded->first, decoded->second));
    if (std::fwrite(reply.constData(), 1, size_t(reply.size()), stdout) != size_t(reply.size())
        || std::fflush(stdout) != 0)
        return 4;
    return 0;
}

} // namespace functions::detail
