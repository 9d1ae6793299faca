#include "redis/RespCodec.h"

#include <QTest>

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
