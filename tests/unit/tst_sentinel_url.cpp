// SPDX-License-Identifier: GPL-3.0-or-later
#include "sentinel/SentinelUrl.h"

#include <QTest>

using sentinel::NodeAddress;
using sentinel::parseSentinelUrl;

namespace {
// "host:port,host:port" of a parsed URL, to compare in one column.
QString hosts(const sentinel::SentinelUrl &url)
{
    QStringList out;
    for (const NodeAddress &a : url.sentinels)
        out << a.toString();
    return out.join(QLatin1Char(','));
}
} // namespace

class TstSentinelUrl : public QObject
{
    Q_OBJECT

private slots:
    void accepted_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("sentinels");
        QTest::addColumn<QString>("master");
        QTest::addColumn<int>("db");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("password");
        QTest::addColumn<bool>("tls");

        QTest::newRow("one sentinel, default port") << "redis-sentinel://s1#mymaster"
                                                    << "s1:26379"
                                                    << "mymaster" << 0 << ""
                                                    << "" << false;
        QTest::newRow("three sentinels, mixed ports")
            << "redis-sentinel://a:26380,b,10.0.0.3:5000#orders"
            << "a:26380,b:26379,10.0.0.3:5000"
            << "orders" << 0 << ""
            << "" << false;
        QTest::newRow("database in the path") << "redis-sentinel://a:1/3#m"
                                              << "a:1"
                                              << "m" << 3 << ""
                                              << "" << false;
        QTest::newRow("trailing slash") << "redis-sentinel://a/#m"
                                        << "a:26379"
                                        << "m" << 0 << ""
                                        << "" << false;
        QTest::newRow("query database wins over the path") << "redis-sentinel://a/3?database=5#m"
                                                           << "a:26379"
                                                           << "m" << 5 << ""
                                                           << "" << false;
        QTest::newRow("db alias") << "redis-sentinel://a?db=7#m"
                                  << "a:26379"
                                  << "m" << 7 << ""
                                  << "" << false;
        QTest::newRow("sentinelMasterId instead of the fragment")
            << "redis-sentinel://a:26379?sentinelMasterId=orders"
            << "a:26379"
            << "orders" << 0 << ""
            << "" << false;
        QTest::newRow("sentinelMasterId equal to the fragment")
            << "redis-sentinel://a?sentinelMasterId=orders#orders"
            << "a:26379"
            << "orders" << 0 << ""
            << "" << false;
        QTest::newRow("user and password") << "redis-sentinel://alice:s3cret@a,b#m"
                                           << "a:26379,b:26379"
                                           << "m" << 0 << "alice"
                                           << "s3cret" << false;
        QTest::newRow("password only") << "redis-sentinel://:pw@a#m"
                                       << "a:26379"
                                       << "m" << 0 << ""
                                       << "pw" << false;
        QTest::newRow("password with @ / ? #") << "redis-sentinel://u:p@s/s?x#y@a:1#m"
                                               << "a:1"
                                               << "m" << 0 << "u"
                                               << "p@s/s?x#y" << false;
        QTest::newRow("percent-encoded credentials") << "redis-sentinel://al%2Bice:p%25w@a#m"
                                                     << "a:26379"
                                                     << "m" << 0 << "al+ice"
                                                     << "p%w" << false;
        QTest::newRow("IPv6 sentinels") << "redis-sentinel://[::1]:26380,[fe80::1]#m"
                                        << "[::1]:26380,[fe80::1]:26379"
                                        << "m" << 0 << ""
                                        << "" << false;
        QTest::newRow("TLS scheme") << "rediss-sentinel://a#m"
                                    << "a:26379"
                                    << "m" << 0 << ""
                                    << "" << true;
        QTest::newRow("scheme in capitals") << "REDIS-SENTINEL://a#m"
                                            << "a:26379"
                                            << "m" << 0 << ""
                                            << "" << false;
        QTest::newRow("surrounding spaces") << "  redis-sentinel://a#m \n"
                                            << "a:26379"
                                            << "m" << 0 << ""
                                            << "" << false;
        QTest::newRow("percent-encoded master name") << "redis-sentinel://a#team%40orders"
                                                     << "a:26379"
                                                     << "team@orders" << 0 << ""
                                                     << "" << false;
        QTest::newRow("highest port") << "redis-sentinel://a:65535#m"
                                      << "a:65535"
                                      << "m" << 0 << ""
                                      << "" << false;
    }
    void accepted()
    {
        QFETCH(QString, url);
        const auto parsed = parseSentinelUrl(url);
        QVERIFY2(parsed.ok(), qPrintable(parsed.ok() ? QString() : parsed.error()));
        QTEST(hosts(parsed.value()), "sentinels");
        QTEST(parsed->masterName, "master");
        QTEST(parsed->database, "db");
        QTEST(parsed->username, "user");
        QTEST(parsed->password, "password");
        QTEST(parsed->tls, "tls");
        QVERIFY(sentinel::isSentinelUrl(url));
    }

    void refused_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("says");

        QTest::newRow("plain redis URL") << "redis://a:6379"
                                         << "not a sentinel URL";
        QTest::newRow("no master name") << "redis-sentinel://a:26379"
                                        << "no master name: end the URL with #master-name";
        QTest::newRow("empty fragment") << "redis-sentinel://a#"
                                        << "no master name";
        QTest::newRow("two master names") << "redis-sentinel://a?sentinelMasterId=x#y"
                                          << "two master names: #y and sentinelMasterId=x";
        QTest::newRow("no host") << "redis-sentinel://#m"
                                 << "names no sentinel";
        QTest::newRow("empty entry in the list") << "redis-sentinel://a,,b#m"
                                                 << "sentinel 2 in the host list is empty";
        QTest::newRow("trailing comma") << "redis-sentinel://a,#m"
                                        << "sentinel 2 in the host list is empty";
        QTest::newRow("port without host") << "redis-sentinel://:26379#m"
                                           << "sentinel 1 has no host before its port";
        QTest::newRow("port zero") << "redis-sentinel://a:0#m"
                                   << "sentinel 1 (a): the port must be a number from 1 to 65535";
        QTest::newRow("port too high") << "redis-sentinel://a,b:65536#m"
                                       << "sentinel 2 (b): the port must be a number";
        QTest::newRow("port not a number") << "redis-sentinel://a:x1#m"
                                           << "the port must be a number";
        QTest::newRow("empty port") << "redis-sentinel://a:#m"
                                    << "the port must be a number";
        QTest::newRow("bare IPv6") << "redis-sentinel://::1#m"
                                   << "an IPv6 address goes in brackets";
        QTest::newRow("bad IPv6") << "redis-sentinel://[zz]:1#m"
                                  << "an IPv6 address goes in brackets";
        QTest::newRow("text after IPv6") << "redis-sentinel://[::1]x#m"
                                         << "write [address]:port";
        QTest::newRow("bad host name") << "redis-sentinel://a b#m"
                                       << "'a b' is not a host name or an IP address";
        QTest::newRow("same sentinel twice") << "redis-sentinel://a:1,a:1#m"
                                             << "sentinel 2 (a:1) is listed twice";
        QTest::newRow("too many sentinels")
            << "redis-sentinel://h1,h2,h3,h4,h5,h6,h7,h8,h9,h10,h11,h12,h13,h14,h15,h16,h17#m"
            << "17 sentinels given: at most 16";
        QTest::newRow("master name in the path") << "redis-sentinel://a:26379/mymaster"
                                                 << "'/mymaster' is not a database number";
        QTest::newRow("database too high") << "redis-sentinel://a/70000#m"
                                           << "is not a database number";
        QTest::newRow("bad query database") << "redis-sentinel://a?db=x#m"
                                            << "db: the database must be a number";
        QTest::newRow("unknown parameter") << "redis-sentinel://a?timeout=5s#m"
                                           << "unknown parameter 'timeout'";
        QTest::newRow("bare word before @") << "redis-sentinel://secretword@a#m"
                                            << "the text before '@' has no ':'";
        QTest::newRow("bad escape in password") << "redis-sentinel://u:50%@a#m"
                                                << "invalid percent-encoding in the password";
        QTest::newRow("space in master name") << "redis-sentinel://a#my master"
                                              << "without spaces or control characters";
        QTest::newRow("space in user name") << "redis-sentinel://a%20b:pw@a#m"
                                            << "the user name must not contain spaces";
    }
    void refused()
    {
        QFETCH(QString, url);
        QFETCH(QString, says);
        const auto parsed = parseSentinelUrl(url);
        QVERIFY2(!parsed.ok(), qPrintable(url));
        QVERIFY2(parsed.error().contains(says), qPrintable(parsed.error()));
    }

    // A refusal never repeats a password, whatever part of the URL was wrong.
    void errorsNeverHoldThePassword_data()
    {
        QTest::addColumn<QString>("url");
        QTest::newRow("bad port") << "redis-sentinel://u:Hunter2Pw@a:99999#m";
        QTest::newRow("no master") << "redis-sentinel://u:Hunter2Pw@a";
        QTest::newRow("bad db") << "redis-sentinel://:Hunter2Pw@a/x#m";
        QTest::newRow("bad host") << "redis-sentinel://:Hunter2Pw@a%#m";
        QTest::newRow("password-looking word") << "redis-sentinel://Hunter2Pw@a#m";
        QTest::newRow("password escape") << "redis-sentinel://u:Hunter2Pw%zz@a#m";
    }
    void errorsNeverHoldThePassword()
    {
        QFETCH(QString, url);
        const auto parsed = parseSentinelUrl(url);
        QVERIFY(!parsed.ok());
        QVERIFY2(!parsed.error().contains(QLatin1String("Hunter2Pw")), qPrintable(parsed.error()));
    }

    void printedWithoutPassword()
    {
        const auto parsed = parseSentinelUrl(
            QStringLiteral("rediss-sentinel://alice:Hunter2Pw@a:1,[::1]/2#team%40orders"));
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->toString(),
                 QStringLiteral("rediss-sentinel://alice@a:1,[::1]:26379/2#team%40orders"));
        // The printed form parses back to the same place (without the password).
        const auto again = parseSentinelUrl(
            parsed->toString().replace(QLatin1String("alice@"), QLatin1String("alice:@")));
        QVERIFY(again.ok());
        QCOMPARE(hosts(again.value()), hosts(parsed.value()));
        QCOMPARE(again->masterName, parsed->masterName);
    }
};

QTEST_APPLESS_MAIN(TstSentinelUrl)
#include "tst_sentinel_url.moc"
