#include "IsolatedLoad.h"

#include "LuaSandbox.h"

#include <QCryptographicHash>
#include <QDataStream>
#include <QElapsedTimer>
#include <QHash>
#include <QIODevice>
#include <QMutex>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
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
        s << int(run.problem->kind) << run.problem->message << run.problem->line;
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
        InspectionProblem p;
        s >> kind >> p.message >> p.line;
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

LoadRun failed(Kind kind, const QString &message)
{
    return LoadRun{InspectionProblem{kind, message, 0}, {}, {}};
}

void writeAll(int fd, const QByteArray &bytes)
{
    for (qsizetype done = 0; done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.constData() + done, size_t(bytes.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        done += n;
    }
}

LoadRun runInChild(const QByteArray &code, const InspectOptions &options)
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        return failed(Kind::RuntimeError, QStringLiteral("the inspection could not start: %1")
                                              .arg(QString::fromLocal8Bit(std::strerror(errno))));
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int error = errno;
        ::close(fds[0]);
        ::close(fds[1]);
        return failed(Kind::RuntimeError, QStringLiteral("the inspection could not start: %1")
                                              .arg(QString::fromLocal8Bit(std::strerror(error))));
    }
    if (pid == 0) {
        // The child: only this thread exists here; compute, write, and leave without running
        // any of the parent's exit handlers or destructors.
        ::close(fds[0]);
        // Never outlive the thread that waits for us (the console may quit meanwhile).
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent)
            ::_exit(1);
        writeAll(fds[1], encode(runHere(code, options)));
        ::_exit(0);
    }
    ::close(fds[1]);
    const int limitMs = std::max(options.wallClockLimitMs, options.timeBudgetMs + 500);
    QElapsedTimer clock;
    clock.start();
    QByteArray received;
    bool finished = false;
    for (;;) {
        const qint64 left = limitMs - clock.elapsed();
        if (left <= 0)
            break;
        pollfd p{fds[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, int(left));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            break;
        char buffer[65536];
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            finished = n == 0;
            break;
        }
        received.append(buffer, n);
    }
    ::close(fds[0]);
    if (!finished)
        ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!finished)
        return failed(Kind::TimeBudget,
                      QStringLiteral("the top level did not finish within %1 ms and was stopped: "
                                     "a single long C call (such as a backtracking string.find "
                                     "or a huge string.rep) cannot be interrupted, and Redis "
                                     "would be blocked as long by FUNCTION LOAD")
                          .arg(limitMs));
    const auto run = decode(received);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !run)
        return failed(Kind::RuntimeError,
                      WIFSIGNALED(status)
                          ? QStringLiteral("the inspection stopped abnormally (signal %1)")
                                .arg(WTERMSIG(status))
                          : QStringLiteral("the inspection stopped abnormally"));
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
                  .arg(o.wallClockLimitMs)
                  .arg(o.isolate)
                  .toUtf8());
    return h.result();
}

} // namespace

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
    const LoadRun run = options.isolate ? runInChild(code, options) : runHere(code, options);
    QMutexLocker lock(&mutex);
    if (cache.size() >= 256)
        cache.clear(); // a bound, not an LRU: a session sees a handful of libraries
    cache.insert(key, run);
    return run;
}

} // namespace functions::detail
