// SPDX-License-Identifier: GPL-3.0-or-later
#include "CliRunner.h"

#include <QFileInfo>
#include <QProcess>

namespace testsupport {

QString cliPath()
{
    return qEnvironmentVariable("INVENTORY_CLI");
}

QString cliProblem()
{
    const QString path = cliPath();
    if (path.isEmpty())
        return QStringLiteral("INVENTORY_CLI is not set: run the test through ctest");
    if (!QFileInfo(path).isExecutable())
        return QStringLiteral("no inventory-cli at %1: build it").arg(path);
    return {};
}

namespace {

// `what` names the run in failures ("inventory-cli keys ...").
CliRun run(const QString &program, const QStringList &args, const QString &what,
           const CliOptions &options)
{
    CliRun r;
    if (const QString problem = cliProblem(); !problem.isEmpty()) {
        r.failure = problem;
        r.err = problem.toUtf8();
        return r;
    }
    QProcess p;
    p.setProcessEnvironment(options.environment);
    p.start(program, args);
    if (!p.waitForStarted(options.timeoutMs)) {
        r.failure = QStringLiteral("%1 did not start: %2").arg(what, p.errorString());
        r.err = r.failure.toUtf8();
        return r;
    }
    p.write(options.input);
    p.closeWriteChannel();
    if (!p.waitForFinished(options.timeoutMs)) {
        p.kill();
        p.waitForFinished(-1);
        r.failure = QStringLiteral("%1 did not finish within %2 ms: killed")
                        .arg(what)
                        .arg(options.timeoutMs);
    } else if (p.exitStatus() != QProcess::NormalExit) {
        r.failure = QStringLiteral("%1 crashed").arg(what);
    } else {
        r.exitCode = p.exitCode();
    }
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    if (!r.failure.isEmpty())
        r.err += "\n[runCli] " + r.failure.toUtf8() + '\n';
    return r;
}

} // namespace

CliRun runCli(const QStringList &args, const CliOptions &options)
{
    return run(cliPath(), args, QStringLiteral("inventory-cli %1").arg(args.join(QLatin1Char(' '))),
               options);
}

CliRun runCliScript(const QString &script, const CliOptions &options)
{
    return run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script, cliPath()},
               QStringLiteral("sh -c '%1'").arg(script), options);
}

} // namespace testsupport
