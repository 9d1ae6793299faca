// SPDX-License-Identifier: GPL-3.0-or-later
// The guarded change sequence (functions/LibraryChange.h) against a real redis-server: load
// then verify, each guard refusing, steps that cannot be skipped, a load the server refuses
// leaving the old library in place, rollback to the byte-identical prior state (and deleting
// a library that did not exist), FUNCTION RESTORE with each policy, delete, the audit trail.
#include "AuditTrail.h"
#include "ChangeFixture.h"
#include "RedisFixture.h"
#include "ServerTest.h"
#include "functions/LibraryChange.h"
#include "functions/LibraryVersion.h"
#include "functions/LocalCatalog.h"
#include "gate/WriteGate.h"
#include "inventory/AuditLog.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace functions;
using testsupport::render;

namespace {
const QByteArray Other = "#!lua name=other_lib\n-- version: 2.0.0\n"
                         "redis.register_function('other_ping_v1', function() return 1 end)\n";
} // namespace

class TstFunctionsLoad : public testsupport::ChangeTest
{
    Q_OBJECT

    profiles::ConnectionProfile profile(const QString &environment)
    {
        profiles::ConnectionProfile p;
        p.name = QStringLiteral("release test");
        p.environment = environment;
        return p;
    }
    ChangeContext context(redis::CommandSender *loader = nullptr,
                          const QString &loadUser = QStringLiteral("default"))
    {
        ChangeContext c =
            testsupport::singleNodeContext(*m_c, m_gate.get(), m_dir, "release test", loader);
        c.loadUser = loadUser;
        return c;
    }
    QList<redis::LibraryInfo> serverLibraries()
    {
        auto list = redis::decodeFunctionList(m_c->call({"FUNCTION", "LIST", "WITHCODE"}).value());
        return list.ok() ? list.value() : QList<redis::LibraryInfo>{};
    }
    QByteArray serverCode(const QString &library)
    {
        for (const redis::LibraryInfo &l : serverLibraries())
            if (l.name == library)
                return l.code;
        return {};
    }
    // Runs every step up to the confirmation; returns the change for execute().
    std::unique_ptr<LibraryChange> prepared(ChangeSpec spec, bool acknowledge = false,
                                            ChangeContext ctx = {})
    {
        return testsupport::preparedChange(ctx.nodes.isEmpty() ? context() : ctx, spec,
                                           acknowledge);
    }
    // One record per write: each attempt paired with its outcome.
    QList<inventory::AuditRecord> audit()
    {
        const auto trail = testsupport::readAuditTrail(m_dir.filePath("audit.jsonl"));
        if (!trail.problem.isEmpty())
            qWarning() << trail.problem;
        return trail.writes;
    }

private slots:
    void initTestCase() { QCOMPARE(startServer(), QString()); }

    void init()
    {
        QVERIFY(m_c->call({"FUNCTION", "FLUSH", "SYNC"}).ok());
        QCOMPARE(render(m_c->call({"FUNCTION", "LOAD", testsupport::previousReleaseSource()})),
                 QStringLiteral("\"inventory_lib_v1\""));
        QCOMPARE(render(m_c->call({"FUNCTION", "LOAD", Other})), QStringLiteral("\"other_lib\""));
        m_gate = std::make_unique<gate::WriteGate>(*m_c, profile("local"));
        QFile::remove(m_dir.filePath("audit.jsonl"));
    }

    // Status with nil descriptions and several flags, sorted, and the local-file match.
    void statusShowsEverything()
    {
        const QByteArray flagged =
            "#!lua name=flagged\n"
            "redis.register_function{function_name='zeta', callback=function() end, "
            "flags={'no-cluster', 'allow-stale', 'no-writes', 'allow-oom', "
            "'allow-cross-slot-keys'}}\n"
            "redis.register_function{function_name='alpha', callback=function() end, "
            "description='has one'}\n";
        QVERIFY(m_c->call({"FUNCTION", "LOAD", flagged}).ok());
        LocalCatalog catalog;
        catalog.scan();
        const QList<LibraryStatus> status = libraryStatuses(serverLibraries(), catalog);
        QCOMPARE(status.size(), 3);
        QCOMPARE(status[0].library.name, QStringLiteral("flagged"));
        QCOMPARE(status[0].version, QString());
        QCOMPARE(status[0].match.kind, LibraryMatch::Kind::Unknown);
        QCOMPARE(status[0].library.functions[0].name, QStringLiteral("alpha"));
        QCOMPARE(status[0].library.functions[0].description, std::optional<QString>("has one"));
        QVERIFY(status[0].library.functions[0].flags.isEmpty());
        QCOMPARE(status[0].library.functions[1].description, std::nullopt);
        QCOMPARE(status[0].library.functions[1].flags,
                 (QStringList{"allow-cross-slot-keys", "allow-oom", "allow-stale", "no-cluster",
                              "no-writes"}));
        const QJsonObject json = status[0].toJson();
        QVERIFY(json.value("version").isNull());
        QVERIFY(json.value("functions").toArray().at(1).toObject().value("description").isNull());
        QCOMPARE(status[1].library.name, QStringLiteral("inventory_lib_v1"));
        QCOMPARE(status[1].version, QStringLiteral("1.0.0"));
        QCOMPARE(status[1].fingerprint, codeFingerprint(testsupport::previousReleaseSource()));
        QCOMPARE(status[1].match.text(),
                 QStringLiteral("differs from shipped functions/inventory_lib_v1.lua (1.3.0)"));
    }

    // The upgrade of the demo: 1.0.0 loaded, 1.3.0 shipped; every step, then the server holds
    // the file byte for byte, the backup holds 1.0.0, the audit log says so.
    void loadThenVerify()
    {
        auto file = inspectFile(":/functions/inventory_lib_v1.lua");
        QVERIFY(file.ok() && file->ok());
        LibraryChange change(context(), LibraryChange::loadSpec(*file));
        change.fetchStateBlocking();
        QCOMPARE(change.stage(), LibraryChange::Stage::StateRead);
        QCOMPARE(change.verdict(), Verdict::Compatible);
        QVERIFY(change.refusals().isEmpty());
        const QList<ContractDiff> diffs = change.contractDiffs();
        QCOMPARE(diffs.size(), 1);
        QCOMPARE(diffs[0].summary(),
                 QStringLiteral("inventory_lib_v1 1.0.0 → 1.3.0: compatible (4 added, 1 changed)"));
        const CodeDiff code = change.codeDiff();
        QVERIFY(code.added > 50 && code.removed == 1);
        QVERIFY(code.unified.contains("--- loaded on " + m_c->address() + " (1.0.0)"));
        QVERIFY(code.unified.contains("-- version: 1.3.0"));

        const PreflightReport pre = change.preflightBlocking();
        QVERIFY2(pre.passed(), qPrintable(pre.refusal()));
        QCOMPARE(pre.checks.at(2).detail.english,
                 QStringLiteral("user 'default' may run FUNCTION LOAD REPLACE"));
        QCOMPARE(pre.checks.at(3).detail.english,
                 QStringLiteral("user 'default' may run FUNCTION DUMP"));
        const auto backup = change.backupBlocking();
        QVERIFY2(backup.ok(), backup.ok() ? "" : qPrintable(backup.error()));
        QVERIFY(QFile::exists(change.backupPath()));
        const auto saved = FunctionBackup::read(change.backupPath());
        QVERIFY(saved.ok());
        QCOMPARE(saved->nodes.first().library("inventory_lib_v1")->code,
                 testsupport::previousReleaseSource());
        QVERIFY(!saved->nodes.first().dump.isEmpty());

        QCOMPARE(change.confirm("inventory_lib", false),
                 QStringLiteral("type the library name exactly (inventory_lib_v1) to confirm"));
        QCOMPARE(change.confirm("INVENTORY_LIB_V1", false),
                 QStringLiteral("type the library name exactly (inventory_lib_v1) to confirm"));
        QCOMPARE(change.confirm("inventory_lib_v1", false), QString());
        const ExecutionReport done = change.executeBlocking();
        QVERIFY2(done.succeeded(),
                 qPrintable(done.refusal.english + done.nodes.value(0).message.english));
        QVERIFY(done.nodes.first().message.english.startsWith("done and verified"));
        QCOMPARE(serverCode("inventory_lib_v1"), file->code);
        QCOMPARE(serverCode("other_lib"), Other);

        // Written ahead: the attempt (before FUNCTION LOAD was sent), then its outcome.
        const auto trail = testsupport::readAuditTrail(m_dir.filePath("audit.jsonl"));
        QVERIFY2(trail.problem.isEmpty(), qPrintable(trail.problem));
        QCOMPARE(trail.raw.size(), 2);
        QCOMPARE(trail.raw[0].phase, inventory::AuditRecord::Phase::Attempt);
        QCOMPARE(trail.raw[0].command.value(3), file->code);
        QCOMPARE(trail.raw[0].detail, trail.raw[1].detail);
        QCOMPARE(trail.raw[1].phase, inventory::AuditRecord::Phase::Outcome);
        QCOMPARE(trail.raw[1].attemptId, trail.raw[0].attemptId);
        const QList<inventory::AuditRecord> records = audit();
        QCOMPARE(records.size(), 1);
        QCOMPARE(records[0].action, QStringLiteral("function-load"));
        QCOMPARE(records[0].result, QStringLiteral("ok, verified"));
        QCOMPARE(records[0].command.mid(0, 3), (QList<QByteArray>{"FUNCTION", "LOAD", "REPLACE"}));
        QCOMPARE(records[0].command.value(3), file->code);
        QVERIFY(records[0].detail.contains(change.backupPath()));
        QVERIFY2(records[0].detail.startsWith("library inventory_lib_v1: 1.0.0 (sha256 "),
                 qPrintable(records[0].detail));
        QCOMPARE(records[0].profile, QStringLiteral("release test"));
        // Once executed, a change is spent: a second execute sends nothing.
        QCOMPARE(change.executeBlocking().refusal.english,
                 QStringLiteral("this change was already made once; start a new one"));
    }

    void stepsCannotBeSkipped()
    {
        LibraryChange change(context(), LibraryChange::deleteSpec("other_lib"));
        QCOMPARE(change.preflightBlocking().refusal(),
                 QStringLiteral("Sequence: reading the state has not been done yet"));
        change.fetchStateBlocking();
        QCOMPARE(change.backupBlocking().error(),
                 QStringLiteral("the preflight has not been done yet"));
        QCOMPARE(change.confirm("other_lib", true),
                 QStringLiteral("the backup has not been done yet"));
        QCOMPARE(change.executeBlocking().refusal.english,
                 QStringLiteral("the confirmation has not been done yet"));
        QVERIFY(change.preflightBlocking().passed());
        QCOMPARE(change.confirm("other_lib", true),
                 QStringLiteral("the backup has not been done yet"));
        QVERIFY(change.backupBlocking().ok());
        // Reading the state again resets everything after it.
        change.fetchStateBlocking();
        QCOMPARE(change.confirm("other_lib", true),
                 QStringLiteral("the backup has not been done yet"));
        QCOMPARE(serverCode("other_lib"), Other);
        QVERIFY(audit().isEmpty());
    }

    // Removing functions is breaking: the confirmation needs a second acknowledgement.
    void breakingNeedsAcknowledgement()
    {
        QByteArray smaller = Other;
        smaller.replace("other_ping_v1", "other_pong_v1");
        auto change = prepared(LibraryChange::loadSpec(inspectLibrary(smaller, "smaller.lua")));
        QCOMPARE(change->verdict(), Verdict::Breaking);
        QCOMPARE(change->breakingReasons(), QStringList{"other_ping_v1 is removed"});
        QCOMPARE(change->confirm("other_lib", false),
                 QStringLiteral("this change is breaking (other_ping_v1 is removed): acknowledge "
                                "it as well"));
        QCOMPARE(change->confirm("other_lib", true), QString());
        QVERIFY(change->executeBlocking().succeeded());
        QCOMPARE(serverCode("other_lib"), smaller);
    }

    // An ACL user that may call functions but not load them: the dry run refuses, and every
    // later step with it; nothing reaches the server. Every step runs as the loading user, the
    // dry run too, so it needs ACL DRYRUN to answer (without it the check is only a warning).
    void guardRefusesUserWhoMayNotLoad()
    {
        QCOMPARE(render(m_c->call({"ACL", "SETUSER", "caller", "reset", "on", ">caller-pw",
                                   "+fcall", "+fcall_ro", "+function|list", "+acl|dryrun",
                                   "+client|setname", "+echo", "~*"})),
                 QStringLiteral("+OK"));
        redis::ConnectionOptions o = m_redis.options();
        o.username = "caller";
        o.password = "caller-pw";
        const auto caller = m_redis.connect(o);
        QCOMPARE(caller->state(), redis::ConnectionState::Ready);
        auto file = inspectFile(":/functions/inventory_lib_v1.lua");
        LibraryChange change(context(caller.get(), "caller"), LibraryChange::loadSpec(*file));
        change.fetchStateBlocking();
        const PreflightReport pre = change.preflightBlocking();
        QVERIFY(!pre.passed());
        QVERIFY2(pre.refusal().startsWith(
                     QStringLiteral(
                         "Permission on %1: user 'caller' may not run FUNCTION LOAD REPLACE: ")
                         .arg(m_c->address())),
                 qPrintable(pre.refusal()));
        QVERIFY2(pre.refusal().contains("function|load"), qPrintable(pre.refusal()));
        QCOMPARE(change.backupBlocking().error(),
                 QStringLiteral("the preflight has not been done yet"));
        QCOMPARE(serverCode("inventory_lib_v1"), testsupport::previousReleaseSource());
        QVERIFY(m_c->call({"ACL", "DELUSER", "caller"}).ok());
    }

    // A production session starts read-only: the preflight refuses until the profile name is
    // typed; an unlocked production session passes with a warning.
    void guardRefusesLockedProduction()
    {
        m_gate = std::make_unique<gate::WriteGate>(*m_c, profile("production"));
        LibraryChange change(context(), LibraryChange::deleteSpec("other_lib"));
        change.fetchStateBlocking();
        PreflightReport pre = change.preflightBlocking();
        QVERIFY(!pre.passed());
        QCOMPARE(pre.refusal(),
                 QStringLiteral("Environment: read-only session on production profile 'release "
                                "test': unlock it (type the profile name) to allow writes"));
        QVERIFY(!m_gate->unlock("release"));
        QVERIFY(!change.preflightBlocking().passed());
        QVERIFY(m_gate->unlock("release test"));
        pre = change.preflightBlocking();
        QVERIFY2(pre.passed(), qPrintable(pre.refusal()));
        QCOMPARE(pre.checks.at(1).state, PreflightCheck::State::Warning);
        QCOMPARE(pre.checks.at(1).detail.english,
                 QStringLiteral("production, unlocked for this session"));
        QVERIFY(change.backupBlocking().ok());
        QCOMPARE(change.confirm("other_lib", true), QString());
        m_gate->lock(); // locked again before the last step: nothing is sent
        QCOMPARE(change.executeBlocking().refusal.english, m_gate->refusalMessage());
        QCOMPARE(serverCode("other_lib"), Other);
    }

    // A library whose functions another library already registers is refused before anything.
    void collisionIsRefused()
    {
        const QByteArray thief = "#!lua name=thief\nredis.register_function('INVENTORY_DEDUCT_V1', "
                                 "function() return 0 end)\n";
        LibraryChange change(context(), LibraryChange::loadSpec(inspectLibrary(thief)));
        change.fetchStateBlocking();
        QCOMPARE(change.verdict(), Verdict::Refused);
        QCOMPARE(change.refusals(),
                 QStringList{"Function INVENTORY_DEDUCT_V1 already exists in library "
                             "inventory_lib_v1 (as inventory_deduct_v1)"});
        QVERIFY(!change.preflightBlocking().passed());
        // The server agrees.
        QVERIFY(render(m_c->call({"FUNCTION", "LOAD", thief})).contains("already exists"));
    }

    // The server refuses the load after every guard passed (here: out of memory, which a dry
    // run does not see): the old library stays, verified, and the attempt is audited.
    void refusedLoadLeavesOldLibrary()
    {
        auto file = inspectFile(":/functions/inventory_lib_v1.lua");
        auto change = prepared(LibraryChange::loadSpec(*file));
        QCOMPARE(change->stage(), LibraryChange::Stage::Confirmed);
        QVERIFY(m_c->call({"CONFIG", "SET", "maxmemory-policy", "noeviction"}).ok());
        QVERIFY(m_c->call({"CONFIG", "SET", "maxmemory", "1"}).ok());
        const ExecutionReport done = change->executeBlocking();
        QVERIFY(m_c->call({"CONFIG", "SET", "maxmemory", "0"}).ok());
        QVERIFY(!done.succeeded());
        QCOMPARE(done.nodes.size(), 1);
        QVERIFY(done.nodes[0].attempted && !done.nodes[0].applied && !done.nodes[0].verified);
        QVERIFY2(done.nodes[0].message.english.contains("OOM"),
                 qPrintable(done.nodes[0].message.english));
        QVERIFY2(done.nodes[0].message.english.endsWith(
                     "the previous libraries are still in place (verified)"),
                 qPrintable(done.nodes[0].message.english));
        QCOMPARE(serverCode("inventory_lib_v1"), testsupport::previousReleaseSource());
        QCOMPARE(audit().size(), 1);
        QVERIFY(audit()[0].result.startsWith("error: OOM"));
    }

    // The attempt record cannot be written (a directory stands where the audit log should
    // be): nothing is sent, the refusal names the log and why, the server is unchanged.
    void unwritableAuditLogRefusesTheLoad()
    {
        ChangeContext ctx = context();
        ctx.auditPath = m_dir.filePath("load-audit-is-a-directory");
        QVERIFY(QDir().mkpath(ctx.auditPath));
        auto change = prepared(
            LibraryChange::loadSpec(*inspectFile(":/functions/inventory_lib_v1.lua")), false, ctx);
        QCOMPARE(change->stage(), LibraryChange::Stage::Confirmed);
        const QByteArray dumpBefore = m_c->call({"FUNCTION", "DUMP"})->bytes();
        QVERIFY(m_c->call({"CONFIG", "RESETSTAT"}).ok());
        const ExecutionReport done = change->executeBlocking();
        QVERIFY(!done.succeeded());
        QVERIFY(done.nodes.isEmpty());
        QVERIFY2(done.refusal.english.startsWith(
                     QStringLiteral("nothing was sent to %1: the audit log at %2 could not be "
                                    "written: ")
                         .arg(m_c->address(), ctx.auditPath)),
                 qPrintable(done.refusal.english));
        QVERIFY2(done.refusal.english.contains("Is a directory"), qPrintable(done.refusal.english));
        const QByteArray stats = m_c->call({"INFO", "commandstats"})->bytes();
        QVERIFY2(!stats.contains("cmdstat_function|load:"), stats.constData());
        QCOMPARE(m_c->call({"FUNCTION", "DUMP"})->bytes(), dumpBefore);
        QCOMPARE(serverCode("inventory_lib_v1"), testsupport::previousReleaseSource());
        QCOMPARE(QDir(ctx.auditPath).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
                 QStringList());
    }

    // Someone loads between the backup and the confirmation: nothing is sent.
    void changedSinceBackupIsRefused()
    {
        auto change = prepared(LibraryChange::deleteSpec("other_lib"), true);
        QVERIFY(m_c->call({"FUNCTION", "LOAD", "REPLACE", Other + "-- edited\n"}).ok());
        const ExecutionReport done = change->executeBlocking();
        QVERIFY2(
            done.refusal.english.contains("changed since the backup (other_lib holds other code"),
            qPrintable(done.refusal.english));
        QVERIFY(done.nodes.isEmpty());
        QCOMPARE(serverCode("other_lib"), Other + "-- edited\n");
        QVERIFY(audit().isEmpty());
    }

    // Load 1.3.0, then roll back from its backup: the server holds exactly what it held.
    void rollbackRestoresPriorState()
    {
        const QList<redis::LibraryInfo> before = serverLibraries();
        auto load =
            prepared(LibraryChange::loadSpec(*inspectFile(":/functions/inventory_lib_v1.lua")));
        QVERIFY(load->executeBlocking().succeeded());
        const auto backup = FunctionBackup::read(load->backupPath());
        QVERIFY(backup.ok());
        auto rollback = prepared(LibraryChange::rollbackSpec(*backup), true);
        QCOMPARE(rollback->verdict(), Verdict::Breaking); // v2 and the receipt function go
        QCOMPARE(rollback->contractDiffs().first().summary(),
                 QStringLiteral("inventory_lib_v1 1.3.0 → 1.0.0: breaking (4 removed, 1 changed)"));
        const ExecutionReport done = rollback->executeBlocking();
        QVERIFY2(done.succeeded(),
                 qPrintable(done.refusal.english + done.nodes.value(0).message.english));
        QCOMPARE(compareLibraries(before, serverLibraries()), QString());
        QCOMPARE(serverCode("inventory_lib_v1"), testsupport::previousReleaseSource());
        QVERIFY(rollback->backupPath() != load->backupPath()); // the rollback has its own
        QCOMPARE(audit().size(), 2);
        QCOMPARE(audit()[1].action, QStringLiteral("function-rollback"));
    }

    // A library that did not exist before the load is deleted by the rollback.
    void rollbackDeletesNewLibrary()
    {
        const QByteArray fresh = "#!lua name=fresh_lib\n-- version: 0.1.0\n"
                                 "redis.register_function('fresh_v1', function() return 1 end)\n";
        auto load = prepared(LibraryChange::loadSpec(inspectLibrary(fresh, "fresh.lua")));
        QCOMPARE(load->contractDiffs().first().summary(),
                 QStringLiteral("fresh_lib not loaded → 0.1.0: compatible (1 added)"));
        QVERIFY(load->executeBlocking().succeeded());
        QCOMPARE(serverCode("fresh_lib"), fresh);
        auto rollback =
            prepared(LibraryChange::rollbackSpec(*FunctionBackup::read(load->backupPath())), true);
        const ExecutionReport done = rollback->executeBlocking();
        QVERIFY2(done.succeeded(),
                 qPrintable(done.refusal.english + done.nodes.value(0).message.english));
        QCOMPARE(serverCode("fresh_lib"), QByteArray());
        QCOMPARE(audit().last().command, (QList<QByteArray>{"FUNCTION", "DELETE", "fresh_lib"}));
        QCOMPARE(serverLibraries().size(), 2);
    }

    void restoreDumpPolicies()
    {
        const QList<redis::LibraryInfo> before = serverLibraries();
        auto del = prepared(LibraryChange::deleteSpec("other_lib"), true);
        QVERIFY(del->executeBlocking().succeeded());
        const FunctionBackup backup = *FunctionBackup::read(del->backupPath());
        QVERIFY(m_c->call({"FUNCTION", "LOAD",
                           "#!lua name=extra\nredis.register_function('x_v1', "
                           "function() end)\n"})
                    .ok());

        // APPEND fails when a library of the dump exists: refused before anything is sent.
        LibraryChange append(context(), LibraryChange::restoreSpec(backup, RestorePolicy::Append));
        append.fetchStateBlocking();
        QVERIFY2(append.refusals().join("\n").contains(
                     "FUNCTION RESTORE APPEND would fail: library inventory_lib_v1 exists"),
                 qPrintable(append.refusals().join("\n")));

        // REPLACE puts other_lib back and keeps the extra library.
        auto replace = prepared(LibraryChange::restoreSpec(backup, RestorePolicy::Replace), true);
        QVERIFY(replace->executeBlocking().succeeded());
        QCOMPARE(serverCode("other_lib"), Other);
        QCOMPARE(serverLibraries().size(), 3);

        // FLUSH gives exactly the backed-up state: the extra library goes (breaking).
        auto flush = prepared(LibraryChange::restoreSpec(backup, RestorePolicy::Flush), true);
        QCOMPARE(flush->verdict(), Verdict::Breaking);
        QVERIFY(flush->executeBlocking().succeeded());
        QCOMPARE(compareLibraries(before, serverLibraries()), QString());
        QCOMPARE(audit().last().action, QStringLiteral("function-restore"));
        QCOMPARE(audit().last().command.value(3), QByteArray("FLUSH"));
    }

    void deleteGoesThroughGuards()
    {
        auto del = prepared(LibraryChange::deleteSpec("other_lib"), false);
        QCOMPARE(del->stage(), LibraryChange::Stage::BackedUp); // not confirmed: breaking
        QCOMPARE(del->confirm("other_lib", true), QString());
        QVERIFY(del->executeBlocking().succeeded());
        QCOMPARE(serverCode("other_lib"), QByteArray());
        QCOMPARE(FunctionBackup::read(del->backupPath())->nodes.first().library("other_lib")->code,
                 Other);
        LibraryChange again(context(), LibraryChange::deleteSpec("other_lib"));
        again.fetchStateBlocking();
        QCOMPARE(again.refusals(),
                 QStringList{"library other_lib is not loaded on " + m_c->address()});
    }
};

QTEST_GUILESS_MAIN(TstFunctionsLoad)
#include "tst_functions_load.moc"
