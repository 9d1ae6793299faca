// SPDX-License-Identifier: GPL-3.0-or-later
#include "profiles/RedisUrl.h"

#include <QTest>

using profiles::parseRedisUrl;
using profiles::UrlError;

class TstUrl : public QObject
{
    Q_OBJECT

private slots:
    void accepted_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<int>("db");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("password");
        QTest::addColumn<bool>("hasPassword");
        QTest::addColumn<bool>("tls");

        QTest::newRow("host only") << "redis://example.com"
                                   << "example.com" << 6379 << 0 << ""
                                   << "" << false << false;
        QTest::newRow("host port") << "redis://10.0.0.5:6380"
                                   << "10.0.0.5" << 6380 << 0 << ""
                                   << "" << false << false;
        QTest::newRow("trailing slash") << "redis://h:1/"
                                        << "h" << 1 << 0 << ""
                                        << "" << false << false;
        QTest::newRow("db in path") << "redis://h:7000/3"
                                    << "h" << 7000 << 3 << ""
                                    << "" << false << false;
        QTest::newRow("db in query") << "redis://h?db=5"
                                     << "h" << 6379 << 5 << ""
                                     << "" << false << false;
        QTest::newRow("user and password") << "redis://alice:s3cret@cache.local:6390/2"
                                           << "cache.local" << 6390 << 2 << "alice"
                                           << "s3cret" << true << false;
        QTest::newRow("password only") << "redis://:pw@h"
                                       << "h" << 6379 << 0 << ""
                                       << "pw" << true << false;
        QTest::newRow("user only") << "redis://bob@h"
                                   << "h" << 6379 << 0 << "bob"
                                   << "" << false << false;
        QTest::newRow("empty password set") << "redis://bob:@h"
                                            << "h" << 6379 << 0 << "bob"
                                            << "" << true << false;
        QTest::newRow("percent-decoded") << "redis://al%40ice:p%3Aw%2Fd%25@h"
                                         << "h" << 6379 << 0 << "al@ice"
                                         << "p:w/d%" << true << false;
        QTest::newRow("utf8 password")
            << "redis://u:%C3%A9t%C3%A9@h"
            << "h" << 6379 << 0 << "u" << QString::fromUtf8("été") << true << false;
        QTest::newRow("raw @ / ? # in password") << "redis://u:a@b/c?d#e@h:6381/1"
                                                 << "h" << 6381 << 1 << "u"
                                                 << "a@b/c?d#e" << true << false;
        QTest::newRow("colon in password") << "redis://u:a:b:c@h"
                                           << "h" << 6379 << 0 << "u"
                                           << "a:b:c" << true << false;
        QTest::newRow("rediss") << "rediss://h:6380"
                                << "h" << 6380 << 0 << ""
                                << "" << false << true;
        QTest::newRow("scheme case") << "REDISS://h"
                                     << "h" << 6379 << 0 << ""
                                     << "" << false << true;
        QTest::newRow("ipv6") << "redis://[::1]:6390/4"
                              << "::1" << 6390 << 4 << ""
                              << "" << false << false;
        QTest::newRow("ipv6 no port") << "rediss://u:p@[2001:db8::7]"
                                      << "2001:db8::7" << 6379 << 0 << "u"
                                      << "p" << true << true;
        QTest::newRow("spaces around") << "  redis://h:1  "
                                       << "h" << 1 << 0 << ""
                                       << "" << false << false;
        QTest::newRow("fragment ignored") << "redis://h:2/1#x"
                                          << "h" << 2 << 1 << ""
                                          << "" << false << false;
        QTest::newRow("max port") << "redis://h:65535"
                                  << "h" << 65535 << 0 << ""
                                  << "" << false << false;
    }

    void accepted()
    {
        QFETCH(QString, url);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(int, db);
        QFETCH(QString, user);
        QFETCH(QString, password);
        QFETCH(bool, hasPassword);
        QFETCH(bool, tls);
        const auto r = parseRedisUrl(url);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->profile.host, host);
        QCOMPARE(r->profile.port, port);
        QCOMPARE(r->profile.database, db);
        QCOMPARE(r->profile.username, user);
        QCOMPARE(r->password, password);
        QCOMPARE(r->hasPassword, hasPassword);
        QCOMPARE(r->profile.tls.enabled, tls);
        QVERIFY(r->profile.tls.verifyPeer); // verification stays on
        // What a URL cannot say keeps the defaults.
        // No label: the host decides (a URL never says which environment it is).
        QVERIFY(!r->profile.isLabelled());
        QCOMPARE(r->profile.environmentKind(), profiles::defaultEnvironmentForHost(host));
        QCOMPARE(r->profile.receiptTtlSeconds, qint64(604800));
    }

    void refused_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<int>("part");
        QTest::addColumn<QString>("mentions");

        const int Url = int(UrlError::Part::Url), Scheme = int(UrlError::Part::Scheme),
                  Host = int(UrlError::Part::Host), Port = int(UrlError::Part::Port),
                  Db = int(UrlError::Part::Database), Query = int(UrlError::Part::Query),
                  User = int(UrlError::Part::UserInfo);
        QTest::newRow("empty") << "" << Url << "redis://";
        QTest::newRow("no scheme") << "localhost:6379" << Url << "redis://";
        QTest::newRow("http") << "http://u:topsecret@h" << Scheme << "'http'";
        QTest::newRow("unix") << "unix:///tmp/redis.sock" << Scheme << "rediss://";
        QTest::newRow("port text") << "redis://u:topsecret@h:abc" << Port << "1 to 65535";
        QTest::newRow("port zero") << "redis://h:0" << Port << "1 to 65535";
        QTest::newRow("port too big") << "redis://u:topsecret@h:65536" << Port << "1 to 65535";
        QTest::newRow("port negative") << "redis://h:-1" << Port << "port";
        QTest::newRow("port empty") << "redis://h:" << Port << "port";
        QTest::newRow("port huge") << "redis://h:99999999999" << Port << "port";
        QTest::newRow("no host") << "redis://u:topsecret@:6379" << Host << "no host";
        QTest::newRow("nothing") << "redis://" << Host << "no host";
        QTest::newRow("bad host") << "redis://u:topsecret@bad host" << Host << "host";
        QTest::newRow("ipv6 unbracketed") << "redis://::1:6379" << Host << "brackets";
        QTest::newRow("ipv6 unclosed") << "redis://[::1:6379" << Host << "']'";
        QTest::newRow("ipv6 bogus") << "redis://[zz::1]:6379" << Host << "IPv6";
        QTest::newRow("ipv6 junk") << "redis://[::1]x" << Host << "[address]:port";
        QTest::newRow("db text") << "redis://u:topsecret@h/abc" << Db << "database";
        QTest::newRow("db negative") << "redis://h/-1" << Db << "database";
        QTest::newRow("db too big") << "redis://h/70000" << Db << "database";
        QTest::newRow("db twice") << "redis://h/1?db=2" << Db << "twice";
        QTest::newRow("db query empty") << "redis://h?db=" << Db << "database";
        QTest::newRow("unknown option") << "redis://h?ssl=true" << Query << "'ssl'";
        QTest::newRow("bad escape in password") << "redis://u:top%zzsecret@h" << User << "percent";
        QTest::newRow("bad escape in user") << "redis://u%4:topsecret@h" << User << "percent";
        QTest::newRow("space in user") << "redis://a%20b:topsecret@h" << User << "spaces";
    }

    void refused()
    {
        QFETCH(QString, url);
        QFETCH(int, part);
        QFETCH(QString, mentions);
        const auto r = parseRedisUrl(url);
        QVERIFY(!r.ok());
        QCOMPARE(int(r.error().part), part);
        QVERIFY2(r.error().message.contains(mentions), qPrintable(r.error().message));
        // Never the password, nor the URL that carries it.
        QVERIFY2(!r.error().message.contains(QLatin1String("topsecret")),
                 qPrintable(r.error().message));
        QVERIFY2(!r.error().message.contains(QLatin1String("top%zz")),
                 qPrintable(r.error().message));
    }

    // A URL typed without its '@' must not show the would-be password as a port.
    void mistypedPasswordNotEchoed()
    {
        const auto r = parseRedisUrl(QStringLiteral("redis://admin:hunter2secret"));
        QVERIFY(!r.ok());
        QVERIFY2(!r.error().message.contains(QLatin1String("hunter2")),
                 qPrintable(r.error().message));
    }

    void roundTripWithoutPassword()
    {
        profiles::ConnectionProfile p;
        p.host = QStringLiteral("::1");
        p.port = 6380;
        p.database = 2;
        p.username = QStringLiteral("al@ice");
        p.tls.enabled = true;
        const QString url = profiles::toRedisUrl(p);
        QCOMPARE(url, QStringLiteral("rediss://al%40ice@[::1]:6380/2"));
        const auto back = parseRedisUrl(url);
        QVERIFY(back.ok());
        QCOMPARE(back->profile.host, p.host);
        QCOMPARE(back->profile.port, p.port);
        QCOMPARE(back->profile.database, p.database);
        QCOMPARE(back->profile.username, p.username);
        QVERIFY(back->profile.tls.enabled);
        QVERIFY(!back->hasPassword);
    }

    void parsedProfileIsValidOnceNamed()
    {
        auto r = parseRedisUrl(QStringLiteral("rediss://u:p@[::1]:7000/9"));
        QVERIFY(r.ok());
        auto p = r->profile;
        p.name = QStringLiteral("from url");
        QVERIFY(p.validate().isEmpty());
        const auto o = p.toConnectionOptions(r->password);
        QCOMPARE(o.address(), QStringLiteral("[::1]:7000"));
        QCOMPARE(o.password, QStringLiteral("p"));
        QCOMPARE(o.database, 9);
        QVERIFY(o.tls.enabled && o.tls.verifyPeer);
    }
};

QTEST_GUILESS_MAIN(TstUrl)
#include "tst_url.moc"
