// SPDX-License-Identifier: GPL-3.0-or-later
#include "redis/RespCodec.h"

#include <QTest>

#include <sys/resource.h>

using namespace redis;

class TstRespCodec : public QObject
{
    Q_OBJECT

private:
    // Every reply shape the console meets, as raw RESP2 bytes.
    static QByteArray sample()
    {
        static const char raw[] = "+OK\r\n"
                                  ":-42\r\n"
                                  "$-1\r\n"
                                  "$5\r\nhe\r\no\r\n"
                                  "-WRONGTYPE Operation against a key\r\n"
                                  "*3\r\n:1\r\n$0\r\n\r\n*2\r\n$3\r\n\x00\xff\x01\r\n*-1\r\n";
        return QByteArray(raw, sizeof(raw) - 1);
    }

    static void checkSample(const QList<Reply> &r)
    {
        QCOMPARE(r.size(), 6);
        QVERIFY(r[0].isStatus());
        QCOMPARE(r[0].bytes(), QByteArray("OK"));
        QVERIFY(r[1].isInteger());
        QCOMPARE(r[1].toInteger(), -42);
        QVERIFY(r[2].isNil());
        QVERIFY(r[3].isBulk());
        QCOMPARE(r[3].bytes(), QByteArray("he\r\no"));
        QVERIFY(r[4].isError());
        QCOMPARE(r[4].bytes(), QByteArray("WRONGTYPE Operation against a key"));
        QVERIFY(r[5].isArray());
        QCOMPARE(r[5].size(), 3);
        QCOMPARE(r[5].at(0).toInteger(), 1);
        QCOMPARE(r[5].at(1).bytes(), QByteArray(""));
        QVERIFY(r[5].at(1).isBulk());
        QCOMPARE(r[5].at(2).at(0).bytes(), QByteArray("\x00\xff\x01", 3));
        QVERIFY(r[5].at(2).at(1).isNil());
    }

private slots:
    void sampleIsWellFormed() { QVERIFY(sample().endsWith("*-1\r\n")); }

    void wholeBuffer()
    {
        RespDecoder d;
        d.feed(sample());
        QList<Reply> out;
        Reply r;
        while (d.next(&r) == RespDecoder::Status::Complete)
            out << r;
        checkSample(out);
    }

    // The socket can split a reply anywhere: at every byte boundary, in two pieces.
    void splitAtEveryByte()
    {
        const QByteArray all = sample();
        for (qsizetype cut = 0; cut <= all.size(); ++cut) {
            RespDecoder d;
            QList<Reply> out;
            Reply r;
            d.feed(all.left(cut));
            while (d.next(&r) == RespDecoder::Status::Complete)
                out << r;
            d.feed(all.mid(cut));
            RespDecoder::Status s;
            while ((s = d.next(&r)) == RespDecoder::Status::Complete)
                out << r;
            QCOMPARE(s, RespDecoder::Status::NeedMore);
            checkSample(out);
        }
    }

    void oneByteAtATime()
    {
        const QByteArray all = sample();
        RespDecoder d;
        QList<Reply> out;
        Reply r;
        for (char c : all) {
            d.feed(&c, 1);
            while (d.next(&r) == RespDecoder::Status::Complete)
                out << r;
        }
        checkSample(out);
    }

    void garbageIsAProtocolError()
    {
        RespDecoder d;
        d.feed(QByteArray("\x16\x03\x01 not resp"));
        Reply r;
        QCOMPARE(d.next(&r), RespDecoder::Status::Failed);
        QVERIFY(!d.errorString().isEmpty());
        QCOMPARE(d.next(&r), RespDecoder::Status::Failed); // stays failed
    }

    // Counts and lengths come from the server: a reply beyond the limits fails at once, as a
    // protocol error, before anything is sized from it (issue 14: "*2147483647" crashed).
    void hostileCountsAreRefused_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("why");
        QTest::newRow("array of 2^31-1") << QByteArray("*2147483647\r\n") << "limit of 4194304";
        QTest::newRow("array of 10^8") << QByteArray("*100000000\r\n") << "100000000 elements";
        QTest::newRow("nested arrays, each under the limit")
            << QByteArray("*3\r\n*2000000\r\n") + QByteArray(2000000, 'x').replace('x', ":1\r\n")
                   + QByteArray("*2000000\r\n*1000000\r\n")
            << "above the limit";
        QTest::newRow("bulk of 2^31-1") << QByteArray("$2147483647\r\n") << "2147483647 bytes";
        QTest::newRow("bulk of 2^63-1")
            << QByteArray("$9223372036854775807\r\nabc") << "above the limit";
        QTest::newRow("bulk in an array")
            << QByteArray("*2\r\n:1\r\n$600000000\r\n") << "600000000 bytes";
        QTest::newRow("9 nested arrays") << QByteArray("*1\r\n").repeated(9) + ":1\r\n"
                                         << "nested multi bulk replies";
        QTest::newRow("endless status line") << "+" + QByteArray(1100000, 'a') << "without its end";
    }
    void hostileCountsAreRefused()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, why);
        RespDecoder d;
        d.feed(bytes);
        Reply r;
        QCOMPARE(d.next(&r), RespDecoder::Status::Failed);
        QVERIFY2(d.errorString().contains(why), qPrintable(d.errorString()));
    }

    // Within the limits, a count is only a promise: nothing is reserved for it, and the
    // elements that do arrive are decoded as usual. Before the fix "*4000000" alone allocated
    // four million replies (some 256 MB).
    void announcedCountsAllocateNothing()
    {
        const auto peakKb = [] {
            rusage u{};
            getrusage(RUSAGE_SELF, &u);
            return qint64(u.ru_maxrss);
        };
        const qint64 before = peakKb();
        RespDecoder d;
        d.feed(QByteArray("*4000000\r\n:7\r\n$2\r\nok\r\n"));
        Reply r;
        QCOMPARE(d.next(&r), RespDecoder::Status::NeedMore);
        QVERIFY2(peakKb() - before < 64 * 1024,
                 qPrintable(QStringLiteral("peak grew by %1 kB").arg(peakKb() - before)));
        RespDecoder small;
        small.feed("*2\r\n" + QByteArray("*1\r\n").repeated(7) + ":5\r\n$-1\r\n");
        QCOMPARE(small.next(&r), RespDecoder::Status::Complete); // 8 levels: hiredis's most
        QCOMPARE(r.size(), 2);
        QCOMPARE(r.at(0).at(0).at(0).at(0).at(0).at(0).at(0).at(0).toInteger(), 5);
        QVERIFY(r.at(1).isNil());
    }

    void encodeIsBinarySafe()
    {
        const QByteArray enc = encodeCommand({"SET", QByteArray("k\r\n", 3), QByteArray("\0v", 2)});
        QCOMPARE(enc, QByteArray("*3\r\n$3\r\nSET\r\n$3\r\nk\r\n\r\n$2\r\n\0v\r\n", 30));
    }

    void encoderMatchesHiredis()
    {
        QList<Command> cases{{"PING"},
                             {"SET", "k", ""},
                             {"SET", QByteArray(1000, 'x'), QByteArray(70000, '\0')},
                             {"FCALL", "inventory_deduct_v1", "2", "stock:{42}:available",
                              "idem:{42}:9001", "3", "604800"}};
        for (int i = 0; i < 300; ++i)
            cases << Command{"ECHO", QByteArray(i, char(i))};
        for (const Command &c : cases)
            QCOMPARE(encodeCommand(c), encodeCommandWithHiredis(c));
    }

    void serverErrorKeepsItsCode()
    {
        QCOMPARE(RedisError::fromServer("NOSCRIPT No matching script").code,
                 QByteArray("NOSCRIPT"));
        QCOMPARE(RedisError::fromServer("MOVED 3999 127.0.0.1:6381").code, QByteArray("MOVED"));
        QCOMPARE(RedisError::fromServer("oops lowercase").code, QByteArray("ERR"));
    }
};

QTEST_GUILESS_MAIN(TstRespCodec)
#include "tst_resp_codec.moc"
