#pragma once

// inventory-cli run as a child process, for the tests of the command line.
#include <QCoreApplication>
#include <QProcess>
#include <QStringList>

namespace testsupport {

struct CliRun
{
    int exitCode = -1; // -1: it crashed, or was killed after 30 s
    QByteArray out, err;
};

// The binary ctest names in INVENTORY_CLI, else the one of this build tree.
inline QString cliPath()
{
    const QString fromEnv = qEnvironmentVariable("INVENTORY_CLI");
    return !fromEnv.isEmpty()
               ? fromEnv
               : QCoreApplication::applicationDirPath() + QStringLiteral("/../app/inventory-cli");
}

inline CliRun runProcess(const QString &program, const QStringList &args)
{
    QProcess p;
    p.start(program, args);
    p.closeWriteChannel();
    CliRun r;
    if (!p.waitForFinished(30000)) {
        p.kill();
        p.waitForFinished();
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

inline CliRun runCli(const QStringList &args)
{
    return runProcess(cliPath(), args);
}

// Through sh, so that arguments can carry bytes a QString cannot ("$(printf '\376')"); the
// script names the CLI "$0".
inline CliRun runCliScript(const QString &script)
{
    return runProcess(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script, cliPath()});
}

} // namespace testsupport
