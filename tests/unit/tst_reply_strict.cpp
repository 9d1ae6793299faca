// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/CanonicalInteger.h"
#include "redis/Reply.h"

#include <QTest>

using namespace redis;

// Decoders read replies through the strict accessors: a reply of another shape is a
// Protocol error that says what was expected and what came, never a 0 or an empty string.
class TstReplyStrict : public QObject
{
    Q_OBJECT

private slots:
    void eachReadTakesItsOwnShape()
    {
        QCOMPARE(Reply::integer(-42).integer().value(), -42);
        QCOMPARE(Reply::bulk("abc").string().value(), QByteArray("abc"));
        QCOMPARE(Reply::status("OK").string().value(), QByteArray("OK"));
        QCOMPARE(Reply::bulk("17").number().value(), 17);
        QCOMPARE(Reply::integer(17).number().value(), 17);
        const Reply a = Reply::array({Reply::integer(1), Reply::bulk("x")});
        QCOMPARE(a.array().value().size(), 2);
        QCOMPARE(a.element(1).value().string().value(), QByteArray("x"));
    }

    void wrongShapesSayWhatCame_data()
    {
        QTest::addColumn<Reply>("reply");
        QTest::addColumn<int>("read");
        QTest::addColumn<QString>("message");
        enum { Integer, Number, String, Array, Element2 };
        QTest::newRow("bulk as integer") << Reply::bulk("abc") << int(Integer)
                                         << "expected an integer, got a bulk string \"abc\"";
        QTest::newRow("canonical bulk is still not an integer")
            << Reply::bulk("5") << int(Integer) << "expected an integer, got a bulk string \"5\"";
        QTest::newRow("nil as integer")
            << Reply::nil() << int(Integer) << "expected an integer, got nil";
        QTest::newRow("leading zero as number")
            << Reply::bulk("007") << int(Number)
            << "expected an integer or a canonical integer string, got a bulk string \"007\"";
        QTest::newRow("integer as string")
            << Reply::integer(5) << int(String) << "expected a string, got an integer 5";
        QTest::newRow("error as string") << Reply::error("ERR no") << int(String)
                                         << "expected a string, got an error reply ERR no";
        QTest::newRow("status as array")
            << Reply::status("OK") << int(Array) << "expected an array, got a status OK";
        QTest::newRow("index past the end")
            << Reply::array({Reply::integer(1)}) << int(Element2)
            << "expected an array with an element at index 2, got an array of 1";
        QTest::newRow("index into a string")
            << Reply::bulk("x") << int(Element2)
            << "expected an array with an element at index 2, got a bulk string \"x\"";
    }

    void wrongShapesSayWhatCame()
    {
        QFETCH(Reply, reply);
        QFETCH(int, read);
        QFETCH(QString, message);
        const RedisError e = [&] {
            switch (read) {
            case 0:
                return reply.integer().error();
            case 1:
                return reply.number().error();
            case 2:
                return reply.string().error();
            case 3:
                return reply.array().error();
            default:
                return reply.element(2).error();
            }
        }();
        QCOMPARE(e.kind, RedisError::Kind::Unexpected);
        QCOMPARE(e.message.english, message);
        QCOMPARE(e.delivery, RedisError::Delivery::Answered);
    }

    // at(i) past the end (or on a non-array) is a nil reply, never memory that is not there.
    void atIsChecked()
    {
        const Reply a = Reply::array({Reply::integer(1)});
        QCOMPARE(a.at(0).integer().value(), 1);
        QVERIFY(a.at(1).isNil());
        QVERIFY(a.at(-1).isNil());
        QVERIFY(Reply::bulk("x").at(0).isNil());
    }

    void longValuesAreShortenedInTheMessage()
    {
        const RedisError e = Reply::bulk(QByteArray(500, 'x')).integer().error();
        QVERIFY2(e.message.english.size() < 120, qPrintable(e.message.english));
    }

    void canonicalIntegerShapeIgnoresRange()
    {
        QVERIFY(core::hasCanonicalIntegerShape("-99999999999999999999999"));
        QVERIFY(!core::parseCanonicalInteger("-99999999999999999999999"));
        QCOMPARE(core::parseCanonicalInteger("-9223372036854775808"),
                 std::optional<qint64>(std::numeric_limits<qint64>::min()));
        for (const char *bad : {"", "-", "-0", "01", "+1", " 1"})
            QVERIFY2(!core::hasCanonicalIntegerShape(bad), bad);
    }
};

QTEST_GUILESS_MAIN(TstReplyStrict)
#include "tst_reply_strict.moc"
