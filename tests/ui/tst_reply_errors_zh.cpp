// SPDX-License-Identifier: GPL-3.0-or-later
// What the console says when a reply has the wrong shape, under the Chinese translator: a strict
// read (expected a string, got an integer 5), a cluster topology it cannot read (CLUSTER SHARDS,
// CLUSTER SLOTS), an unreadable FUNCTION LIST and an announced-address entry that is not a
// mapping. The window's copy is Chinese and names the shape that came; the English copy, which
// the CLI prints and the log keeps, is as before. The decoders take reply values, so these are
// pure values; the address map is also typed into the profile form that shows its note.
// Then the sentences that carry a shape or a read failure further: a deduction's or a repair's
// contract anomaly, the slots no primary serves, a node matrix node with no connection and a
// reconcile whose EXISTS answered outside 0/1.
#include "functions/LibraryMatrix.h"
#include "inventory/Deducer.h"
#include "inventory/DeductionOutcome.h"
#include "inventory/WriteTargetRole.h"
#include "ledger/LedgerSpec.h"
#include "profiles/AnnouncedMapField.h"
#include "profiles/ConnectionProfile.h"
#include "reconcile/ReconcileRun.h"
#include "redis/ClusterTopology.h"
#include "redis/LibraryList.h"
#include "redis/ReplyShape.h"
#include "ui/common/UiLanguage.h"
#include "ui/connect/ClusterForm.h"
#include "ui/reconcile/ReconcileJob.h"

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QTest>

using redis::Reply;

namespace {
// Answers every command of a batch with the same reply, on the next turn of the event loop.
class SameAnswer : public redis::CommandSender
{
public:
    explicit SameAnswer(Reply reply)
        : m_reply(std::move(reply))
    {}
    using CommandSender::send;
    void sendBatch(QList<redis::Command> commands, QObject *context, redis::BatchCallback cb,
                   int) override
    {
        const QList<redis::ReplyResult> replies(commands.size(), redis::ReplyResult(m_reply));
        QMetaObject::invokeMethod(
            context, [cb, replies] { cb(replies); }, Qt::QueuedConnection);
    }
    QString address() const override { return QStringLiteral("10.0.0.9:6379"); }

private:
    Reply m_reply;
};
} // namespace

class TstReplyErrorsZh : public QObject
{
    Q_OBJECT

    static Reply str(const char *s) { return Reply::bulk(s); }

private slots:
    void initTestCase()
    {
        // Nothing here reads or writes settings: only the translators are the window's.
        ui::installUiTranslators(*qApp, ui::UiLanguage::SimplifiedChinese);
    }

    // Each strict read names what it wanted and what came, the shape in Chinese words and the
    // server's bytes as they were.
    void strictReadsNameTheShapeInChinese_data()
    {
        QTest::addColumn<redis::RedisError>("error");
        QTest::addColumn<QString>("english");
        QTest::addColumn<QString>("text");
        QTest::newRow("string of an integer")
            << Reply::integer(5).string().error()
            << QStringLiteral("expected a string, got an integer 5")
            << QStringLiteral("应为 字符串，实际为 整数 5");
        QTest::newRow("integer of a bulk string")
            << str("abc").integer().error()
            << QStringLiteral("expected an integer, got a bulk string \"abc\"")
            << QStringLiteral("应为 整数，实际为 批量字符串 \"abc\"");
        QTest::newRow("number of a status")
            << Reply::status("OK").number().error()
            << QStringLiteral("expected an integer or a canonical integer string, got a status OK")
            << QStringLiteral("应为 整数或规范整数字符串，实际为 状态应答 OK");
        QTest::newRow("array of nil")
            << Reply::nil().array().error() << QStringLiteral("expected an array, got nil")
            << QStringLiteral("应为 数组，实际为 空值（nil）");
        QTest::newRow("string of an error reply")
            << Reply::error("ERR no").string().error()
            << QStringLiteral("expected a string, got an error reply ERR no")
            << QStringLiteral("应为 字符串，实际为 错误应答 ERR no");
        QTest::newRow("element past the end")
            << Reply::array({Reply::integer(1)}).element(2).error()
            << QStringLiteral("expected an array with an element at index 2, got an array of 1")
            << QStringLiteral("应为 下标 2 处有元素的数组，实际为 含 1 个元素的数组");
    }
    void strictReadsNameTheShapeInChinese()
    {
        QFETCH(redis::RedisError, error);
        QFETCH(QString, english);
        QFETCH(QString, text);
        QCOMPARE(error.kind, redis::RedisError::Kind::Unexpected);
        QCOMPARE(error.message.english, english);
        QCOMPARE(error.message.text, text);
        // The read failure the window shows is Chinese throughout, its kind included.
        QCOMPARE(error.readFailure().text, QStringLiteral("意外应答：") + text);
        QCOMPARE(error.readFailure().english, QStringLiteral("unexpected reply: ") + english);
    }

    // The shape alone, as sentences about an anomaly name it ("SCAN answered an array of 3
    // elements"): Chinese in the window, English in the copy that stays English.
    void aReplyShapeIsNamedInChinese()
    {
        const core::Sentence three =
            redis::replyShape(Reply::array({Reply::nil(), Reply::nil(), Reply::nil()}));
        QCOMPARE(three.english, QStringLiteral("an array of 3 elements"));
        QCOMPARE(three.text, QStringLiteral("含 3 个元素的数组"));
        QCOMPARE(redis::replyShape(Reply::status("OK")).text, QStringLiteral("状态行"));
        QCOMPARE(Reply::bulk(QByteArray("\x01x", 2)).shape().english,
                 QStringLiteral("a bulk string \"\\x01x\""));
        QCOMPARE(Reply::bulk(QByteArray("\x01x", 2)).shape().text,
                 QStringLiteral("批量字符串 \"\\x01x\""));
    }

    // CLUSTER SHARDS and CLUSTER SLOTS replies the decoder refuses: no partial map, and why in
    // both copies.
    void aTopologyOfTheWrongShapeIsRefusedInChinese_data()
    {
        QTest::addColumn<bool>("shards"); // CLUSTER SHARDS's reply, or CLUSTER SLOTS's
        QTest::addColumn<Reply>("reply");
        QTest::addColumn<QString>("english");
        QTest::addColumn<QString>("text");
        QTest::newRow("shards: not an array")
            << true << Reply::integer(1) << QStringLiteral("expected an array of shards")
            << QStringLiteral("应为分片数组");
        QTest::newRow("shards: a shard without slots")
            << true << Reply::array({Reply::array({str("nodes"), Reply::array({})})})
            << QStringLiteral("a shard without slots and nodes")
            << QStringLiteral("有分片缺少槽或节点");
        QTest::newRow("slots: a range without a node")
            << false << Reply::array({Reply::array({Reply::integer(0), Reply::integer(100)})})
            << QStringLiteral("a slot range without a node") << QStringLiteral("有槽范围没有节点");
    }
    void aTopologyOfTheWrongShapeIsRefusedInChinese()
    {
        QFETCH(bool, shards);
        QFETCH(Reply, reply);
        QFETCH(QString, english);
        QFETCH(QString, text);
        const QString seed = QStringLiteral("seed");
        const auto t = shards ? redis::ClusterTopology::fromShards(reply, {}, seed)
                              : redis::ClusterTopology::fromSlots(reply, {}, seed);
        QVERIFY(!t.ok());
        QCOMPARE(t.error().english,
                 QStringLiteral("the cluster's topology reply has an unexpected shape: ")
                     + english);
        QCOMPARE(t.error().text, QStringLiteral("集群拓扑应答的格式不符合预期：") + text);
    }

    // FUNCTION LIST answered something that is not a list of libraries.
    void anUnreadableFunctionListIsRefusedInChinese()
    {
        const auto status = redis::decodeFunctionList(Reply::status("OK"));
        QVERIFY(!status.ok());
        QCOMPARE(status.error().english,
                 QStringLiteral("unexpected FUNCTION LIST reply: expected an array, got a status "
                                "OK"));
        QCOMPARE(status.error().text,
                 QStringLiteral("无法识别 FUNCTION LIST 的应答：应为 数组，实际为 状态应答 OK"));

        // A library whose fields do not pair up (RESP2's maps are flat arrays).
        const auto odd = redis::decodeFunctionList(Reply::array({Reply::array({str("name")})}));
        QVERIFY(!odd.ok());
        QCOMPARE(odd.error().english,
                 QStringLiteral("unexpected FUNCTION LIST reply: expected a map (an even number "
                                "of elements), got an array of 1"));
        QCOMPARE(odd.error().text, QStringLiteral("无法识别 FUNCTION LIST 的应答：应为 "
                                                  "映射（偶数个元素），实际为 含 1 个元素的数组"));
    }

    // An announced-address entry that is not a mapping: refused with what to write instead, by
    // line, in the profile form's note and in the profile's problems, in Chinese.
    void anAddressMappingErrorIsShownInChinese()
    {
        const QString typed = QStringLiteral("10.0.0.5:6379 = 127.0.0.1:7001\n10.0.0.6:6379");
        const auto entries = profiles::parseAnnouncedEntries(typed);
        QVERIFY(!entries.ok());
        QCOMPARE(entries.error().english,
                 QStringLiteral("line 2: '10.0.0.6:6379' is not an address mapping: write "
                                "announced=reachable, each side host:port or a host, e.g. "
                                "10.0.0.5:6379=127.0.0.1:7001"));
        const QString chinese =
            QStringLiteral("第 2 行：“10.0.0.6:6379”不是地址映射：请写成 announced=reachable，"
                           "每一侧为 host:port 或单独的主机，例如 10.0.0.5:6379=127.0.0.1:7001");
        QCOMPARE(entries.error().text, chinese);

        const auto oneSide =
            redis::AnnouncedAddressMap::parse(QStringLiteral("node-a:6379=127.0.0.1"));
        QVERIFY(!oneSide.ok());
        QCOMPARE(oneSide.error().english,
                 QStringLiteral("'node-a:6379=127.0.0.1': give a port on both sides or on "
                                "neither"));
        QCOMPARE(oneSide.error().text,
                 QStringLiteral("“node-a:6379=127.0.0.1”：请在两侧都写端口，或两侧都不写"));

        ui::ClusterForm form;
        auto *edit = form.findChild<QPlainTextEdit *>(QStringLiteral("announcedMapEdit"));
        auto *note = form.findChild<QLabel *>(QStringLiteral("announcedMapNote"));
        QVERIFY(edit && note);
        edit->setPlainText(typed);
        QCOMPARE(note->text(), chinese);

        profiles::ConnectionProfile p;
        p.name = QStringLiteral("cluster");
        p.announcedMap = typed.split('\n');
        QString problem;
        for (const profiles::ProfileProblem &found : p.validate())
            if (found.field == QLatin1String("announcedMap"))
                problem = found.message;
        QCOMPARE(problem, QStringLiteral("通告地址，") + chinese);
    }

    // A deduction's reply outside the contract: the anomaly names the shape in the window's
    // words, the result card quotes it, and summary() (the audit log) keeps the English.
    void aDeductionAnomalyNamesTheShapeInChinese()
    {
        const inventory::DeductionOutcome wrong =
            inventory::decodeFunctionReply(redis::ReplyResult(Reply::integer(5)));
        QVERIFY(wrong.outsideContract());
        QCOMPARE(wrong.anomaly.english,
                 QStringLiteral("an integer, not the contract's {code, value} pair"));
        QCOMPARE(wrong.anomaly.text, QStringLiteral("整数，不是契约规定的 {code, value} 二元组"));
        QVERIFY2(wrong.meaning(inventory::DeductionMode::Function).contains(wrong.anomaly.text),
                 qPrintable(wrong.meaning(inventory::DeductionMode::Function)));
        QVERIFY2(wrong.summary().contains(wrong.anomaly.english), qPrintable(wrong.summary()));

        const inventory::DeductionOutcome value = inventory::decodeFunctionReply(
            redis::ReplyResult(Reply::array({Reply::integer(1), str("x")})));
        QCOMPARE(value.anomaly.english,
                 QStringLiteral("code 1, but the remaining stock is a string, not a number"));
        QCOMPARE(value.anomaly.text, QStringLiteral("代码 1，但剩余库存是 字符串，不是数字"));

        const inventory::KeyReading stock =
            inventory::KeyReading::fromReply(redis::ReplyResult(Reply::integer(3)));
        QCOMPARE(stock.error.english, QStringLiteral("GET answered an integer, not a value (an "
                                                     "anomaly)"));
        QCOMPARE(stock.error.text, QStringLiteral("GET 应答为 整数，而不是值（异常）"));
    }

    // The role check before a deduction or a repair: a reply that is not INFO's text refuses
    // the write, in Chinese in the window and in English for the CLI and the record.
    void aRoleReplyOfTheWrongShapeIsRefusedInChinese()
    {
        const inventory::WriteTargetRole role =
            inventory::writeTargetRole(redis::ReplyResult(Reply::integer(1)));
        QVERIFY(!role.writable());
        QCOMPARE(role.refusal().english,
                 QStringLiteral("refused: could not read the server's role (INFO replication "
                                "answered an integer, not its text), so it is not known to be "
                                "a primary"));
        QCOMPARE(role.refusal().text,
                 QStringLiteral("已拒绝：无法读取服务器的角色（INFO replication 应答为 整数，"
                                "而不是它的文本），因此不能确认它是主节点"));
    }

    // Slots no primary serves: why a Keys scan of a cluster is short.
    void uncoveredSlotsAreNamedInChinese()
    {
        const auto part = redis::ClusterTopology::fromSlots(
            Reply::array({Reply::array({Reply::integer(0), Reply::integer(99),
                                        Reply::array({str("10.0.0.5"), Reply::integer(6379)})})}),
            {}, QStringLiteral("seed"));
        QVERIFY(part.ok());
        const core::Sentence some = part.value().coverageProblem(QStringLiteral("seed:6379"));
        QCOMPARE(some.english, QStringLiteral("16284 of 16384 slots have no primary serving them: "
                                              "their keys cannot be read (is a primary down?)"));
        QCOMPARE(some.text, QStringLiteral("16384 个槽中有 16284 个没有主节点负责：其中的键无法"
                                           "读取（有主节点宕机了吗？）"));

        const core::Sentence none =
            redis::ClusterTopology().coverageProblem(QStringLiteral("seed:6379"));
        QCOMPARE(none.english, QStringLiteral("no primary of the cluster at seed:6379 serves a "
                                              "slot (a node not yet in a formed cluster?): there "
                                              "is nothing to read"));
        QCOMPARE(none.text, QStringLiteral("seed:6379 处的集群没有任何主节点负责槽（该节点尚未加入"
                                           "已组建的集群？）：没有可读取的内容"));
    }

    // A node of the library matrix the console has no connection to.
    void aNodeWithoutAConnectionIsUnreadableInChinese()
    {
        functions::MatrixNode unconnected;
        unconnected.address = QStringLiteral("10.0.0.7:6379");
        std::optional<functions::LibraryMatrix> read;
        functions::readLibraryMatrix({unconnected}, this, 1000,
                                     [&](const functions::LibraryMatrix &m) { read = m; });
        QVERIFY(read);
        QCOMPARE(read->unreadable(core::Wording::English),
                 QStringList{QStringLiteral(
                     "could not read FUNCTION LIST on 10.0.0.7:6379: no connection to this node")});
        QCOMPARE(read->unreadable(core::Wording::Translated),
                 QStringList{QStringLiteral("无法读取 10.0.0.7:6379 上的 FUNCTION LIST：没有到该"
                                            "节点的连接")});
    }

    // Reconcile reads a release key with EXISTS and gets neither 0 nor 1: it could not check,
    // in Chinese in the window and in English for the CLI and --json.
    void anUnreadableReleaseKeyStopsReconcileInChinese()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile csv(dir.filePath(QStringLiteral("ledger.csv")));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("order_id,sku,quantity,state\no-failed,a,1,failed\n");
        csv.close();
        browse::KeyspaceStore store;
        browse::ReceiptReading receipt;
        receipt.remaining = 5;
        store.putReceipt(store.internSku("a"), "o-failed", receipt);
        auto source = ledger::openLedger(ledger::LedgerSpec::parse(csv.fileName()).value());
        QVERIFY(source.ok());
        SameAnswer seven(Reply::integer(7));
        reconcile::RunOptions options;
        options.scope.nowMs = QDateTime::currentMSecsSinceEpoch();
        ui::ReconcileResult result;
        result.outcome = reconcile::runReconcile(*source.value(), store, seven,
                                                 reconcile::ReceiptPolicy{604800, {}}, options,
                                                 [](const reconcile::Finding &) {});
        QVERIFY(result.couldNotCheck());
        QCOMPARE(result.outcome.problem(),
                 QStringLiteral("could not read the release keys: EXISTS rel:{a}:o-failed: "
                                "answered 7"));
        QCOMPARE(result.problem(),
                 QStringLiteral("无法读取释放键：EXISTS rel:{a}:o-failed：应答为 7"));
    }
};

QTEST_MAIN(TstReplyErrorsZh)
#include "tst_reply_errors_zh.moc"
