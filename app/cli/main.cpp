// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli: the headless front end. Subcommands register themselves (see Subcommand.h).
#include "Subcommand.h"
#include "TerminalSafeDevice.h"
#include "core/BuildInfo.h"
#include "core/EventDispatcher.h"

#include <QCoreApplication>
#include <QFile>
#include <QLoggingCategory>
#include <cstring>

namespace {
// Whether this run may read a saved profile's passwords from the keyring. The keyring
// (libsecret, through QtKeychain) answers through GLib's main loop, so such a run keeps GLib's
// event dispatcher: with the plain one its reads never finish (tests/integration/
// tst_ledger_profile found it). Every other run takes the plain one, which is faster.
bool mayReadKeyring(int argc, char *argv[])
{
    if (qEnvironmentVariable("INVENTORY_SECRETS") == QLatin1String("session"))
        return false;
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--profile") == 0 || std::strncmp(argv[i], "--profile=", 10) == 0)
            return true;
    return false;
}
} // namespace

int main(int argc, char *argv[])
{
    if (!mayReadKeyring(argc, argv))
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
