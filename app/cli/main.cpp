// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli: the headless front end. Subcommands register themselves (see Subcommand.h).
#include "Subcommand.h"
#include "TerminalSafeDevice.h"
#include "core/BuildInfo.h"
#include "core/EventDispatcher.h"

#include <QCoreApplication>
#include <QFile>
#include <QLoggingCategory>

int main(int argc, char *argv[])
{
    core::preferFastEventDispatcher();
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("inventory-cli"));
    QCoreApplication::setOrganizationName(QStringLiteral("InventoryConsole"));
    QCoreApplication::setApplicationVersion(core::versionText());
    // stderr carries one clear line per failure; the console's own logging stays quiet
    // unless asked for (QT_LOGGING_RULES="console.*=true" overrides this).
    QLoggingCategory::setFilterRules(QStringLiteral("console.*=false"));
    QFile in, out, err;
    in.open(stdin, QIODevice::ReadOnly);
    out.open(stdout, QIODevice::WriteOnly);
    err.open(stderr, QIODevice::WriteOnly);
    cli::TerminalSafeDevice safeOut(out), safeErr(err);
    QTextStream outStream(&safeOut), errStream(&safeErr);
    const int code = cli::dispatch(argc, argv, outStream, errStream, in);
    outStream.flush();
    errStream.flush();
    safeOut.finish();
    safeErr.finish();
    return code;
}
