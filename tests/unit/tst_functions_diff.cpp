// SPDX-License-Identifier: GPL-3.0-or-later
// The offline half of library management, no server: versions and fingerprints, inspection
// of the shipped releases, the contract diff (every class of change), the code diff, backup
// files and the local catalog.
#include "functions/ChangePlan.h"
#include "functions/CodeDiff.h"
#include "functions/ContractDiff.h"
#include "functions/FunctionBackup.h"
#include "functions/LibraryVersion.h"
#include "functions/LocalCatalog.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace functions;

namespace {

QByteArray readResource(const QString &path)
{
    initFunctionResources();
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A small library: helper `check` shared by the functions, one function per entry of `fns`
// ("name|flags|description|body"), flags comma-separated.
QByteArray library(const QString &version, const QStringList &fns, const QString &helper = "x")
{
    QString code = QStringLiteral("#!lua name=lib\n");
    if (!version.isEmpty())
        code += QStringLiteral("-- version: %1\n").arg(version);
    code += QStringLiteral("local function check(v) return v == '%1' end\n").arg(helper);
    for (const QString &f : fns) {
        const QStringList p = f.split(QLatin1Char('|'));
        QString flags;
        for (const QString &flag : p.value(1).split(QLatin1Char(','), Qt::SkipEmptyParts))
            flags += QStringLiteral("'%1',").arg(flag);
        code +=
            QStringLiteral("redis.register_function{function_name='%1', flags={%2}, "
                           "%3callback=function(keys, args) %4 end}\n")
                .arg(p.value(0), flags,
                     p.value(2).isEmpty() ? QString()
                                          : QStringLiteral("description='%1', ").arg(p.value(2)),
                     p.value(3, QStringLiteral("return check(args[1])")));
    }
    return code.toUtf8();
}

redis::LibraryInfo loaded(const QByteArray &code)
{
    const Inspection i = inspectLibrary(code);
    redis::LibraryInfo l = i.toLibraryInfo();
    l.code = code;
    l.hasCode = true;
    return l;
}

const FunctionDiff *fn(const ContractDiff &d, const QString &name)
{
    for (const FunctionDiff &f : d.functions)
        if (f.name == name)
            return &f;
    return nullptr;
}

} // namespace

class TstFunctionsDiff : public QObject
{
    Q_OBJECT

private slots:
    void versionLine_data()
    {
        QTest::addColumn<QByteArray>("code");
        QTest::addColumn<QString>("version");
        QTest::newRow("convention") << QByteArray("#!lua name=a\n-- version: 1.2.0\n") << "1.2.0";
        QTest::newRow("spaces") << QByteArray("#!lua name=a\n  --version:   2.0  \r\nx") << "2.0";
        QTest::newRow("no version") << QByteArray("#!lua name=a\nlocal x\n") << "";
        QTest::newRow("not on line 2")
            << QByteArray("#!lua name=a\n-- hello\n-- version: 1.0.0\n") << "";
        QTest::newRow("no shebang") << QByteArray("-- version: 1.0.0\n-- version: 1.0.0\n") << "";
        QTest::newRow("last line") << QByteArray("#!lua name=a\n-- version: 3") << "3";
    }
    void versionLine()
    {
        QFETCH(QByteArray, code);
        QFETCH(QString, version);
        QCOMPARE(libraryVersion(code), version);
        QCOMPARE(versionLabel(libraryVersion(code)),
                 version.isEmpty() ? QStringLiteral("unversioned") : version);
    }

    void versionsCompareNumerically()
    {
        QVERIFY(compareVersions("1.10.0", "1.9.3") > 0);
        QVERIFY(compareVersions("1.0", "1.0.0") == 0);
        QVERIFY(compareVersions("1.0.0", "1.1.0") < 0);
        QVERIFY(compareVersions("2.0.0-rc1", "2.0.0-rc2") < 0);
    }

    void fingerprintIsSha256OfTheBytes()
    {
        QCOMPARE(codeFingerprint("abc"),
                 QByteArray("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QCOMPARE(shortFingerprint(codeFingerprint("abc")), QStringLiteral("ba7816bf8f01"));
        QVERIFY(codeFingerprint("a\n") != codeFingerprint("a\r\n"));
    }

    // The releases against the frozen 1.0.0: 1.1.0 added inventory_deduct_v2 and
    // inventory_receipt_v1 and kept inventory_deduct_v1's code as it was; 1.2.0 adds a
    // permission check before the first write to v1 and v2; 1.3.0 adds the release and
    // adjust functions and leaves the others' code as it was. That is compatible (a new refusal
    // before any write; same names, same replies otherwise), but only a person can tell: the
    // diff does not take the file's word for it and shows v1's code as changed in place, a
    // warning for the release manager to read against the file's release notes.
    void shippedReleases()
    {
        const Inspection v120 = inspectLibrary(readResource(":/functions/inventory_lib_v1.lua"));
        const Inspection v100 = inspectLibrary(readResource(previousReleasePath()));
        QVERIFY2(v120.ok(), qPrintable(v120.problem ? v120.problem->toString() : QString()));
        QVERIFY(v100.ok());
        QCOMPARE(v100.version, QStringLiteral("1.0.0"));
        QCOMPARE(v120.version, QStringLiteral("1.3.0"));
        QCOMPARE(v120.library, QStringLiteral("inventory_lib_v1"));
        QCOMPARE(v120.engine, QStringLiteral("LUA"));
        QStringList names;
        for (const InspectedFunction &f : v120.functions)
            names << f.info.name + ":" + f.info.flags.join(",");
        // 1.3.0 adds the repair functions (issue 32), both writes.
        QCOMPARE(names, (QStringList{"inventory_adjust_v1:", "inventory_deduct_v1:",
                                     "inventory_deduct_v2:", "inventory_receipt_v1:no-writes",
                                     "inventory_release_v1:"}));
        for (const InspectedFunction &f : v120.functions) {
            QVERIFY(f.info.description && !f.info.description->isEmpty());
            QVERIFY2(f.firstLine > 2 && f.lastLine > f.firstLine && f.line > f.lastLine,
                     qPrintable(f.info.name));
        }
        QVERIFY(v120.function("inventory_deduct_v1")->behaviour
                != v100.function("inventory_deduct_v1")->behaviour);
        QCOMPARE(v120.function("INVENTORY_DEDUCT_V1")->info.name,
                 QStringLiteral("inventory_deduct_v1"));

        const ContractDiff d = diffContract(v120, {loaded(v100.code)});
        QCOMPARE(d.verdict, Verdict::Compatible);
        QCOMPARE(core::copies(d.warnings, core::Wording::English),
                 QStringList{"in-place contract change: inventory_deduct_v1's code "
                             "changed; an incompatible change needs a new name (_v2)"});
        QCOMPARE(d.summary(),
                 QStringLiteral("inventory_lib_v1 1.0.0 → 1.3.0: compatible (4 added, 1 changed)"));
        QVERIFY(fn(d, "inventory_deduct_v2")->added());
        QVERIFY(fn(d, "inventory_deduct_v1")->bodyChanged);
        QVERIFY(!fn(d, "inventory_deduct_v1")->flagsChanged);
        QVERIFY(!fn(d, "inventory_deduct_v1")->descriptionChanged);
    }

    void contractClasses_data()
    {
        QTest::addColumn<QByteArray>("before"); // empty: not loaded
        QTest::addColumn<QByteArray>("after");
        QTest::addColumn<Verdict>("verdict");
        QTest::addColumn<QString>("function");
        QTest::addColumn<QString>("note");    // contained in that function's notes
        QTest::addColumn<QString>("warning"); // contained in the warnings ("" none expected)
        const QString f1 = "f_v1||one|return check(args[1])";
        QTest::newRow("identical")
            << library("1.0", {f1}) << library("1.0", {f1}) << Verdict::NoChange << "f_v1"
            << ""
            << "";
        QTest::newRow("new library")
            << QByteArray() << library("1.0", {f1}) << Verdict::Compatible << "f_v1"
            << "added"
            << "";
        QTest::newRow("function added")
            << library("1.0", {f1}) << library("1.1", {f1, "g_v1||two|return 2"})
            << Verdict::Compatible << "g_v1"
            << "added"
            << "";
        QTest::newRow("function removed") << library("1.0", {f1, "g_v1||two|return 2"})
                                          << library("2.0", {f1}) << Verdict::Breaking << "g_v1"
                                          << "removed: callers of g_v1"
                                          << "";
        QTest::newRow("flag added")
            << library("1.0", {f1}) << library("1.1", {"f_v1|no-writes|one"}) << Verdict::Breaking
            << "f_v1"
            << "flags change: (none) → no-writes"
            << "";
        QTest::newRow("flag removed")
            << library("1.0", {"f_v1|no-writes,allow-oom|one"})
            << library("1.1", {"f_v1|allow-oom|one"}) << Verdict::Breaking << "f_v1"
            << "flags change: allow-oom, no-writes → allow-oom"
            << "";
        QTest::newRow("description changed")
            << library("1.0", {f1}) << library("1.1", {"f_v1||uno|return check(args[1])"})
            << Verdict::Compatible << "f_v1"
            << "description changed"
            << "";
        QTest::newRow("description removed (nil)")
            << library("1.0", {f1}) << library("1.1", {"f_v1|||return check(args[1])"})
            << Verdict::Compatible << "f_v1"
            << "description changed"
            << "";
        QTest::newRow("body changed under a _v1 name")
            << library("1.0", {f1}) << library("1.1", {"f_v1||one|return not check(args[1])"})
            << Verdict::Compatible << "f_v1"
            << "in-place contract change"
            << "in-place contract change: f_v1's code changed; an incompatible change needs a "
               "new name (_v2)";
        QTest::newRow("helper changed: the function's behaviour did")
            << library("1.0", {f1}) << library("1.1", {f1}, "y") << Verdict::Compatible << "f_v1"
            << "in-place contract change"
            << "in-place contract change";
        QTest::newRow("body changed, unversioned name")
            << library("1.0", {"plain||one|return 1"}) << library("1.1", {"plain||one|return 2"})
            << Verdict::Compatible << "plain"
            << "code changed"
            << "";
        QTest::newRow("code changed, version not")
            << library("1.0", {f1}) << library("1.0", {f1, "g_v1||two|return 2"})
            << Verdict::Compatible << "g_v1"
            << "added"
            << "the code changed but the version did not (1.0)";
        QTest::newRow("no version line")
            << library("1.0", {f1}) << library("", {f1, "g_v1||two|return 2"})
            << Verdict::Compatible << "g_v1"
            << "added"
            << "states no version";
        QTest::newRow("version goes down") << library("1.1", {f1, "g_v1||two|return 2"})
                                           << library("1.0", {f1}) << Verdict::Breaking << "g_v1"
                                           << "removed"
                                           << "the version goes down, 1.1 → 1.0: an older "
                                              "release replaces a newer one";
        QTest::newRow("case-only rename")
            << library("1.0", {f1}) << library("1.1", {"F_V1||one|return check(args[1])"})
            << Verdict::Compatible << "F_V1"
            << "renamed f_v1 → F_V1"
            << "";
    }
    void contractClasses()
    {
        QFETCH(QByteArray, before);
        QFETCH(QByteArray, after);
        QFETCH(Verdict, verdict);
        QFETCH(QString, function);
        QFETCH(QString, note);
        QFETCH(QString, warning);
        const Inspection incoming = inspectLibrary(after);
        QVERIFY2(incoming.ok(), qPrintable(incoming.problem ? incoming.problem->toString() : ""));
        const QList<redis::LibraryInfo> server = before.isEmpty()
                                                     ? QList<redis::LibraryInfo>{}
                                                     : QList<redis::LibraryInfo>{loaded(before)};
        const ContractDiff d = diffContract(incoming, server);
        QCOMPARE(verdictName(d.verdict), verdictName(verdict));
        const FunctionDiff *f = fn(d, function);
        QVERIFY2(f, qPrintable(function));
        if (!note.isEmpty())
            QVERIFY2(f->notes.join("; ").contains(note), qPrintable(f->notes.join("; ")));
        if (warning.isEmpty())
            QVERIFY2(d.warnings.isEmpty(), qPrintable(core::joined(d.warnings, "; ").english));
        else
            QVERIFY2(core::joined(d.warnings, "; ").english.contains(warning),
                     qPrintable(core::joined(d.warnings, "; ").english));
        // Only an older release going in is a rollback, said in words, never asked "(a rollback?)".
        QCOMPARE(d.versionDown, QByteArray(QTest::currentDataTag()) == "version goes down");
        QVERIFY(!core::joined(d.warnings, "; ").english.contains("?)"));
        QCOMPARE(d.breakingReasons().isEmpty(), verdict != Verdict::Breaking);
        QCOMPARE(d.toJson().value("verdict").toString(), verdictName(verdict));
    }

    // Another library already registers a function of the same name (ignoring case): Redis
    // would refuse the load, so the diff refuses it first.
    void collisionsAreRefused()
    {
        QByteArray other = library("1.0", {"f_v1||x|return 1"});
        other.replace("name=lib", "name=other");
        const ContractDiff d =
            diffContract(inspectLibrary(library("1.0", {"F_v1||one|return 1"})), {loaded(other)});
        QCOMPARE(d.verdict, Verdict::Refused);
        QCOMPARE(d.collisions.size(), 1);
        QCOMPARE(d.collisions.first().otherLibrary, QStringLiteral("other"));
        QCOMPARE(d.refusals.first().english,
                 QStringLiteral("Function F_v1 already exists in library other (as f_v1)"));
    }

    void refusedFileIsRefused()
    {
        const ContractDiff d = diffContract(inspectLibrary("#!lua name=lib\nx = 1\n"), {});
        QCOMPARE(d.verdict, Verdict::Refused);
        QCOMPARE(d.refusals.first().english,
                 QStringLiteral("the file was refused offline: line 2: Attempt to modify a "
                                "readonly table (global 'x')"));
    }

    void removalIsBreaking()
    {
        const ContractDiff d =
            diffRemoval(loaded(library("1.0", {"a_v1||a|return 1", "b_v1|no-writes|b|return 2"})));
        QCOMPARE(d.verdict, Verdict::Breaking);
        QCOMPARE(d.breakingReasons(), (QStringList{"a_v1 is removed", "b_v1 is removed"}));
        QCOMPARE(d.summary(), QStringLiteral("lib 1.0 → deleted: breaking (2 removed)"));
    }

    void codeDiffSideBySideAndUnified()
    {
        const QByteArray a = "one\ntwo\nthree\nfour\n";
        const QByteArray b = "one\n2\nthree\nfour\nfive\n";
        const CodeDiff d =
            diffCode(a, b, core::Sentence::plain("left"), core::Sentence::plain("right"));
        QVERIFY(!d.identical);
        QCOMPARE(d.added, 2);
        QCOMPARE(d.removed, 1);
        QCOMPARE(d.rows.size(), 5);
        QCOMPARE(d.rows[1].kind, DiffRow::Kind::Changed);
        QCOMPARE(d.rows[1].left, QStringLiteral("two"));
        QCOMPARE(d.rows[1].right, QStringLiteral("2"));
        QCOMPARE(d.rows[1].leftLine, 2);
        QCOMPARE(d.rows[1].rightLine, 2);
        QCOMPARE(d.rows[4].kind, DiffRow::Kind::Added);
        QCOMPARE(d.rows[4].leftLine, 0);
        QCOMPARE(d.rows[4].rightLine, 5);
        QVERIFY2(d.unified.startsWith("--- left\n+++ right\n@@ -1,4 +1,5 @@\n"),
                 qPrintable(d.unified));
        QVERIFY(d.unified.contains("\n-two\n+2\n"));
        QVERIFY(d.unified.contains("\n+five\n"));

        const CodeDiff same =
            diffCode(a, a, core::Sentence::plain("l"), core::Sentence::plain("r"));
        QVERIFY(same.identical);
        QVERIFY(same.unified.isEmpty());
        const CodeDiff newline =
            diffCode("x\n", "x", core::Sentence::plain("l"), core::Sentence::plain("r"));
        QVERIFY(!newline.identical);
        QCOMPARE(newline.note.english, QStringLiteral("only the final newline differs"));
        const CodeDiff fresh =
            diffCode({}, a, core::Sentence::plain("l"), core::Sentence::plain("r"));
        QCOMPARE(fresh.added, 4);
    }

    void backupRoundTrip()
    {
        QTemporaryDir dir;
        FunctionBackup b;
        b.library = "lib";
        b.action = "load";
        b.profile = "staging eu";
        b.environment = "staging";
        b.nodes << NodeBackup{"127.0.0.1:7000",
                              "run1",
                              "7.0.15",
                              {loaded(library("1.0", {"f_v1||x|"}))},
                              QByteArray("\xf5\x00\x01binary", 9)};
        QVERIFY(b.write(dir.path()).ok());
        QVERIFY(b.path.startsWith(dir.path() + "/lib-"));
        // Named per run: <library>-<time>-<action>-<8 random hex digits>.json
        QVERIFY2(QRegularExpression("-load-[0-9a-f]{8}\\.json$").match(b.path).hasMatch(),
                 qPrintable(b.path));
        const auto read = FunctionBackup::read(b.path);
        QVERIFY2(read.ok(), read.ok() ? "" : qPrintable(read.error().english));
        QCOMPARE(read->nodes.size(), 1);
        QCOMPARE(read->nodes.first().dump, b.nodes.first().dump);
        QCOMPARE(read->nodes.first().libraries.first().code,
                 b.nodes.first().libraries.first().code);
        QCOMPARE(read->node("127.0.0.1:7000")->runId, QStringLiteral("run1"));
        QCOMPARE(read->profile, QStringLiteral("staging eu"));

        QFile f(b.path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray json = f.readAll();
        json.replace("local function check", "local function CHECK");
        const auto damaged = FunctionBackup::fromJson(json);
        QVERIFY(!damaged.ok());
        QVERIFY2(damaged.error().english.contains("damaged"), qPrintable(damaged.error().english));
        QVERIFY(!FunctionBackup::fromJson("{\"format\":\"other\"}").ok());
    }

    void catalogMatches()
    {
        LocalCatalog catalog;
        catalog.scan();
        QCOMPARE(catalog.files().size(), 1); // stock_decrement.lua is a script, not a library
        QCOMPARE(displayPath(catalog.files().first().path),
                 QStringLiteral("shipped functions/inventory_lib_v1.lua"));
        const LibraryMatch old = catalog.match(loaded(readResource(previousReleasePath())));
        QCOMPARE(old.kind, LibraryMatch::Kind::Differs);
        QCOMPARE(old.text(),
                 QStringLiteral("differs from shipped functions/inventory_lib_v1.lua (1.3.0)"));
        const LibraryMatch same =
            catalog.match(loaded(readResource(":/functions/inventory_lib_v1.lua")));
        QCOMPARE(same.kind, LibraryMatch::Kind::Identical);
        QCOMPARE(catalog.match(loaded(library("1.0", {"f_v1||x|"}))).kind,
                 LibraryMatch::Kind::Unknown);

        QTemporaryDir dir;
        QFile f(dir.filePath("lib.lua"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(library("3.0", {"f_v1||x|"}));
        f.close();
        LocalCatalog both({LocalCatalog::shippedDirectory(), dir.path()});
        both.scan();
        QCOMPARE(both.files().size(), 2);
        QCOMPARE(both.match(loaded(library("1.0", {"f_v1||x|"}))).text(),
                 QStringLiteral("differs from %1 (3.0)").arg(f.fileName()));
        const QList<LibraryStatus> status =
            libraryStatuses({loaded(library("3.0", {"f_v1||x|"}))}, both);
        QCOMPARE(status.first().match.kind, LibraryMatch::Kind::Identical);
        QCOMPARE(status.first().toJson().value("version").toString(), QStringLiteral("3.0"));
        QCOMPARE(status.first().toJson().value("sha256").toString().size(), 64);
    }

    // Issue 14, item 8: a node whose FUNCTION LIST could not be read is not "not loaded".
    void unreadableNodeIsNotNotLoaded()
    {
        ChangeSpec spec;
        spec.action = ChangeAction::Load;
        spec.library = QStringLiteral("lib");
        spec.incoming = inspectLibrary(library(QStringLiteral("1.0.0"), {"f||"}));
        NodeState node;
        node.address = QStringLiteral("127.0.0.1:6379");
        node.error = core::Sentence::plain(
            QStringLiteral("NOPERM this user has no permissions to run 'function'"));
        const QList<ContractDiff> diffs = spec.contractDiffs(node);
        QCOMPARE(diffs.size(), 1);
        const QString summary = diffs.first().summary();
        QVERIFY2(!summary.contains(QLatin1String("not loaded")), qPrintable(summary));
        QVERIFY2(summary.contains(QLatin1String("could not read FUNCTION LIST on 127.0.0.1:6379: "
                                                "NOPERM")),
                 qPrintable(summary));
        QVERIFY(diffs.first().toJson().value(QStringLiteral("exists_before")).isNull());
        const CodeDiff code = spec.codeDiff(node);
        QVERIFY2(code.leftLabel.english.contains(QLatin1String("could not read FUNCTION LIST")),
                 qPrintable(code.leftLabel.english));
        QVERIFY2(core::joined(spec.refusals(node), " ")
                     .english.contains(QLatin1String("could not read FUNCTION "
                                                     "LIST")),
                 qPrintable(core::joined(spec.refusals(node), " ").english));
        // A node that was read and lacks the library is "not loaded".
        node.error = {};
        QVERIFY(spec.contractDiffs(node).first().summary().contains(QLatin1String("not loaded")));
    }
};

QTEST_GUILESS_MAIN(TstFunctionsDiff)
#include "tst_functions_diff.moc"
