// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli functions against a real redis-server: every verb, its exit codes, its JSON,
// and the guards (confirmation, breaking acknowledgement, production unlock, ACL).
#include "AclUsers.h"
#include "AuditTrail.h"
#include "CliRunner.h"
#include "RedisFixture.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
    QJsonObject json() const { return QJsonDocument::fromJson(out.toUtf8()).object(); }
};

QByteArray previousRelease()
{
    QFile f(QStringLiteral(INVENTORY_SOURCE_DIR "/resources/functions/inventory_lib_v1-1.0.0.lua"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

const QString Shipped = QStringLiteral(INVENTORY_SOURCE_DIR "/functions/inventory_lib_v1.lua");

} // namespace

class TstFunctionsCli : public QObject
{
    Q_OBJECT

    testsupport::StandaloneRedis m_redis;
    std::unique_ptr<redis::RedisClient> m_c;
    QTemporaryDir m_home;
    QString m_url;

    Run cli(const QStringList &args, const QByteArray &input = {})
    {
        testsupport::CliOptions o;
        o.input = input;
        QProcessEnvironment &env = o.environment;
        env.remove(QStringLiteral("QT_LOGGING_RULES"));
        env.insert(QStringLiteral("INVENTORY_SECRETS"), QStringLiteral("session"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.filePath("data"));
        env.remove(QStringLiteral("INVENTORY_DATA_DIR")); // the data folder follows XDG here
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath("config"));
        const testsupport::CliRun r = testsupport::runCli(QStringList{"functions"} + args, o);
        return Run{r.exitCode, QString::fromUtf8(r.out), QString::fromUtf8(r.err)};
    }
    QString writeFile(const QString &name, const QByteArray &code)
    {
        QFile f(m_home.filePath(name));
        if (f.open(QIODevice::WriteOnly))
            f.write(code);
        return f.fileName();
    }
    QByteArray serverCode(const QByteArray &library)
    {
        const auto r = m_c->call({"FUNCTION", "LIST", "WITHCODE", "LIBRARYNAME", library});
        if (!r.ok() || r->size() != 1)
            return {};
        const redis::Reply &lib = r->at(0);
        for (qsizetype i = 0; i + 1 < lib.size(); i += 2)
            if (lib.at(i).bytes() == "library_code")
                return lib.at(i + 1).bytes();
        return {};
    }
    QString backupPathIn(const QString &out)
    {
        const auto m = QRegularExpression(QStringLiteral("^backup: (.+)$"),
                                          QRegularExpression::MultilineOption)
                           .match(out);
        return m.hasMatch() ? m.captured(1) : QString();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_c = m_redis.connect();
        m_url = QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port());
    }

    void init()
    {
        QVERIFY(m_c->call({"FUNCTION", "FLUSH"}).ok());
        QVERIFY(m_c->call({"FUNCTION", "LOAD", previousRelease()}).ok());
    }

    void status()
    {
        QVERIFY(m_c->call({"FUNCTION", "LOAD",
                           "#!lua name=misc\nredis.register_function{function_name='ro', "
                           "callback=function() end, flags={'no-writes', 'allow-stale'}}\n"})
                    .ok());
        Run r = cli({"status", "--url", m_url});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("inventory_lib_v1  1.0.0  sha256 5479a38e54d6  differs from "
                                  "shipped functions/inventory_lib_v1.lua (1.3.0)\n"),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains("misc  unversioned  sha256 "), qPrintable(r.out));
        QVERIFY2(r.out.contains("  ro  [allow-stale, no-writes]  (no description)\n"),
                 qPrintable(r.out));
        r = cli({"status", "--url", m_url, "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray libs = r.json().value("libraries").toArray();
        QCOMPARE(libs.size(), 2);
        QCOMPARE(libs[0].toObject().value("library").toString(),
                 QStringLiteral("inventory_lib_v1"));
        QCOMPARE(libs[0].toObject().value("sha256").toString().size(), 64);
        QCOMPARE(libs[0].toObject().value("match").toString(), QStringLiteral("differs"));
        const QJsonObject ro = libs[1].toObject().value("functions").toArray()[0].toObject();
        QVERIFY(ro.value("description").isNull());
        QCOMPARE(ro.value("flags").toArray().size(), 2);
        QVERIFY(libs[1].toObject().value("version").isNull());
        QCOMPARE(cli({"status", "--url", "redis://127.0.0.1:1"}).exitCode, 3);
    }

    void check()
    {
        Run r = cli({"check", Shipped});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("inventory_lib_v1  1.3.0  sha256 "), qPrintable(r.out));
        QVERIFY(r.out.contains("inventory_receipt_v1  [no-writes]  line "));
        r = cli({"check", writeFile("bad.lua", "#!lua name=bad\n\nhelper = 1\n")});
        QCOMPARE(r.exitCode, 3);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err, QStringLiteral("inventory-cli functions check: %1 was refused offline: "
                                       "line 3: "
                                       "Attempt to modify a readonly table (global 'helper')\n")
                            .arg(m_home.filePath("bad.lua")));
        r = cli({"check", m_home.filePath("bad.lua"), "--json"});
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(r.json().value("problem").toObject().value("kind").toString(),
                 QStringLiteral("read-only-global"));
        QCOMPARE(r.json().value("problem").toObject().value("line").toInt(), 3);
        QCOMPARE(cli({"check", m_home.filePath("missing.lua")}).exitCode, 4);
        QCOMPARE(cli({"check"}).exitCode, 4);
    }

    // A top level that spends seconds inside one C call is stopped at the inspector's
    // CPU-time limit and refused: FUNCTION LOAD is never sent, so Redis is never blocked.
    void slowTopLevelIsNeverLoaded()
    {
        const QString slow = writeFile("slow.lua", "#!lua name=slow\nlocal hit = ('a'):rep(100)"
                                                   ":find(('a*'):rep(5) .. 'b')\n"
                                                   "redis.register_function('f', function() "
                                                   "end)\n");
        const auto loads = [this] {
            return testsupport::commandCalls(*m_c, "function|load");
        };
        const qint64 loadsBefore = loads();
        QVERIFY(loadsBefore >= 0);
        const Run r = cli({"load", slow, "--url", m_url, "--confirm", "slow"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(" was refused offline: the top level used more than 2000 ms of "
                                "CPU time and was stopped"),
                 qPrintable(r.err));
        QCOMPARE(serverCode("slow"), QByteArray());
        QCOMPARE(loads(), loadsBefore);
    }

    // The crash, through the command line: with `f` and `F` loaded by someone else,
    // load and delete are refused with the reason, and the server never gets the command.
    void caseTwinsAreRefusedNotSent()
    {
        QVERIFY(m_c->call({"FUNCTION", "LOAD",
                           "#!lua name=twins\nredis.register_function('f', function() end)\n"
                           "redis.register_function('F', function() end)\n"})
                    .ok());
        const QString fixed = writeFile("twins.lua", "#!lua name=twins\nredis.register_function("
                                                     "'f', function() end)\n");
        Run r = cli({"load", fixed, "--url", m_url, "--confirm", "twins"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("whose names differ only in case (F, f): Redis 7.0 crashes (an "
                                "assertion) when it replaces or deletes such a library, so "
                                "FUNCTION LOAD REPLACE is not sent"),
                 qPrintable(r.err));
        r = cli({"delete", "twins", "--url", m_url, "--confirm", "twins", "--allow-breaking"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("so FUNCTION DELETE is not sent"), qPrintable(r.err));
        QCOMPARE(testsupport::render(m_c->call({"PING"})), QStringLiteral("+PONG"));
        QVERIFY(!serverCode("twins").isEmpty());
        QVERIFY(m_c->call({"FUNCTION", "FLUSH"}).ok()); // the safe way out
    }

    void diffExitCodes()
    {
        QCOMPARE(cli({"diff", writeFile("same.lua", previousRelease()), "--url", m_url}).exitCode,
                 0);
        Run r = cli({"diff", Shipped, "--url", m_url, "--unified"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.out.startsWith("inventory_lib_v1 1.0.0 → 1.3.0: compatible (4 added, 1 changed)\n"),
            qPrintable(r.out));
        QVERIFY(r.out.contains("\n+-- version: 1.3.0\n"));
        QByteArray renamed = previousRelease();
        renamed.replace("'inventory_deduct_v1'", "'inventory_deduct_v9'");
        r = cli({"diff", writeFile("breaking.lua", renamed), "--url", m_url, "--json"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.json().value("verdict").toString(), QStringLiteral("breaking"));
        QCOMPARE(r.json().value("exit_code").toInt(), 2);
        QVERIFY(r.json()
                    .value("warnings")
                    .toArray()
                    .contains(QStringLiteral("the code changed but the version did not (1.0.0)")));
        QByteArray thief = "#!lua name=thief\nredis.register_function('Inventory_Deduct_V1', "
                           "function() end)\n";
        QCOMPARE(cli({"diff", writeFile("thief.lua", thief), "--url", m_url}).exitCode, 3);
        QCOMPARE(cli({"diff", m_home.filePath("bad.lua"), "--url", m_url}).exitCode, 3);
        QCOMPARE(cli({"diff", Shipped, "--url", "redis://127.0.0.1:1"}).exitCode, 5);
        QCOMPARE(cli({"diff", Shipped}).exitCode, 4);
    }

    void loadAndRollback()
    {
        // The confirmation must be the library name.
        Run r = cli({"load", Shipped, "--url", m_url, "--confirm", "inventory"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(serverCode("inventory_lib_v1"), previousRelease());

        r = cli({"load", Shipped, "--url", m_url, "--confirm", "inventory_lib_v1"});
        QCOMPARE(r.exitCode, 0);
        const QString backup = backupPathIn(r.out);
        QVERIFY2(QFile::exists(backup), qPrintable(r.out));
        QVERIFY(backup.startsWith(m_home.filePath("data")));
        QVERIFY2(r.out.contains(": done and verified"), qPrintable(r.out));
        QFile shipped(Shipped);
        QVERIFY(shipped.open(QIODevice::ReadOnly));
        QCOMPARE(serverCode("inventory_lib_v1"), shipped.readAll());

        // Rolling back removes two functions: breaking, needs the acknowledgement.
        r = cli({"rollback", "--backup", backup, "--url", m_url, "--confirm", "inventory_lib_v1"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("acknowledge it as well (--allow-breaking)"), qPrintable(r.err));
        r = cli({"rollback", "--backup", backup, "--url", m_url, "--confirm", "inventory_lib_v1",
                 "--allow-breaking", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json().value("succeeded").toBool(), true);
        QVERIFY(QFile::exists(r.json().value("backup").toString()));
        QCOMPARE(serverCode("inventory_lib_v1"), previousRelease());

        // The audit log holds the load and the rollback, each with its backup, each written
        // ahead: an attempt line before the command was sent, then its outcome.
        QFile audit(m_home.filePath("data/inventory-console/audit.jsonl"));
        QVERIFY2(audit.open(QIODevice::ReadOnly), qPrintable(audit.fileName()));
        const QList<QByteArray> lines = audit.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines[0].contains("\"action\":\"function-load\""));
        QVERIFY(lines[0].contains("\"phase\":\"attempt\""));
        QVERIFY(lines[1].contains("\"action\":\"function-load\""));
        QVERIFY(lines[1].contains("\"phase\":\"outcome\""));
        QVERIFY(lines[2].contains("\"action\":\"function-rollback\""));
        QVERIFY(lines[3].contains("\"action\":\"function-rollback\""));
        const auto trail = testsupport::readAuditTrail(audit.fileName());
        QVERIFY2(trail.problem.isEmpty(), qPrintable(trail.problem));
        QCOMPARE(trail.writes.size(), 2);
    }

    void productionNeedsUnlock()
    {
        Run r = cli({"delete", "inventory_lib_v1", "--url", m_url, "--confirm", "inventory_lib_v1",
                     "--allow-breaking", "--environment", "production"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("preflight refused: Environment: read-only session on production "
                                "profile '127.0.0.1:"),
                 qPrintable(r.err));
        QCOMPARE(serverCode("inventory_lib_v1"), previousRelease());
        QCOMPARE(cli({"delete", "inventory_lib_v1", "--url", m_url, "--confirm", "inventory_lib_v1",
                      "--allow-breaking", "--environment", "production", "--unlock", "nope"})
                     .exitCode,
                 2);
        r = cli({"delete", "inventory_lib_v1", "--url", m_url, "--confirm", "inventory_lib_v1",
                 "--allow-breaking", "--environment", "production", "--unlock",
                 QStringLiteral("127.0.0.1:%1").arg(m_redis.port())});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(serverCode("inventory_lib_v1"), QByteArray());
        // And back, from the delete's backup, through FUNCTION RESTORE.
        r = cli({"rollback", "--backup", backupPathIn(r.out), "--policy", "append", "--url", m_url,
                 "--confirm", "inventory_lib_v1"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(serverCode("inventory_lib_v1"), previousRelease());
    }

    // A user that may call functions but not load them: refused by the dry run.
    void aclUserMayNotLoad()
    {
        QVERIFY(
            m_c->call({"ACL", "SETUSER", "caller", "reset", "on", ">caller-pw", "+fcall",
                       "+function|list", "+info", "+acl|dryrun", "+client|setname", "+echo", "~*"})
                .ok());
        const QString url =
            QStringLiteral("redis://caller:caller-pw@127.0.0.1:%1").arg(m_redis.port());
        const Run r = cli({"load", Shipped, "--url", url, "--confirm", "inventory_lib_v1"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("preflight refused: Permission on 127.0.0.1:"), qPrintable(r.err));
        QVERIFY2(r.err.contains("user 'caller' may not run FUNCTION LOAD REPLACE"),
                 qPrintable(r.err));
        QVERIFY(!r.err.contains("caller-pw"));
        QCOMPARE(serverCode("inventory_lib_v1"), previousRelease());
        QVERIFY(m_c->call({"ACL", "DELUSER", "caller"}).ok());
    }

    // Safety bug 2 on the command line: the session user may only FCALL; the release user's
    // password comes on standard input; every step runs as the release user (ACL LOG shows no
    // denial), and the preflight says so.
    void releaseUserFromStdin()
    {
        QVERIFY(testsupport::createSupportAndReleaseUsers(*m_c));
        const QString url =
            QStringLiteral("redis://support:support-pw@127.0.0.1:%1").arg(m_redis.port());
        const QStringList load{"load",
                               Shipped,
                               "--url",
                               url,
                               "--confirm",
                               "inventory_lib_v1",
                               "--release-user",
                               "release",
                               "--release-password-stdin"};
        Run r = cli(load, "release-pw\n");
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(r.out.contains("user 'release' may run FUNCTION LOAD REPLACE"), qPrintable(r.out));
        QCOMPARE(serverCode("inventory_lib_v1"),
                 testsupport::functionSource("inventory_lib_v1.lua"));
        QCOMPARE(testsupport::render(m_c->call({"ACL", "LOG"})), QStringLiteral("{}"));
        QVERIFY(!r.out.contains("release-pw") && !r.err.contains("release-pw"));
        // status reads as the release user too (support may not FUNCTION LIST).
        r = cli({"status", "--url", url, "--release-user", "release", "--release-password-stdin"},
                "release-pw\n");
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("inventory_lib_v1"));
        QCOMPARE(testsupport::render(m_c->call({"ACL", "LOG"})), QStringLiteral("{}"));

        // No line on stdin, or no release user: a usage error before anything connects.
        r = cli(load);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--release-password-stdin: standard input has no line"),
                 qPrintable(r.err));
        r = cli({"status", "--url", url, "--release-password-stdin"}, "x\n");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("there is no release user"), qPrintable(r.err));
        // A release user without a password anywhere says how to give one.
        r = cli({"load", Shipped, "--url", url, "--confirm", "inventory_lib_v1", "--release-user",
                 "release"});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains("--release-password-stdin"), qPrintable(r.err));
        QVERIFY(m_c->call({"ACL", "DELUSER", "support", "release"}).ok());
    }

    // Nothing listens on the port: one line on stderr without the URL's password, and the
    // verb's own exit code for "could not connect" (diff: 5, the others: 3).
    void refusedPort()
    {
        const QString url = QStringLiteral("redis://u:Refused-Secret-pw@127.0.0.1:%1")
                                .arg(demo::LocalRedisServer::freePort());
        const QList<std::pair<QStringList, int>> runs{
            {{"status"}, 3},
            {{"diff", Shipped}, 5},
            {{"load", Shipped, "--confirm", "inventory_lib_v1"}, 3},
            {{"delete", "inventory_lib_v1", "--confirm", "inventory_lib_v1"}, 3},
        };
        for (const auto &[args, code] : runs) {
            const Run r = cli(args + QStringList{"--url", url, "--timeout-ms", "2000"});
            QCOMPARE(r.exitCode, code);
            QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
            QVERIFY2(r.err.startsWith("inventory-cli functions " + args.first() + ": ")
                         && r.err.endsWith('\n') && r.err.count('\n') == 1,
                     qPrintable(r.err));
            QVERIFY2(r.err.contains("connection refused"), qPrintable(r.err));
            QVERIFY(!r.err.contains("Refused-Secret"));
        }
    }

    void usage()
    {
        QCOMPARE(cli({}).exitCode, 2);
        QCOMPARE(cli({"frobnicate"}).exitCode, 2);
        QCOMPARE(cli({"load", "--url", m_url}).exitCode, 2);
        QCOMPARE(cli({"rollback", "--url", m_url, "--confirm", "x"}).exitCode, 2);
        const Run help = cli({"load", "--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("inventory-cli functions load"));
    }
};

QTEST_GUILESS_MAIN(TstFunctionsCli)
#include "tst_functions_cli.moc"
