// SPDX-License-Identifier: GPL-3.0-or-later
// browse::globMatch filters keys on the console's side with the meaning SCAN MATCH gives the
// same pattern. The server is the reference: every pattern of the table is run through a full
// SCAN MATCH over a set of awkward keys, and globMatch must pick exactly the same keys.
#include "RedisFixture.h"
#include "ServerTest.h"
#include "browse/Glob.h"

#include <QSet>
#include <QTest>

class TstGlobScan : public testsupport::ServerTest
{
    Q_OBJECT

    // Keys holding every character the patterns treat specially, alone and in context,
    // and bytes above 0x7f (the server compares range bounds as signed chars).
    static QList<QByteArray> keys()
    {
        // clang-format off
        return {"", "a", "b", "c", "z", "A", "0", "9", "ab", "abc", "aXc", "a*c", "a?c", "a[c",
                "a]c", "a\\c", "a-c", "a^c", "a!c", "ac", "aac", "]", "[", "-", "\\", "^", "!",
                "*", "?", "x]", "]c", "-a", "!a", "^a", "[]", "\x80", "\xff", "a\x80", "\x7f",
                "aaa", "abcabc", "stock:{1}:available", "stock:{12}:available", "idem:{1}:o-1",
                "idem:{1}:o-2"};
        // clang-format on
    }

    QSet<QByteArray> scanMatch(const QByteArray &pattern)
    {
        QSet<QByteArray> out;
        QByteArray cursor = "0";
        do {
            const redis::ReplyResult r =
                m_c->call({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
            if (!r.ok() || !r->array() || r->size() != 2)
                return {QByteArray("SCAN failed")};
            cursor = *r->at(0).string();
            const auto page = r->at(1).array(); // named: a range-for does not keep it alive
            for (const redis::Reply &k : *page)
                out.insert(*k.string());
        } while (cursor != "0");
        return out;
    }

private slots:
    void initTestCase()
    {
        QCOMPARE(startServer(), QString());
        for (const QByteArray &k : keys())
            QVERIFY(m_c->call({"SET", k, "1"}).ok());
        QCOMPARE(*m_c->call({"DBSIZE"})->integer(), qint64(keys().size()));
    }

    void sameKeysAsScanMatch_data()
    {
        QTest::addColumn<QByteArray>("pattern");
        // clang-format off
        const QList<QByteArray> patterns{
            // stars and question marks
            "*", "**", "***", "", "?", "??", "*?", "?*", "a*", "a**c", "*c", "a*c*", "*a*a*",
            "a?c", "*b*c", "abc*abc",
            // escapes
            "a\\*c", "a\\?c", "a\\[c", "a\\]c", "a\\\\c", "\\a", "a\\", "\\", "\\*", "*\\",
            // classes and ranges
            "[ab]", "[ab]c", "a[a-c]c", "[a-c]", "[c-a]", "[^ab]", "[^a-c]", "[!ab]", "a[!]c",
            "[a-]", "[a-]c", "[-a]", "[a-c-z]", "[]]", "[]a]", "[]]c", "[\\]]", "[\\]]c",
            "[a-\\]]", "[\\-]", "[\\-]a", "[[]", "a[[]c", "a[^]c", "[*]", "[?]", "[\\\\]",
            "[z-a]", "[0-9]", "*[0-9]*", "stock:{[0-9]}:*", "stock:{*}:available",
            // unterminated classes: the rest of the pattern is the class
            "[", "[^", "a[", "a[c", "a[bc", "[a-", "[\\", "*[", "[abc*",
            // bytes above 0x7f
            "[\x80-\xff]", "[a-\xff]", "[\x7f-\x80]", "a[\x80]", "\x80", "[^\x80]",
        };
        // clang-format on
        for (const QByteArray &p : patterns)
            QTest::newRow(p.toPercentEncoding().constData()) << p;
    }

    void sameKeysAsScanMatch()
    {
        QFETCH(QByteArray, pattern);
        const QSet<QByteArray> server = scanMatch(pattern);
        QSet<QByteArray> ours;
        for (const QByteArray &k : keys())
            if (browse::globMatch(pattern, k))
                ours.insert(k);
        const auto shown = [](QSet<QByteArray> s) {
            QList<QByteArray> l(s.begin(), s.end());
            std::sort(l.begin(), l.end());
            QStringList out;
            for (const QByteArray &k : l)
                out << QString::fromLatin1(k.toPercentEncoding());
            return out.join(' ');
        };
        QVERIFY2(ours == server,
                 qPrintable(
                     QStringLiteral("server: [%1]\nglob:   [%2]").arg(shown(server), shown(ours))));
    }
};

QTEST_GUILESS_MAIN(TstGlobScan)
#include "tst_glob_scan.moc"
