// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

// The one way tests run inventory-cli: the binary CMake built (INVENTORY_CLI, set by
// inventory_add_test), one timeout, and a process that does not finish in time is killed.
namespace testsupport {

// The inventory-cli that CMake built, from INVENTORY_CLI; empty when the test does not run
// under ctest.
QString cliPath();
// Empty when cliPath() names an executable file, else why not. A missing binary is a failure
// of the test, never a skip: `QVERIFY2(cliProblem().isEmpty(), qPrintable(cliProblem()))`.
QString cliProblem();

struct CliOptions
{
    QByteArray input; // written to stdin, which is then closed
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    int timeoutMs = 60000;
};

struct CliRun
{
    // The exit code, or -1 when the process did not start, crashed or was killed on timeout.
    int exitCode = -1;
    QByteArray out, err;
    // Empty when the process ran to its own end; otherwise what went wrong (not started,
    // crashed, timed out). It is also appended to err, so that a failing check shows it.
    QString failure;
};

CliRun runCli(const QStringList &args, const CliOptions &options = {});
// Through sh, so that arguments can carry bytes a QString cannot ("$(printf '\376')"); the
// script names the CLI "$0".
CliRun runCliScript(const QString &script, const CliOptions &options = {});

} // namespace testsupport
