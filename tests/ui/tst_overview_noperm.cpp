// SPDX-License-Identifier: GPL-3.0-or-later
// The overview as a user allowed only FCALL (`support`): every read it may not run is named,
// with the user, in one banner, and the values those reads fill say "not allowed" instead of
// a refresh error. A malformed INFO reply is a read failure, never a possible write.
#include "AclUsers.h"
#include "RedisFixture.h"
#include "overview/OverviewPoller.h"
#include "ui/ConnectionStatusWidget.h"
#include "ui/ServerOverviewPanel.h"

#include <QLabel>
#include <QTest>

using testsupport::StandaloneRedis;

class TstOverviewNoperm : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;

    // One refresh: the overview, or nullopt after a failure (or none in 10 s).
    static std::optional<overview::ServerOverview> refresh(overview::OverviewPoller &poller)
    {
        std::optional<overview::ServerOverview> got;
        bool done = false;
        connect(&poller, &overview::OverviewPoller::refreshed, &poller,
                [&](const overview::ServerOverview &o) {
                    got = o;
                    done = true;
                });
        connect(&poller, &overview::OverviewPoller::failed, &poller, [&] { done = true; });
        poller.refreshNow();
        if (!QTest::qWaitFor([&] { return done; }, 10000))
            qWarning("no overview in 10 s");
        poller.disconnect();
        return got;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        auto admin = m_redis.connect();
        QVERIFY(testsupport::createSupportAndReleaseUsers(*admin));
    }

    void deniedReadsAreNamedWithTheUser()
    {
        auto support = m_redis.connect(testsupport::optionsAs(m_redis.options(), "support"));
        overview::OverviewPoller poller(*support);
        poller.setUser("support");
        const auto got = refresh(poller);
        QVERIFY(got);
        const overview::ServerOverview o = *got;
        QCOMPARE(o.user, QStringLiteral("support"));
        QCOMPARE(o.deniedReads, (QStringList{"INFO", "DBSIZE", "CONFIG GET", "FUNCTION LIST"}));
        QVERIFY(o.librariesError.isEmpty()); // said once, in the banner, not as an error

        ui::ServerOverviewPanel panel;
        panel.setOverview(o, QDateTime::currentDateTime());
        const QString banner = panel.deniedText();
        QVERIFY2(banner.contains("User 'support' may not run INFO, DBSIZE, CONFIG GET, "
                                 "FUNCTION LIST (NOPERM)")
                     && banner.contains("+info +dbsize +config|get +function|list"),
                 qPrintable(banner));
        QCOMPARE(panel.findChild<QLabel *>("versionValue")->text(),
                 QStringLiteral("not allowed for user support"));
        QCOMPARE(panel.findChild<QLabel *>("keyCountValue")->text(),
                 QStringLiteral("not allowed for user support"));
        QVERIFY(panel.findChild<QLabel *>("overviewError")->isHidden());

        // The status bar says the same instead of "Redis – mode – role –".
        ui::ConnectionStatusWidget status;
        status.setServer(o);
        QCOMPARE(status.findChild<QLabel *>("serverVersion")->text(),
                 QStringLiteral("Redis: INFO not allowed for support"));
        QVERIFY(status.findChild<QLabel *>("serverMode")->isHidden());
    }

    void aUserThatMayReadSeesNoBanner()
    {
        auto admin = m_redis.connect();
        overview::OverviewPoller poller(*admin);
        const auto got = refresh(poller);
        QVERIFY(got);
        const overview::ServerOverview o = *got;
        QVERIFY(o.deniedReads.isEmpty());
        QCOMPARE(o.user, QStringLiteral("default"));
        ui::ServerOverviewPanel panel;
        panel.setOverview(o, QDateTime::currentDateTime());
        QVERIFY(panel.deniedText().isEmpty());
        QVERIFY(!panel.findChild<QLabel *>("versionValue")->text().contains("not allowed"));
    }

    // Issue 28: a restart between two overviews (a new run_id behind the same address) is
    // said, with what it means for receipts, and stays said.
    void aRestartBetweenOverviewsIsSaid()
    {
        StandaloneRedis redis;
        QVERIFY2(redis.start(), qPrintable(redis.errorString()));
        ui::ServerOverviewPanel panel;
        {
            auto c = redis.connect();
            overview::OverviewPoller poller(*c);
            const auto first = refresh(poller);
            QVERIFY(first);
            panel.setOverview(*first, QDateTime::currentDateTime());
            QVERIFY(panel.identityText().isEmpty());
            panel.setOverview(*first, QDateTime::currentDateTime());
            QVERIFY(panel.identityText().isEmpty()); // the same server: nothing to say
        }
        QVERIFY(redis.restart());
        auto c = redis.connect();
        overview::OverviewPoller poller(*c);
        const auto second = refresh(poller);
        QVERIFY(second);
        panel.setOverview(*second, QDateTime::currentDateTime());
        const QString said = panel.identityText();
        QVERIFY2(said.contains("restarted or was replaced: its run_id changed from ")
                     && said.contains(second->runId.left(8))
                     && said.contains("AOF is off: receipts written before it are gone"),
                 qPrintable(said));
        panel.setOverview(*second, QDateTime::currentDateTime());
        QCOMPARE(panel.identityText(), said);
    }

    void aMalformedInfoReplyIsNotAWrite()
    {
        const QList<redis::ReplyResult> replies{redis::Reply::integer(1), redis::Reply::integer(0),
                                                redis::Reply::integer(0), redis::Reply::integer(0)};
        const auto o = overview::decodeOverview(replies);
        QVERIFY(!o.ok());
        // The server answered, with something an INFO never is: a read's failure, said as one.
        QCOMPARE(o.error().kind, redis::RedisError::Kind::Unexpected);
        QCOMPARE(o.error().delivery, redis::RedisError::Delivery::Answered);
        QVERIFY2(!o.error().readFailure().english.contains(QLatin1String("may or may not")),
                 qPrintable(o.error().readFailure().english));
    }
};

QTEST_MAIN(TstOverviewNoperm)
#include "tst_overview_noperm.moc"
