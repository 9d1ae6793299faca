// SPDX-License-Identifier: GPL-3.0-or-later
// The way back the wizard's backup page shows: a command that works as given. A saved profile
// is named; an unsaved one (the demo's, a --url session) becomes --url with the user and never
// a password, with the flags that make inventory-cli ask for passwords on standard input.
#include "functions/FunctionBackup.h"
#include "profiles/CliConnection.h"
#include "ui/functions/BackupPage.h"

#include <QTest>

using profiles::CliConnectionSource;

class TstRollbackCommand : public QObject
{
    Q_OBJECT

    static CliConnectionSource demoLike()
    {
        CliConnectionSource s;
        s.profile.name = QStringLiteral("demo");
        s.profile.host = QStringLiteral("127.0.0.1");
        s.profile.port = 6380;
        s.profile.username = QStringLiteral("support");
        s.profile.releaseUsername = QStringLiteral("release");
        s.profile.environment = QStringLiteral("local");
        s.hasPassword = true;
        s.hasReleasePassword = true;
        return s;
    }

private slots:
    void anUnsavedProfileIsReachedByUrl()
    {
        const QStringList args = profiles::cliConnectionArgs(demoLike());
        QCOMPARE(args, (QStringList{"--url", "redis://support@127.0.0.1:6380", "--environment",
                                    "local", "--release-user", "release", "--password-stdin",
                                    "--release-password-stdin"}));
        QVERIFY(!args.contains("--profile"));
    }

    void aSavedProfileIsNamed()
    {
        CliConnectionSource s = demoLike();
        s.saved = true;
        QCOMPARE(profiles::cliConnectionArgs(s), (QStringList{"--profile", "demo"}));
    }

    void theBackupPageShowsTheWorkingCommand()
    {
        functions::ChangeContext context;
        context.profile = QStringLiteral("demo");
        context.cliConnection = profiles::cliConnectionArgs(demoLike());
        functions::FunctionBackup backup;
        backup.path = QStringLiteral("/tmp/backups/inventory_lib_v1 1.json");
        backup.library = QStringLiteral("inventory_lib_v1");
        const QString command = ui::BackupPage::rollbackCommand(context, backup);
        QCOMPARE(command, QStringLiteral(
                              "inventory-cli functions rollback --url "
                              "redis://support@127.0.0.1:6380 --environment local "
                              "--release-user release --password-stdin "
                              "--release-password-stdin --backup "
                              "'/tmp/backups/inventory_lib_v1 1.json' --confirm inventory_lib_v1"));
        QVERIFY(!command.contains("--profile demo"));
        QVERIFY(!command.contains("-pw"));
    }
};

QTEST_MAIN(TstRollbackCommand)
#include "tst_rollback_command.moc"
