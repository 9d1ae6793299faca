// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 12, safety bug 2: a library change runs every step (state, preflight, backup, load,
// verification, rollback) as the profile's release user. The session user `support` may
// FCALL and nothing else, so any step sent as it would fail with NOPERM; ACL LOG proves that
// none was. Also safety bug 3: a breaking rollback is a preflight warning, never "passed".
#include "AclUsers.h"
#include "RedisFixture.h"
#include "functions/ChangeUser.h"
#include "functions/LibraryChange.h"
#include "functions/LocalCatalog.h"
#include "gate/WriteGate.h"

#include <QTemporaryDir>
#include <QTest>

using namespace functions;
using testsupport::render;

class TstFunctionsReleaseUser : public QObject
{
    Q_OBJECT

    testsupport::StandaloneRedis m_redis;
    std::unique_ptr<redis::RedisClient> m_admin;
    std::unique_ptr<redis::RedisClient> m_support;
    std::unique_ptr<redis::RedisClient> m_release;
    std::unique_ptr<gate::WriteGate> m_gate;
    QTemporaryDir m_dir;

    std::unique_ptr<redis::RedisClient> connectAs(const QString &user)
    {
        return m_redis.connect(testsupport::optionsAs(m_redis.options(), user));
    }
    ChangeContext context(redis::CommandSender *loader, const QString &loadUser)
    {
        ChangeContext c;
        c.nodes << ChangeTarget{m_support->address(), m_support.get(), loader};
        c.loadUser = loadUser;
        c.gate = m_gate.get();
        c.profile = QStringLiteral("staging-walk");
        c.backupDirectory = m_dir.filePath("backups");
        c.auditPath = m_dir.filePath("audit.jsonl");
        return c;
    }
    QByteArray serverCode(const QString &library)
    {
        const auto list =
            redis::decodeFunctionList(m_admin->call({"FUNCTION", "LIST", "WITHCODE"}).value());
        for (const redis::LibraryInfo &l : list.value())
            if (l.name == library)
                return l.code;
        return {};
    }
    // Every ACL LOG entry (a denied command) as "user: reason object".
    QStringList aclDenials()
    {
        QStringList out;
        const auto log = m_admin->call({"ACL", "LOG"});
        for (const redis::Reply &entry : log->elements()) {
            QHash<QByteArray, QByteArray> fields;
            const auto &kv = entry.elements();
            for (qsizetype i = 0; i + 1 < kv.size(); i += 2)
                fields.insert(kv[i].bytes(), kv[i + 1].bytes());
            out << QString::fromUtf8(fields.value("username") + ": " + fields.value("reason") + " "
                                     + fields.value("object"));
        }
        return out;
    }
    // The steps before execute(), each of which must pass.
    void prepare(LibraryChange &change, bool acknowledge, PreflightReport *preflight = nullptr)
    {
        change.fetchStateBlocking();
        QCOMPARE(change.states().first().error.english, QString());
        const PreflightReport pre = change.preflightBlocking();
        QVERIFY2(pre.passed(), qPrintable(pre.refusal()));
        if (preflight)
            *preflight = pre;
        const auto backup = change.backupBlocking();
        QVERIFY2(backup.ok(), backup.ok() ? "" : qPrintable(backup.error()));
        QCOMPARE(change.confirm(change.spec().library, acknowledge), QString());
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_admin = m_redis.connect();
        QVERIFY(testsupport::createSupportAndReleaseUsers(*m_admin));
        m_support = connectAs("support");
        m_release = connectAs("release");
        QCOMPARE(m_support->state(), redis::ConnectionState::Ready);
        QCOMPARE(m_release->state(), redis::ConnectionState::Ready);
        profiles::ConnectionProfile p;
        p.name = QStringLiteral("staging-walk");
        p.environment = QStringLiteral("staging");
        m_gate = std::make_unique<gate::WriteGate>(*m_support, p);
    }

    void init()
    {
        QVERIFY(m_admin->call({"FUNCTION", "FLUSH", "SYNC"}).ok());
        QVERIFY(m_admin->call({"FUNCTION", "LOAD", testsupport::previousReleaseSource()}).ok());
        QVERIFY(m_admin->call({"ACL", "LOG", "RESET"}).ok());
    }

    // Load, then roll back from the load's backup: both run entirely as `release`.
    void everyStepRunsAsTheReleaseUser()
    {
        const ChangeContext ctx = context(m_release.get(), QStringLiteral("release"));
        QVERIFY(runsAsReleaseUser(ctx));
        QCOMPARE(stepUserText(ctx),
                 QStringLiteral("ACL user 'release' (the profile's release user)"));

        LibraryChange load(ctx, LibraryChange::loadSpec(*inspectFile(
                                    QStringLiteral(":/functions/inventory_lib_v1.lua"))));
        PreflightReport pre;
        prepare(load, false, &pre);
        QVERIFY2(pre.warnings().isEmpty(), qPrintable(pre.warnings().join('\n')));
        const QString permission = QStringLiteral("user 'release' may run FUNCTION LOAD REPLACE");
        QVERIFY(std::any_of(pre.checks.begin(), pre.checks.end(), [&](const PreflightCheck &c) {
            return c.detail.english == permission;
        }));
        QVERIFY(std::any_of(pre.checks.begin(), pre.checks.end(), [](const PreflightCheck &c) {
            return c.detail.english == QLatin1String("user 'release' may run FUNCTION DUMP");
        }));
        const ExecutionReport loaded = load.executeBlocking();
        QVERIFY2(loaded.succeeded(),
                 qPrintable(loaded.refusal.english + loaded.nodes.value(0).message.english));
        QCOMPARE(serverCode("inventory_lib_v1"),
                 testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua")));

        const auto backup = FunctionBackup::read(load.backupPath());
        QVERIFY(backup.ok());
        LibraryChange rollback(ctx, LibraryChange::rollbackSpec(*backup));
        prepare(rollback, true);
        const ExecutionReport rolledBack = rollback.executeBlocking();
        QVERIFY2(rolledBack.succeeded(), qPrintable(rolledBack.refusal.english
                                                    + rolledBack.nodes.value(0).message.english));
        QCOMPARE(serverCode("inventory_lib_v1"), testsupport::previousReleaseSource());

        // Nothing was denied to anyone: no step went out as `support`.
        QCOMPARE(aclDenials(), QStringList());
    }

    // The same change without a release user runs as `support`, and the server says no:
    // the proof that the test above would have failed had any step used the session user.
    void sessionUserAloneIsRefused()
    {
        const ChangeContext ctx = context(nullptr, QStringLiteral("support"));
        LibraryChange load(ctx, LibraryChange::loadSpec(*inspectFile(
                                    QStringLiteral(":/functions/inventory_lib_v1.lua"))));
        load.fetchStateBlocking();
        QVERIFY2(load.states().first().error.english.contains(QLatin1String("NOPERM")),
                 qPrintable(load.states().first().error.english));
        QVERIFY2(aclDenials().contains(QStringLiteral("support: command function|list")),
                 qPrintable(aclDenials().join(QLatin1Char('\n'))));
        QCOMPARE(serverCode("inventory_lib_v1"), testsupport::previousReleaseSource());
    }

    // A user that may read and load but not dump: the preflight says so before the backup,
    // and a failed backup says who lacked what and how to fix it.
    void missingDumpPermissionIsNamed()
    {
        QVERIFY(
            m_admin
                ->call({"ACL", "SETUSER", "loader", "reset", "on", ">loader-pw", "~*", "+function",
                        "-function|dump", "+info", "+acl|dryrun", "+client|setname", "+echo"})
                .ok());
        const auto loader = connectAs("loader");
        const ChangeContext ctx = context(loader.get(), QStringLiteral("loader"));
        LibraryChange load(ctx, LibraryChange::loadSpec(*inspectFile(
                                    QStringLiteral(":/functions/inventory_lib_v1.lua"))));
        load.fetchStateBlocking();
        const PreflightReport pre = load.preflightBlocking();
        QVERIFY(!pre.passed());
        QVERIFY2(pre.refusal().startsWith(
                     QStringLiteral("Backup on %1: user 'loader' may not run FUNCTION DUMP")
                         .arg(loader->address())),
                 qPrintable(pre.refusal()));
        QCOMPARE(withPermissionHint(ctx, QStringLiteral("FUNCTION DUMP on x failed: NOPERM no")),
                 QStringLiteral("FUNCTION DUMP on x failed: NOPERM no (user 'loader' lacks this "
                                "permission: grant it to the release user)"));
        const ChangeContext alone = context(nullptr, QStringLiteral("support"));
        QVERIFY(withPermissionHint(alone, QStringLiteral("NOPERM"))
                    .contains(QLatin1String("set a release user in the connection profile")));
        QVERIFY(m_admin->call({"ACL", "DELUSER", "loader"}).ok());
    }

    // Safety bug 3: the rollback of 1.1.0 to 1.0.0 removes two functions. The preflight may
    // pass (the confirmation asks for an acknowledgement) but its contract row is a warning.
    void breakingRollbackIsAWarning()
    {
        const ChangeContext ctx = context(m_release.get(), QStringLiteral("release"));
        LibraryChange load(ctx, LibraryChange::loadSpec(*inspectFile(
                                    QStringLiteral(":/functions/inventory_lib_v1.lua"))));
        prepare(load, false);
        QVERIFY(load.executeBlocking().succeeded());
        LibraryChange rollback(
            ctx, LibraryChange::rollbackSpec(*FunctionBackup::read(load.backupPath())));
        rollback.fetchStateBlocking();
        QCOMPARE(rollback.verdict(), Verdict::Breaking);
        const PreflightReport pre = rollback.preflightBlocking();
        QVERIFY(pre.passed());
        const PreflightCheck contract = pre.checks.first();
        QCOMPARE(contract.label.english, QStringLiteral("Contract"));
        QCOMPARE(contract.state, PreflightCheck::State::Warning);
        QVERIFY2(contract.detail.english.startsWith(QLatin1String("breaking (inventory_lib_v1): ")),
                 qPrintable(contract.detail.english));
        QCOMPARE(pre.warnings().size(), 1);
        QVERIFY(pre.warnings().first().startsWith(QLatin1String("Contract: breaking")));
    }
};

QTEST_GUILESS_MAIN(TstFunctionsReleaseUser)
#include "tst_functions_release_user.moc"
