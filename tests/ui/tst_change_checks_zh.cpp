// SPDX-License-Identifier: GPL-3.0-or-later
// What the Libraries tab's change wizard says before anything is written (the contract's
// warnings and refusals, the code diff's labels, the preflight's checks) comes out in the
// window's language once the window installs its translators, while the English copy the CLI
// prints, --json carries and the log writes stays word for word; code that compares those
// sentences still works under the Chinese translator. Real specs, node states and a real
// LibraryChange (with no node: nothing is sent anywhere).
#include "PrivateSettings.h"
#include "functions/ChangePlan.h"
#include "functions/LibraryChange.h"
#include "ui/common/UiLanguage.h"

#include <QApplication>
#include <QJsonArray>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using functions::ChangeAction;
using functions::ChangeSpec;
using functions::ContractDiff;
using functions::NodeState;
using functions::PreflightCheck;
using functions::PreflightReport;

class TstChangeChecksZh : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static QByteArray library(const char *version, const char *body)
    {
        return QByteArray("#!lua name=inventory_lib_v1\n-- version: ") + version
               + "\nredis.register_function('inventory_deduct_v1', function(keys, args) return "
               + body + " end)\n";
    }

    // The node holds 1.2.0 of inventory_lib_v1 (and another library's function `other_v1`).
    static NodeState node()
    {
        NodeState n;
        n.address = QStringLiteral("127.0.0.1:6379");
        n.redisVersion = QStringLiteral("7.2.4");
        n.runId = QStringLiteral("abc");
        redis::LibraryInfo lib;
        lib.name = QStringLiteral("inventory_lib_v1");
        lib.engine = QStringLiteral("LUA");
        lib.code = library("1.2.0", "1");
        lib.hasCode = true;
        lib.functions << redis::FunctionInfo{QStringLiteral("inventory_deduct_v1"), {}, {}};
        redis::LibraryInfo other;
        other.name = QStringLiteral("other");
        other.engine = QStringLiteral("LUA");
        other.code = "#!lua name=other\nredis.register_function('other_v1', function() end)\n";
        other.hasCode = true;
        other.functions << redis::FunctionInfo{QStringLiteral("other_v1"), {}, {}};
        n.libraries = {lib, other};
        return n;
    }

    static ChangeSpec load(const QByteArray &code)
    {
        return functions::LibraryChange::loadSpec(functions::inspectLibrary(code, "lib.lua"));
    }

    // Rolling back to a backup of 1.0.0 (the node holds 1.2.0): the version goes down, as a
    // rollback means it to.
    static ChangeSpec rollback()
    {
        functions::FunctionBackup b;
        b.path = QStringLiteral("/tmp/backup.json");
        b.library = QStringLiteral("inventory_lib_v1");
        redis::LibraryInfo old{QStringLiteral("inventory_lib_v1"),
                               QStringLiteral("LUA"),
                               {},
                               library("1.0.0", "1"),
                               true};
        b.nodes << functions::NodeBackup{
            node().address, QStringLiteral("abc"), QStringLiteral("7.2.4"), {old}, {}};
        return functions::LibraryChange::rollbackSpec(b);
    }

    static QStringList english(const core::Sentences &s)
    {
        return core::copies(s, core::Wording::English);
    }
    static QStringList text(const core::Sentences &s)
    {
        return core::copies(s, core::Wording::Translated);
    }

private slots:
    void initTestCase() { QVERIFY(testsupport::usePrivateSettings(m_dir)); }

    // Before the Chinese test: a translator cannot be taken back from outside.
    void withoutATranslatorBothCopiesAreEnglish()
    {
        const core::Sentences w = load(library("1.2.0", "2")).warnings(node());
        QCOMPARE(english(w).value(0),
                 QStringLiteral("in-place contract change: inventory_deduct_v1's code changed; "
                                "an incompatible change needs a new name (_v2)"));
        QCOMPARE(text(w), english(w));
    }

    void contractWarningsAndRefusals()
    {
        QVERIFY(ui::installUiTranslators(*qApp, ui::UiLanguage::SimplifiedChinese).consoleLoaded);

        // The version was not bumped, and an in-place contract change.
        const core::Sentences same = load(library("1.2.0", "2")).warnings(node());
        QCOMPARE(english(same),
                 (QStringList{QStringLiteral("in-place contract change: inventory_deduct_v1's "
                                             "code changed; an incompatible change needs a new "
                                             "name (_v2)"),
                              QStringLiteral("the code changed but the version did not (1.2.0)")}));
        QCOMPARE(text(same),
                 (QStringList{QStringLiteral("原地契约变更：inventory_deduct_v1 的代码已改变；"
                                             "不兼容的变更需要新名称（_v2）"),
                              QStringLiteral("代码已改变，但版本没有改变（1.2.0）")}));

        // A lower version: a warning on a load, none on a rollback; the two are told apart by
        // comparing sentences, which still works when the window's copy is Chinese.
        const core::Sentences down = load(library("1.1.0", "1")).warnings(node());
        QCOMPARE(english(down),
                 QStringList{QStringLiteral("the version goes down, 1.2.0 → 1.1.0: an older "
                                            "release replaces a newer one")});
        QCOMPARE(text(down), QStringList{QStringLiteral(
                                 "版本降低，1.2.0 → 1.1.0：较旧的发布替换了较新的发布")});
        const ChangeSpec back = rollback();
        const QList<ContractDiff> diffs = back.contractDiffs(node());
        QVERIFY(diffs.value(0).versionDown);
        QVERIFY(diffs.value(0).warnings.contains(functions::versionDownWarning(diffs.value(0))));
        QVERIFY2(back.warnings(node()).isEmpty(),
                 qPrintable(text(back.warnings(node())).join('\n')));

        // Another library registers the function: refused, the --json copy English.
        QByteArray clash = library("1.3.0", "1");
        clash.replace("inventory_deduct_v1", "OTHER_v1");
        const ChangeSpec collides = load(clash);
        QCOMPARE(
            text(collides.refusals(node())),
            QStringList{QStringLiteral("函数 OTHER_v1 已存在于函数库 other 中（名为 other_v1）")});
        const QJsonObject json = collides.contractDiffs(node()).value(0).toJson();
        QCOMPARE(json.value("refusals").toArray().first().toString(),
                 QStringLiteral("Function OTHER_v1 already exists in library other (as other_v1)"));
    }

    void codeDiffLabels()
    {
        const functions::CodeDiff d = load(library("1.3.0", "3")).codeDiff(node());
        QCOMPARE(d.leftLabel.english, QStringLiteral("loaded on 127.0.0.1:6379 (1.2.0)"));
        QCOMPARE(d.leftLabel.text, QStringLiteral("已加载于 127.0.0.1:6379（1.2.0）"));
        QCOMPARE(d.rightLabel.text, QStringLiteral("lib.lua（1.3.0）"));
        QVERIFY(
            d.unified.startsWith("--- loaded on 127.0.0.1:6379 (1.2.0)\n+++ lib.lua (1.3.0)\n"));
        NodeState unread = node();
        unread.error = core::Sentence::plain(QStringLiteral("NOPERM"));
        ChangeSpec del = functions::LibraryChange::deleteSpec(QStringLiteral("inventory_lib_v1"));
        const functions::CodeDiff gone = del.codeDiff(unread);
        QCOMPARE(gone.leftLabel.text,
                 QStringLiteral("已加载于 127.0.0.1:6379（无法读取 FUNCTION LIST：NOPERM）"));
        QCOMPARE(gone.rightLabel.text, QStringLiteral("已删除"));
        QCOMPARE(gone.rightLabel.english, QStringLiteral("deleted"));
    }

    void offlineValidation()
    {
        // Valkey's `server` at the top level: loads on Valkey only.
        const functions::Inspection alias = functions::inspectLibrary(
            "#!lua name=v\nserver.register_function('f', function() return 1 end)\n", {},
            functions::InspectOptions{.valkey = true});
        QCOMPARE(alias.warnings.size(), 1);
        QVERIFY2(alias.warnings.first().english.startsWith("line 2: `server` is Valkey's name"),
                 qPrintable(alias.warnings.first().english));
        QCOMPARE(alias.warnings.first().text,
                 QStringLiteral("第 2 行：`server` 是 Valkey 对 `redis` 的称呼；Redis 没有这个"
                                "全局变量，因此此函数库无法在 Redis 上加载"));

        // A file Redis would refuse: the wizard refuses it in the window's language.
        const functions::Inspection bad = functions::inspectLibrary("#!lua name=lib\nx = 1\n");
        QCOMPARE(bad.problem->toString(),
                 QStringLiteral("line 2: Attempt to modify a readonly table (global 'x')"));
        QCOMPARE(bad.problem->sentence().text,
                 QStringLiteral("第 2 行：试图修改只读表（全局变量“x”）"));
        functions::LibraryChange change(functions::ChangeContext{},
                                        functions::LibraryChange::loadSpec(bad));
        QCOMPARE(change.refusals(),
                 QStringList{QStringLiteral("the code was refused offline: line 2: Attempt to "
                                            "modify a readonly table (global 'x')")});
        QCOMPARE(change.refusals(core::Wording::Translated),
                 QStringList{
                     QStringLiteral("代码被离线检查拒绝：第 2 行：试图修改只读表（全局变量“x”）")});
    }

    void preflightChecks()
    {
        ChangeSpec spec = load(library("1.3.0", "3"));
        functions::LibraryChange change(functions::ChangeContext{}, spec);
        // Out of order: refused, and said so in both copies.
        const PreflightReport early = change.preflightBlocking();
        QCOMPARE(early.refusal(),
                 QStringLiteral("Sequence: reading the state has not been done yet"));
        QCOMPARE(early.refusal(core::Wording::Translated), QStringLiteral("顺序：尚未读取状态"));
        // No node and no environment guard: the contract passes, the environment is refused.
        change.fetchStateBlocking();
        const PreflightReport report = change.preflightBlocking();
        QCOMPARE(report.checks.size(), 2);
        const PreflightCheck contract = report.checks.first();
        QCOMPARE(contract.label.english, QStringLiteral("Contract"));
        QCOMPARE(contract.label.text, QStringLiteral("契约"));
        QCOMPARE(contract.detail.english, QStringLiteral("no-change (inventory_lib_v1)"));
        QCOMPARE(contract.detail.text, QStringLiteral("无变化（inventory_lib_v1）"));
        QVERIFY(!report.passed());
        QCOMPARE(report.refusal(),
                 QStringLiteral("Environment: no environment guard for this session"));
        QCOMPARE(report.refusal(core::Wording::Translated),
                 QStringLiteral("环境：此会话没有环境防护"));
        QVERIFY(report.warnings(core::Wording::Translated).isEmpty());
    }
};

QTEST_MAIN(TstChangeChecksZh)
#include "tst_change_checks_zh.moc"
