// SPDX-License-Identifier: GPL-3.0-or-later
// What the Libraries tab says once a change is made (each node's final state, what it holds,
// what happened, why nothing was sent), what its node matrix says of drift, and the Lab's
// connection errors come out in the window's language once the Chinese translators are
// installed, while the English copy (the CLI, --json, the log) stays word for word, and the
// code that compares outcomes still tells them apart. Against a real redis-server, with a
// real matrix of nodes and a real socket to a loopback port nobody answers on.
#include "ChangeFixture.h"
#include "ClosedPort.h"
#include "PrivateSettings.h"
#include "ServerTest.h"
#include "functions/LibraryChange.h"
#include "functions/LibraryMatrix.h"
#include "functions/LibraryVersion.h"
#include "lab/BlockingLane.h"
#include "lab/LabSettings.h"
#include "redis/LibraryList.h"
#include "ui/common/UiLanguage.h"
#include "ui/functions/NodeMatrixView.h"

#include <QApplication>
#include <QLabel>
#include <QSettings>
#include <QTableWidget>
#include <QTcpServer>
#include <QTest>

using namespace functions;
using core::Wording;

namespace {

QByteArray versioned(const QByteArray &name, const QByteArray &version)
{
    return "#!lua name=" + name + "\n-- version: " + version + "\nredis.register_function('" + name
           + "_ping', function() return '" + version + "' end)\n";
}

redis::LibraryInfo library(const QString &name, const QByteArray &code)
{
    redis::LibraryInfo l;
    l.name = name;
    l.engine = QStringLiteral("LUA");
    l.code = code;
    l.hasCode = true;
    return l;
}

// Two primaries with other versions of zh_lib, a replica of the first that lost it, and a
// primary that could not be read.
LibraryMatrix driftedMatrix()
{
    const QByteArray v1 = versioned("zh_lib", "1.0.0");
    const QByteArray v2 = versioned("zh_lib", "1.1.0");
    return LibraryMatrix({
        {QStringLiteral("127.0.0.1:7001"), true, {}, {}, {library(QStringLiteral("zh_lib"), v1)}},
        {QStringLiteral("127.0.0.1:7002"), true, {}, {}, {library(QStringLiteral("zh_lib"), v2)}},
        {QStringLiteral("127.0.0.1:7003"), false, QStringLiteral("127.0.0.1:7001"), {}, {}},
        {QStringLiteral("127.0.0.1:7004"),
         true,
         {},
         core::Sentence::plain(QStringLiteral("connection refused")),
         {}},
    });
}

} // namespace

class TstChangeOutcomeZh : public testsupport::ChangeTest
{
    Q_OBJECT

    ChangeContext context()
    {
        return testsupport::singleNodeContext(*m_c, m_gate.get(), m_dir, "zh test");
    }
    // Read, preflight, backup and confirm (a breaking change unacknowledged): what is left is
    // execute().
    std::unique_ptr<LibraryChange> prepared(const ChangeSpec &spec)
    {
        return testsupport::preparedChange(context(), spec);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(testsupport::usePrivateSettings(m_dir));
        QCOMPARE(startServerWithLocalGate(QStringLiteral("zh test")), QString());
    }

    // Before the Chinese tests: a translator cannot be taken back from outside.
    void withoutATranslatorTheyAreEnglish()
    {
        QCOMPARE(finalStateWord(FinalState::RolledBack, Wording::Translated),
                 QStringLiteral("rolled back"));
        const LibraryMatrix m = driftedMatrix();
        QCOMPARE(m.drift().size(), 2);
        QCOMPARE(m.drift().at(0).detail.text, m.drift().at(0).detail.english);
        QCOMPARE(m.unreadable(Wording::Translated), m.unreadable());
        core::Sentence why;
        lab::BlockingLane lane;
        redis::ConnectionOptions o;
        o.port = testsupport::closedPort();
        QVERIFY(!lane.open(o, &why));
        QCOMPARE(why.text, QStringLiteral("could not connect to 127.0.0.1:%1").arg(o.port));
        QCOMPARE(why.english, why.text);
    }

    void installChinese()
    {
        const ui::UiTranslation t =
            ui::installUiTranslators(*qApp, ui::UiLanguage::SimplifiedChinese);
        QVERIFY(t.consoleLoaded);
    }

    // The state words: the result page's, and the CLI's English; the comparisons are on the
    // state, not on its word.
    void finalStates()
    {
        QCOMPARE(finalStateWord(FinalState::RolledBack, Wording::Translated),
                 QStringLiteral("已回滚"));
        QCOMPARE(finalStateWord(FinalState::RolledBack), QStringLiteral("rolled back"));
        QCOMPARE(finalStateWord(FinalState::NotTouched, Wording::Translated),
                 QStringLiteral("未触及"));
        QCOMPARE(finalStateWord(FinalState::NotTouched), QStringLiteral("not touched"));
        QCOMPARE(finalStateWord(FinalState::RollbackFailed), QStringLiteral("rollback failed"));
        NodeOutcome o;
        for (FinalState s :
             {FinalState::RolledBack, FinalState::Unchanged, FinalState::NotTouched}) {
            o.finalState = s;
            QVERIFY(o.settled());
        }
        for (FinalState s : {FinalState::Loaded, FinalState::RollbackFailed, FinalState::Unknown}) {
            o.finalState = s;
            QVERIFY(!o.settled());
        }
    }

    // The demo's upgrade, 1.0.0 to the shipped 1.3.0: verified, in both copies; a second
    // execute() is refused in both.
    void loadIsToldInChinese()
    {
        QVERIFY(m_c->call({"FUNCTION", "FLUSH"}).ok());
        QVERIFY(m_c->call({"FUNCTION", "LOAD", testsupport::previousReleaseSource()}).ok());
        auto file = inspectFile(QStringLiteral(":/functions/inventory_lib_v1.lua"));
        QVERIFY(file.ok() && file->ok());
        auto change = prepared(LibraryChange::loadSpec(*file));
        const ExecutionReport done = change->executeBlocking();
        QVERIFY2(done.succeeded(), qPrintable(done.refusal.english));
        const NodeOutcome &n = done.nodes.first();
        QCOMPARE(n.finalState, FinalState::Loaded);
        QVERIFY(!n.settled());
        QCOMPARE(finalStateWord(n.finalState, Wording::Translated), QStringLiteral("已加载"));
        QCOMPARE(finalStateWord(n.finalState), QStringLiteral("loaded"));
        const QString address = m_c->address();
        QCOMPARE(n.message.english, QStringLiteral("done and verified: %1 holds exactly the "
                                                   "expected code")
                                        .arg(address));
        QCOMPARE(n.message.text,
                 QStringLiteral("完成并已验证：%1 持有的正是预期的代码").arg(address));
        QCOMPARE(n.holds.english,
                 QStringLiteral("inventory_lib_v1 %1").arg(versionAndFingerprint(file->code)));

        const ExecutionReport again = change->executeBlocking();
        QVERIFY(again.nodes.isEmpty());
        QCOMPARE(again.refusal.english,
                 QStringLiteral("this change was already made once; start a new one"));
        QCOMPARE(again.refusal.text, QStringLiteral("此变更已经执行过一次；请重新开始一个变更"));
    }

    // A deletion is breaking: confirmed without the acknowledgement, execute() is refused in
    // both copies. Then someone loads between the backup and the confirmation: nothing is
    // sent, and the window says why in Chinese, naming the library that moved.
    void refusalsInChinese()
    {
        QVERIFY(m_c->call({"FUNCTION", "LOAD", "REPLACE", versioned("zh_lib", "1.0.0")}).ok());
        auto change = prepared(LibraryChange::deleteSpec(QStringLiteral("zh_lib")));
        QVERIFY(change->awaitsBreakingAcknowledgement());
        const ExecutionReport early = change->executeBlocking();
        QCOMPARE(early.refusal.english, QStringLiteral("the confirmation has not been done yet"));
        QCOMPARE(early.refusal.text, QStringLiteral("尚未确认"));

        QCOMPARE(change->confirm(QStringLiteral("zh_lib"), true), QString());
        QVERIFY(m_c->call({"FUNCTION", "LOAD", "REPLACE", versioned("zh_lib", "1.0.1")}).ok());
        const ExecutionReport done = change->executeBlocking();
        QVERIFY(done.nodes.isEmpty());
        QVERIFY2(done.refusal.english.startsWith(
                     m_c->address() + " changed since the backup (zh_lib holds other code"),
                 qPrintable(done.refusal.english));
        QVERIFY2(done.refusal.text.startsWith(m_c->address()
                                              + QStringLiteral(" 在备份之后发生了变化（zh_lib 的"
                                                               "代码不同")),
                 qPrintable(done.refusal.text));
        QVERIFY2(done.refusal.text.endsWith(QStringLiteral("：未发送任何内容；请重新读取状态")),
                 qPrintable(done.refusal.text));
    }

    // The node matrix: each drift and the unreadable node in Chinese, in the view too; the
    // CLI's English unchanged.
    void matrixInChinese()
    {
        const LibraryMatrix m = driftedMatrix();
        QCOMPARE(m.state(), LibraryMatrix::State::Drift);
        QVERIFY(m.driftAt(QStringLiteral("zh_lib"), 1) == DriftKind::DifferentVersion);
        QVERIFY(m.driftAt(QStringLiteral("zh_lib"), 2) == DriftKind::Missing);
        const QString ref = versionAndFingerprint(versioned("zh_lib", "1.0.0"));
        const QString other = versionAndFingerprint(versioned("zh_lib", "1.1.0"));
        const LibraryDrift &version = m.drift().at(0);
        QCOMPARE(version.detail.english, QStringLiteral("zh_lib on 127.0.0.1:7002 is %1, "
                                                        "127.0.0.1:7001 has %2")
                                             .arg(other, ref));
        QCOMPARE(version.detail.text,
                 QStringLiteral("127.0.0.1:7002 上的 zh_lib 是 %1，127.0.0.1:7001 上是 %2")
                     .arg(other, ref));
        const LibraryDrift &missing = m.drift().at(1);
        QCOMPARE(
            missing.detail.english,
            QStringLiteral("zh_lib is missing on 127.0.0.1:7003 (127.0.0.1:7001 has %1)").arg(ref));
        QCOMPARE(missing.detail.text,
                 QStringLiteral("127.0.0.1:7003 上缺少 zh_lib（127.0.0.1:7001 上是 %1）").arg(ref));
        QCOMPARE(m.unreadable(), QStringList{"could not read FUNCTION LIST on 127.0.0.1:7004: "
                                             "connection refused"});
        QCOMPARE(m.unreadable(Wording::Translated),
                 QStringList{QStringLiteral("无法读取 127.0.0.1:7004 上的 FUNCTION LIST："
                                            "connection refused")});
        QCOMPARE(m.replicasApartFromPrimary(), QStringList{"127.0.0.1:7003"});
        QVERIFY(LibraryMatrix::apartFromPrimarySentence({"127.0.0.1:7003"})
                    .startsWith("127.0.0.1:7003 differs from its primary, although"));
        QVERIFY(LibraryMatrix::apartFromPrimarySentence({"a:1", "b:2"})
                    .endsWith("resynchronise them, or load the library on them directly."));
        QVERIFY(LibraryMatrix::apartFromPrimarySentence({"127.0.0.1:7003"}, Wording::Translated)
                    .startsWith(QStringLiteral("127.0.0.1:7003 与其主节点不同")));
        QVERIFY(LibraryMatrix::apartFromPrimarySentence({"a:1", "b:2"}, Wording::Translated)
                    .startsWith(QStringLiteral("a:1, b:2 与各自的主节点不同")));

        ui::NodeMatrixView view;
        view.setMatrix(m);
        const QString summary = view.summary()->text();
        QVERIFY2(summary.contains(version.detail.text), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("127.0.0.1:7003 与其主节点不同")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(m.unreadable(Wording::Translated).first()), qPrintable(summary));
        QVERIFY2(!summary.contains(QLatin1String(" is missing on ")), qPrintable(summary));
        QCOMPARE(view.table()->item(1, 2)->toolTip(), version.detail.text);
        QCOMPARE(view.table()->item(3, 2)->toolTip(), m.unreadable(Wording::Translated).first());
    }

    // The Lab: a lane to a port nobody listens on says so in Chinese; the error a later call
    // gets keeps its kind.
    void labConnectionErrorsInChinese()
    {
        redis::ConnectionOptions o;
        o.port = testsupport::closedPort();
        QVERIFY(o.port != 0);
        lab::BlockingLane lane;
        core::Sentence why;
        QVERIFY(!lane.open(o, &why));
        QCOMPARE(why.text, QStringLiteral("无法连接到 127.0.0.1:%1").arg(o.port));
        QCOMPARE(why.english, QStringLiteral("could not connect to 127.0.0.1:%1").arg(o.port));
        const QList<redis::ReplyResult> r = lane.roundTrip({{"PING"}}, 100);
        QCOMPARE(r.size(), 1);
        QVERIFY(!r.first().ok());
        QCOMPARE(r.first().error().kind, redis::RedisError::Kind::NotSent);
        QCOMPARE(r.first().error().message.text, QStringLiteral("未连接"));
        QCOMPARE(r.first().error().message.english, QStringLiteral("not connected"));

        // A listener that never answers: the lane's setup waits out its timeout.
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost));
        o.port = silent.serverPort();
        o.connectTimeoutMs = 150;
        lab::BlockingLane waiting;
        QVERIFY(!waiting.open(o, &why));
        QCOMPARE(why.text, QStringLiteral("150 毫秒内没有应答"));
        QCOMPARE(why.english, QStringLiteral("no reply within 150 ms"));
        const QList<redis::ReplyResult> late = waiting.roundTrip({{"PING"}}, 100);
        QCOMPARE(late.first().error().kind, redis::RedisError::Kind::NotSent);
        QCOMPARE(late.first().error().message.text, why.text);
        // The CLI's copy stays English, the window's is Chinese: both kept from the lane.
        QCOMPARE(late.first().error().message.english, why.english);

        lab::LabSettings settings;
        settings.strategies.clear();
        QCOMPARE(settings.problems(), QStringList{QStringLiteral("策略：请至少选择一个")});
    }
};

QTEST_MAIN(TstChangeOutcomeZh)
#include "tst_change_outcome_zh.moc"
