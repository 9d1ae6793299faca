// SPDX-License-Identifier: GPL-3.0-or-later
// The window's last English sentences, in Chinese under its translator while the CLI's copy
// stays the exact English: why an SSH tunnel did not open (ssh's own output kept as it
// printed it), a Sentinel URL's and the resolver's errors, and a library change's refusals on
// a real server: the change lock held by another change, the confirmation's typed name and
// breaking acknowledgement, the read-only environment check. What the code decides from (the
// failure kind, the awaited acknowledgement) does not depend on the words.
#include "ChangeFixture.h"
#include "PrivateSettings.h"
#include "ServerTest.h"
#include "functions/ChangeLease.h"
#include "functions/LibraryChange.h"
#include "redis/Blocking.h"
#include "sentinel/SentinelResolver.h"
#include "sentinel/SentinelUrl.h"
#include "ssh/SshError.h"
#include "ssh/SshTarget.h"
#include "ui/common/UiLanguage.h"

#include <QApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QTest>

using namespace functions;
using core::Wording;

namespace {

QByteArray tunnelLibrary(const QByteArray &version)
{
    return "#!lua name=zh_tunnel_lib\n-- version: " + version
           + "\nredis.register_function('zh_tunnel_ping', function() return '" + version
           + "' end)\n";
}

const QStringList unknownKeyLines{
    QStringLiteral("debug1: Server host key: ssh-ed25519 "
                   "SHA256:IP9C8ycIWCywWvVQkpd6wDGdfcSlFfpCvTD9cu5mYaA"),
    QStringLiteral("No ED25519 host key is known for [127.0.0.1]:2222 and you have "
                   "requested strict checking."),
    QStringLiteral("Host key verification failed.")};

const QStringList refusedLines{QStringLiteral("debug1: Authentications that can continue: "
                                              "publickey"),
                               QStringLiteral("user@127.0.0.1: Permission denied (publickey).")};

} // namespace

class TstTunnelSentencesZh : public testsupport::ChangeTest
{
    Q_OBJECT

    ChangeContext context(gate::WriteGate *gate)
    {
        return testsupport::singleNodeContext(*m_c, gate, m_dir, "zh tunnel");
    }

    static core::Result<FunctionBackup, core::Sentence> backupOf(LibraryChange &change)
    {
        return redis::blockUntilReply<core::Result<FunctionBackup, core::Sentence>>(
            [&change](QObject *, auto cb) { change.backup(cb); });
    }

private slots:
    void initTestCase()
    {
        QVERIFY(testsupport::usePrivateSettings(m_dir));
        QCOMPARE(startServerWithLocalGate(QStringLiteral("zh tunnel")), QString());
    }

    // Before the Chinese tests: a translator cannot be taken back from outside.
    void withoutATranslatorTheyAreEnglish()
    {
        const ssh::SshError e =
            ssh::classifyStartFailure(unknownKeyLines, QStringLiteral("[127.0.0.1]:2222"), {});
        QCOMPARE(e.message.text, e.message.english);
        const auto url = sentinel::parseSentinelUrl(QStringLiteral("redis-sentinel://a:26379"),
                                                    Wording::Translated);
        QVERIFY(!url.ok());
        QVERIFY(url.error().startsWith(QStringLiteral("no master name: end the URL")));
    }

    void installChinese()
    {
        const ui::UiTranslation t =
            ui::installUiTranslators(*qApp, ui::UiLanguage::SimplifiedChinese);
        QVERIFY(t.consoleLoaded);
    }

    // The host-key and refusal messages: the window's in Chinese, the CLI's and the log's the
    // exact English; ssh's own lines are kept as it printed them.
    void sshFailures()
    {
        const ssh::SshError key =
            ssh::classifyStartFailure(unknownKeyLines, QStringLiteral("[127.0.0.1]:2222"), {});
        QCOMPARE(key.kind, ssh::SshFailure::HostKeyUnknown);
        QVERIFY(key.isHostKeyProblem());
        QCOMPARE(key.message.english,
                 QStringLiteral("The bastion [127.0.0.1]:2222 offered a host key the console does "
                                "not know (ssh-ed25519 "
                                "SHA256:IP9C8ycIWCywWvVQkpd6wDGdfcSlFfpCvTD9cu5mYaA). Compare "
                                "this fingerprint with one obtained from the host's "
                                "administrator, then trust it, or stop."));
        QCOMPARE(key.message.text,
                 QStringLiteral("堡垒机 [127.0.0.1]:2222 提供了控制台不认识的主机密钥（ssh-ed25519 "
                                "SHA256:IP9C8ycIWCywWvVQkpd6wDGdfcSlFfpCvTD9cu5mYaA）。请把此指纹"
                                "与从主机管理员处获得的指纹比较，然后信任它，或者停止。"));
        QCOMPARE(key.sshOutput, QStringList(unknownKeyLines.mid(1)).join(QLatin1Char('\n')));

        const ssh::SshError refused = ssh::classifyStartFailure(
            refusedLines, QStringLiteral("[127.0.0.1]:2222"), QStringLiteral("[127.0.0.1]:2200"));
        QCOMPARE(refused.kind, ssh::SshFailure::AuthenticationRefused);
        QVERIFY(
            refused.message.english.startsWith(QStringLiteral("The SSH server refused every key")));
        QVERIFY(refused.message.english.endsWith(
            QStringLiteral(" The connection goes through the jump host [127.0.0.1]:2200.")));
        QVERIFY2(
            refused.message.text.startsWith(QStringLiteral("SSH 服务器拒绝了提供的每一个密钥")),
            qPrintable(refused.message.text));
        QVERIFY2(refused.message.text.endsWith(QStringLiteral("连接经过跳板机 [127.0.0.1]:2200。")),
                 qPrintable(refused.message.text));
        QCOMPARE(refused.sshOutput, refusedLines.at(1));

        // The SSH tab's and the profile's check: the field named in each copy's words.
        const ssh::SshTargetInput badPort{QStringLiteral("ops@bastion:0"), {}, {}, false};
        QCOMPARE(ssh::parseTarget(badPort).error(),
                 QStringLiteral("bastion \"ops@bastion:0\": the port \"0\" is not a number from "
                                "1 to 65535. Write it as user@host[:port]."));
        QCOMPARE(ssh::parseTarget(badPort, Wording::Translated).error(),
                 QStringLiteral("堡垒机 \"ops@bastion:0\"：端口 \"0\" 不是 1 到 65535 之间的数字。"
                                "请写成 user@host[:port]。"));
    }

    // A Sentinel URL's and list's problems: English by default (the CLI's --url), Chinese
    // where the window asks for them; a sentinel's answer likewise.
    void sentinelErrors()
    {
        const QString noMaster = QStringLiteral("redis-sentinel://a:26379");
        QVERIFY(sentinel::parseSentinelUrl(noMaster).error().startsWith(
            QStringLiteral("no master name: end the URL with #master-name")));
        QVERIFY2(sentinel::parseSentinelUrl(noMaster, Wording::Translated)
                     .error()
                     .startsWith(QStringLiteral("没有主节点名称：请在 URL 末尾加上 #master-name")),
                 qPrintable(sentinel::parseSentinelUrl(noMaster, Wording::Translated).error()));

        const QString badPort = QStringLiteral("10.0.4.7, 10.0.4.8:99999");
        QCOMPARE(sentinel::parseSentinelList(badPort).error(),
                 QStringLiteral("sentinel 2 (10.0.4.8): the port must be a number from 1 to "
                                "65535"));
        QCOMPARE(sentinel::parseSentinelList(badPort, Wording::Translated).error(),
                 QStringLiteral("第 2 个哨兵（10.0.4.8）：端口必须是 1 到 65535 之间的数字"));

        sentinel::SentinelAnswer a;
        a.sentinel = sentinel::NodeAddress{QStringLiteral("127.0.0.1"), 26379};
        a.kind = sentinel::SentinelAnswer::Kind::Unknown;
        QCOMPARE(a.toString(QStringLiteral("orders")).english,
                 QStringLiteral("127.0.0.1:26379 does not know the master 'orders'"));
        QCOMPARE(a.toString(QStringLiteral("orders")).text,
                 QStringLiteral("127.0.0.1:26379 不知道主节点 'orders'"));
    }

    // Another change holds the lock: the backup is refused in both copies, naming the holder.
    // Once it is gone, the confirmation's refusals come in both copies too, and the awaited
    // acknowledgement is still read from the change's state.
    void lockAndConfirmation()
    {
        QVERIFY(m_c->call({"FUNCTION", "LOAD", "REPLACE", tunnelLibrary("1.0.0")}).ok());
        LibraryChange change(context(m_gate.get()),
                             LibraryChange::deleteSpec(QStringLiteral("zh_tunnel_lib")));
        change.fetchStateBlocking();
        QVERIFY2(change.preflightBlocking().passed(), "preflight refused");

        const QJsonObject holder{
            {QStringLiteral("holder"), QStringLiteral("ops-laptop")},
            {QStringLiteral("action"), QStringLiteral("load")},
            {QStringLiteral("library"), QStringLiteral("zh_tunnel_lib")},
            {QStringLiteral("since"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)}};
        QVERIFY(
            m_c->call({"SET", ChangeLockKey, QJsonDocument(holder).toJson(), "PX", "60000"}).ok());
        const auto refused = backupOf(change);
        QVERIFY(!refused.ok());
        const QString lockOn = QStringLiteral("the change lock on %1 (key %2) is held by "
                                              "ops-laptop for a load of zh_tunnel_lib since ")
                                   .arg(m_c->address(), QString::fromLatin1(ChangeLockKey));
        QVERIFY2(refused.error().english.startsWith(lockOn), qPrintable(refused.error().english));
        QVERIFY(refused.error().english.endsWith(
            QStringLiteral("unless its holder renews it. Nothing was changed: wait for that "
                           "change to finish and run this again; a holder that died leaves a "
                           "lock that lapses by itself when its time above runs out")));
        const QString zhLockOn = QStringLiteral("%1 上的变更锁（键 %2）由 ops-laptop 持有，用于对 "
                                                "zh_tunnel_lib 的 load，始于 ")
                                     .arg(m_c->address(), QString::fromLatin1(ChangeLockKey));
        QVERIFY2(refused.error().text.startsWith(zhLockOn), qPrintable(refused.error().text));
        QVERIFY2(refused.error().text.endsWith(QStringLiteral("。未做任何更改：请等那次变更完成后"
                                                              "再运行；若持有者已退出，它留下的"
                                                              "锁会在上述时间到期后自行失效")),
                 qPrintable(refused.error().text));

        QVERIFY(m_c->call({"DEL", ChangeLockKey}).ok());
        const auto made = backupOf(change);
        QVERIFY2(made.ok(), qPrintable(made.ok() ? QString() : made.error().english));

        const core::Sentence typo = change.confirmation(QStringLiteral("ZH_TUNNEL_LIB"), true);
        QCOMPARE(typo.english,
                 QStringLiteral("type the library name exactly (zh_tunnel_lib) to confirm"));
        QCOMPARE(typo.text, QStringLiteral("请准确输入函数库名称（zh_tunnel_lib）以确认"));

        const core::Sentence breaking = change.confirmation(QStringLiteral("zh_tunnel_lib"), false);
        QVERIFY(change.awaitsBreakingAcknowledgement());
        QVERIFY2(breaking.english.startsWith(QStringLiteral("this change is breaking (")),
                 qPrintable(breaking.english));
        QVERIFY(breaking.english.endsWith(QStringLiteral("): acknowledge it as well")));
        QVERIFY2(breaking.text.startsWith(QStringLiteral("此变更是破坏性变更（")),
                 qPrintable(breaking.text));
        QVERIFY(breaking.text.endsWith(QStringLiteral("）：请同时勾选确认")));
        // The CLI's form is the English copy.
        QCOMPARE(change.confirm(QStringLiteral("zh_tunnel_lib"), false), breaking.english);
        QVERIFY(change.confirmation(QStringLiteral("zh_tunnel_lib"), true).isEmpty());
        QVERIFY(!change.awaitsBreakingAcknowledgement());
        change.releaseLockBlocking();
    }

    // A read-only session: the environment check's translated copy is the gate's Chinese
    // refusal, its English copy the gate's English.
    void readOnlyEnvironment()
    {
        profiles::ConnectionProfile p;
        p.name = QStringLiteral("zh prod");
        p.environment = QStringLiteral("production");
        gate::WriteGate locked(*m_c, p);
        QVERIFY(locked.isReadOnly());
        LibraryChange change(context(&locked),
                             LibraryChange::deleteSpec(QStringLiteral("zh_tunnel_lib")));
        change.fetchStateBlocking();
        const PreflightReport report = change.preflightBlocking();
        QVERIFY(!report.passed());
        bool found = false;
        for (const PreflightCheck &c : report.checks)
            if (c.label.english == QLatin1String("Environment")) {
                found = true;
                QCOMPARE(c.state, PreflightCheck::State::Failed);
                QCOMPARE(c.detail.english, locked.refusalMessage(Wording::English));
                QCOMPARE(c.detail.text, locked.refusalMessage(Wording::Translated));
                QVERIFY2(c.detail.text.contains(QStringLiteral("zh prod")),
                         qPrintable(c.detail.text));
                QVERIFY(c.detail.text != c.detail.english);
            }
        QVERIFY(found);
    }
};

QTEST_MAIN(TstTunnelSentencesZh)
#include "tst_tunnel_sentences_zh.moc"
