// SPDX-License-Identifier: GPL-3.0-or-later
// The scan pace against a real redis-server: a capped scan never walks faster than its cap,
// the environment label picks the pace, and inventory-cli keys/order take --scan-rate and
// refuse a bad value before connecting.
#include "CliRunner.h"
#include "ServerTest.h"
#include "tst_browse_support.h"

#include "browse/KeyspaceScanner.h"
#include "browse/ScanPace.h"

#include <QElapsedTimer>

using namespace browse;
using browsetest::seed;
using browsetest::setString;

namespace {

// Records, for every page, when it came and how many keys had come until then.
class TimedPages : public PageHandler
{
public:
    std::optional<PageRequest> plan(const QList<QByteArray> &keys) override
    {
        keys_ += keys.size();
        pages.append({clock.elapsed(), keys_});
        return std::nullopt;
    }
    struct Page
    {
        qint64 ms;
        qint64 keysSoFar;
    };
    QElapsedTimer clock;
    QList<Page> pages;

private:
    qint64 keys_ = 0;
};

// COUNT 100, one page in flight, at most keysPerSecond.
KeyspaceScanner::Options paced(qint64 keysPerSecond)
{
    KeyspaceScanner::Options o;
    o.count = 100;
    o.pagesInFlight = 1;
    o.keysPerSecond = keysPerSecond;
    return o;
}

std::shared_ptr<TimedPages> startTimed(KeyspaceScanner &scanner, const KeyspaceScanner::Options &o)
{
    auto pages = std::make_shared<TimedPages>();
    pages->clock.start();
    scanner.start(o, pages);
    return pages;
}

} // namespace

class TstScanPace : public testsupport::ServerTest
{
    Q_OBJECT

    QString m_url;

private slots:
    void initTestCase()
    {
        QCOMPARE(startServer(), QString());
        m_url = QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port());
        QList<redis::Command> c;
        for (int i = 0; i < 3000; ++i) {
            const QByteArray sku = "p-" + QByteArray::number(i);
            c << setString("stock:{" + sku + "}:available", "10");
        }
        c << setString("idem:{p-7}:9001", "9", 3600000);
        QCOMPARE(seed(*m_c, c), QString());
    }

    void productionIsGentleEverythingElseFast()
    {
        const ScanPace prod = ScanPace::forEnvironment(profiles::Environment::Production);
        QVERIFY(prod.isGentle());
        QCOMPARE(prod.keysPerSecond, ScanPace::DefaultGentleKeysPerSecond);
        QCOMPARE(prod.pagesInFlight, 1);
        for (auto env : {profiles::Environment::Local, profiles::Environment::Test,
                         profiles::Environment::Staging}) {
            const ScanPace p = ScanPace::forEnvironment(env);
            QVERIFY(!p.isGentle());
            QCOMPARE(p.keysPerSecond, 0);
            QVERIFY(p.pagesInFlight > 1);
        }
        // 1,000,000 keys at the default cap: within the 30 s a production scan may take.
        QVERIFY(prod.expectedSeconds(1000000) <= 30);
        QVERIFY(prod.describeFor(1000000).contains(QStringLiteral("s for ")));
        QCOMPARE(ScanPace::fast().expectedSeconds(1000000), -1);

        InventoryScan::Options o;
        o.count = 0;
        prod.applyTo(o);
        QCOMPARE(o.count, prod.count);
        QCOMPARE(o.keysPerSecond, prod.keysPerSecond);
        o.count = 77; // an explicit COUNT stays
        ScanPace::fast().applyTo(o);
        QCOMPARE(o.count, 77);
        QCOMPARE(o.keysPerSecond, 0);
    }

    void scanRateParsesOrRefuses()
    {
        QString error;
        auto p = parseScanRate(QStringLiteral("unlimited"), &error);
        QVERIFY(p && !p->isGentle());
        p = parseScanRate(QStringLiteral("20000"), &error);
        QVERIFY(p && p->isGentle());
        QCOMPARE(p->keysPerSecond, 20000);
        for (const char *bad : {"", "0", "999", "-5000", "+5000", "1e5", "5000.0", " 5000", "abc",
                                "20000000", "99999999999999999999", "Unlimited"}) {
            error.clear();
            QVERIFY2(!parseScanRate(QString::fromLatin1(bad), &error), bad);
            QVERIFY2(error.contains(QStringLiteral("--scan-rate: give keys per second")), bad);
        }
    }

    // The cap holds at every page: keys so far <= cap x time + one page's worth (the page the
    // scan is allowed to start with). Only a lower bound on time: a loaded machine can only
    // make the scan slower.
    void capIsHonouredAtEveryPage()
    {
        KeyspaceScanner scanner(*m_c);
        QSignalSpy done(&scanner, &KeyspaceScanner::finished);
        const KeyspaceScanner::Options o = paced(5000);
        const auto pages = startTimed(scanner, o);
        QVERIFY(done.wait(60000));
        QVERIFY(done[0][0].toBool());
        QVERIFY(pages->pages.size() > 10);
        QCOMPARE(pages->pages.last().keysSoFar, 3001);
        const qint64 slack = 2 * o.count; // SCAN may return a little more than COUNT
        for (const TimedPages::Page &p : pages->pages)
            QVERIFY2(p.keysSoFar <= o.keysPerSecond * p.ms / 1000 + slack,
                     qPrintable(QStringLiteral("%1 keys after %2 ms").arg(p.keysSoFar).arg(p.ms)));
        // 3001 keys at 5000/s: at least about 0.55 s (the first page is free).
        QVERIFY2(scanner.elapsedMs() >= 500, qPrintable(QString::number(scanner.elapsedMs())));
    }

    // Cancelling a paced scan leaves no timer that sends a SCAN later.
    void cancelStopsAPacedScan()
    {
        KeyspaceScanner scanner(*m_c);
        QSignalSpy done(&scanner, &KeyspaceScanner::finished);
        const auto pages = startTimed(scanner, paced(1000));
        QTRY_VERIFY_WITH_TIMEOUT(pages->pages.size() >= 1, 10000);
        scanner.cancel();
        const qsizetype seen = pages->pages.size();
        const qint64 keysSeen = pages->pages.last().keysSoFar;
        // A witness: the same paced scan started after the cancel, on the same connection.
        // The cancelled scan's next SCAN was due once the keys it had been charged for (a
        // COUNT per SCAN sent, more when a page held more: at most seen * 100 + keysSeen)
        // were allowed; once the witness has been charged as much, its next SCAN is due later
        // still (it started later), and on the one connection a SCAN sent before it is
        // answered before it. One page more, for the event loop to have run a timer that was
        // due while the witness's replies came in.
        KeyspaceScanner witness(*m_c);
        const auto witnessPages = startTimed(witness, paced(1000));
        const qsizetype enough = seen + (keysSeen + 99) / 100 + 2;
        QTRY_VERIFY_WITH_TIMEOUT(witnessPages->pages.size() >= enough, 30000);
        QCOMPARE(pages->pages.size(), seen);
        QCOMPARE(done.size(), 1);
        QVERIFY(!scanner.isRunning());
        witness.cancel();
    }

    void cliFollowsTheLabelAndTakesScanRate()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        // A production label scans gently and says so, with the expected time.
        auto r = testsupport::runCli(
            {"keys", "--url", m_url, "--environment", "production", "--summary"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("scan pace gentle: at most 40,000 keys/s"), r.err);
        QVERIFY2(r.err.contains("for 3,001 keys (production; --scan-rate changes it)"), r.err);
        QVERIFY(r.out.contains("keys scanned"));
        // Local: fast, nothing to announce.
        r = testsupport::runCli({"keys", "--url", m_url, "--environment", "local", "--summary"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(!r.err.contains("scan pace"), r.err);
        // --scan-rate overrides the label, either way.
        r = testsupport::runCli({"keys", "--url", m_url, "--scan-rate", "20000", "--summary"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("at most 20,000 keys/s"), r.err);
        r = testsupport::runCli({"order", "9001", "--url", m_url, "--environment", "production",
                                 "--scan-rate", "unlimited"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(!r.err.contains("scan pace"), r.err);
        QVERIFY2(r.out.contains("p-7"), r.out);
        r = testsupport::runCli({"order", "9001", "--url", m_url, "--environment", "production"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("scan pace gentle"), r.err);
        // Bad values: a clear error, exit 2, before connecting (the port is closed).
        for (const QString &bad : {QStringLiteral("0"), QStringLiteral("fast"),
                                   QStringLiteral("1e6"), QStringLiteral("-1")}) {
            for (const char *verb : {"keys", "order"}) {
                QStringList args{verb};
                if (QByteArray(verb) == "order")
                    args << "9001";
                args << "--url"
                     << "redis://127.0.0.1:1"
                     << "--scan-rate" << bad;
                r = testsupport::runCli(args);
                QCOMPARE(r.exitCode, 2);
                QVERIFY2(r.err.contains("--scan-rate: give keys per second from 1000 to "
                                        "10000000 (e.g. 40000), or 'unlimited'"),
                         r.err);
            }
        }
        r = testsupport::runCli({"keys", "--url", m_url, "--environment", "prod"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--environment: give local, test, staging or production"), r.err);
    }
};

QTEST_MAIN(TstScanPace)
#include "tst_scan_pace.moc"
