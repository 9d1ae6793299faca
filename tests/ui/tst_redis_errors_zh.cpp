// SPDX-License-Identifier: GPL-3.0-or-later
// What the Redis layer says when a command fails, under the Chinese translator: the window's copy
// of each error in Chinese, the copy the CLI prints and the audit log keeps in English, and the
// server's own words (WRONGTYPE, NOSCRIPT) as the server said them in both. Every error comes from
// a real redis-server on loopback: a port nobody listens on, a command that blocks past its
// timeout, a write held by CLIENT PAUSE, a read of the wrong type and a script the server does not
// have.
#include "RedisFixture.h"
#include "inventory/Deducer.h"
#include "inventory/DeductionOutcome.h"
#include "redis/RedisClient.h"
#include "ui/common/UiLanguage.h"

#include <QApplication>
#include <QScopeGuard>
#include <QTest>

class TstRedisErrorsZh : public QObject
{
    Q_OBJECT

    testsupport::StandaloneRedis m_redis;
    std::unique_ptr<redis::RedisClient> m_admin;

private slots:
    void initTestCase()
    {
        // Nothing here reads or writes settings: only the translators are the window's.
        ui::installUiTranslators(*qApp, ui::UiLanguage::SimplifiedChinese);
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_admin = m_redis.connect();
        QVERIFY(m_admin);
    }

    // A command asked of a client whose server refused the connection (a redis-server that
    // has stopped) is not sent: the window reads why in Chinese, with the connection's own
    // reason inside it.
    void aRefusedPortIsNotSentInChinese()
    {
        testsupport::StandaloneRedis stopped;
        QVERIFY2(stopped.start(), qPrintable(stopped.errorString()));
        redis::ConnectionOptions options = stopped.options();
        stopped.server().stop();
        QVERIFY(!stopped.server().isRunning());
        options.autoReconnect = false;
        redis::RedisClient client(options);
        client.open();
        QTRY_VERIFY_WITH_TIMEOUT(client.state() == redis::ConnectionState::Failed, 10000);
        QCOMPARE(client.failure(), redis::ConnectFailure::Refused);

        const redis::ReplyResult r = client.call({"PING"}, 2000);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, redis::RedisError::Kind::NotSent);
        QVERIFY(!r.error().mayHaveRun());
        const QString address = options.address();
        const core::Sentence said = r.error().readFailure();
        QCOMPARE(said.english,
                 QStringLiteral("not sent: disconnected from %1 (connection refused by %1: is "
                                "Redis running there, on that port?)")
                     .arg(address));
        QCOMPARE(said.text, QStringLiteral("未发送：与 %1 的连接已断开（%1 拒绝了连接：Redis "
                                           "是否在该主机的这个端口上运行？）")
                                .arg(address));
        // A write refused so reads the same: it did not run.
        QCOMPARE(r.error().toString().english, r.error().message.english);
        QCOMPARE(r.error().toString().text, r.error().message.text);
    }

    // A read that outlives its timeout: Chinese in the window, English for the CLI, and nothing
    // said about what may have run (a read changes nothing).
    void aTimedOutReadInChinese()
    {
        auto client = m_redis.connect();
        QVERIFY(client);
        const redis::ReplyResult r = client->call({"BLPOP", "tst:redis-errors-zh:never", "5"}, 200);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, redis::RedisError::Kind::Timeout);
        QCOMPARE(r.error().readFailure().english,
                 QStringLiteral("timeout: no reply within the timeout"));
        QCOMPARE(r.error().readFailure().text, QStringLiteral("超时：超时内没有应答"));
    }

    // A write held by CLIENT PAUSE past its timeout: the outcome is unknown, said so in both
    // copies; the deduction's result card says it in Chinese, its audit summary in English.
    void aPausedWriteIsOutcomeUnknownInChinese()
    {
        const redis::ReplyResult paused = m_admin->call({"CLIENT", "PAUSE", "3000", "WRITE"});
        QVERIFY2(paused.ok(), qPrintable(testsupport::render(paused)));
        const auto unpause = qScopeGuard([this] { m_admin->call({"CLIENT", "UNPAUSE"}); });
        auto client = m_redis.connect();
        QVERIFY(client);
        const redis::ReplyResult r = client->call({"SET", "tst:redis-errors-zh:held", "1"}, 200);
        QVERIFY(!r.ok());
        QVERIFY(r.error().mayHaveRun());
        QCOMPARE(r.error().toString().english,
                 QStringLiteral("outcome unknown (timeout): no reply within the timeout; the "
                                "command had been sent, so it may or may not have run"));
        QCOMPARE(r.error().toString().text,
                 QStringLiteral("结果未知（超时）：超时内没有应答；命令已经发出，因此它可能已执行，"
                                "也可能没有执行"));

        const inventory::DeductionOutcome o = inventory::decodeFunctionReply(r);
        QCOMPARE(o.kind, inventory::OutcomeKind::Unknown);
        QCOMPARE(o.summary(), QStringLiteral("outcome unknown (timeout: no reply within the "
                                             "timeout)"));
        QCOMPARE(o.meaning(inventory::DeductionMode::Function),
                 QStringLiteral("调用已发送，但结果未知（超时：超时内没有应答）。扣减可能已发生，"
                                "也可能没有发生。"));
    }

    // A read of a key of another type: the server's WRONGTYPE stays the server's words in both
    // copies; only the console's sentence around it is Chinese.
    void aWrongTypeReadKeepsTheServersWords()
    {
        const QByteArray key = "tst:redis-errors-zh:hash";
        QVERIFY(m_admin->call({"HSET", key, "f", "1"}).ok());
        const inventory::KeyReading reading =
            inventory::KeyReading::fromReply(m_admin->call({"GET", key}));
        QVERIFY2(reading.error.english.startsWith(QLatin1String("WRONGTYPE ")),
                 qPrintable(reading.error.english));
        QCOMPARE(reading.error.text, reading.error.english);
        QCOMPARE(reading.text(), QStringLiteral("无法读取（%1）").arg(reading.error.english));
    }

    // EVALSHA of a script the server does not have: NOSCRIPT, refused before anything ran; the
    // window's sentence is Chinese around the server's words, the audit summary English.
    void aMissingScriptIsRefusedInChinese()
    {
        const redis::ReplyResult r =
            m_admin->call({"EVALSHA", QByteArray(40, 'f'), "1", "tst:redis-errors-zh:stock", "1"});
        QVERIFY(!r.ok());
        QVERIFY(r.error().isServer("NOSCRIPT"));
        QVERIFY(!r.error().mayHaveRun());
        QCOMPARE(r.error().toString().text, r.error().toString().english);
        QVERIFY2(r.error().toString().english.startsWith(QLatin1String("NOSCRIPT ")),
                 qPrintable(r.error().toString().english));

        const inventory::DeductionOutcome o = inventory::decodeScriptReply(r);
        const QString server = r.error().message.english;
        QVERIFY2(o.summary().endsWith(server), qPrintable(o.summary()));
        QVERIFY2(o.summary().startsWith(QLatin1String("rejected: "))
                     || o.summary().startsWith(QLatin1String("error, may have written: ")),
                 qPrintable(o.summary()));
        const QString shown = o.meaning(inventory::DeductionMode::Script);
        QVERIFY2(shown.contains(server.endsWith(QLatin1Char('.')) ? server.chopped(1) : server),
                 qPrintable(shown));
        QVERIFY2(shown.startsWith(QStringLiteral("服务器拒绝了该调用："))
                     || shown.startsWith(QStringLiteral("调用失败：")),
                 qPrintable(shown));
    }
};

QTEST_MAIN(TstRedisErrorsZh)
#include "tst_redis_errors_zh.moc"
