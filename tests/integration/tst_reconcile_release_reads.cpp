// SPDX-License-Identifier: GPL-3.0-or-later
#include "RedisFixture.h"
#include "ledger/LedgerSpec.h"
#include "reconcile/ReconcileRun.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace reconcile;

// Where runReconcile takes "released" from: the release keys the scan listed, EXISTS for a
// key the scan cannot speak for, and EXISTS again for every release candidate, since a
// release written after the scan passed its key is not in the scan (here: a key the scan
// "missed" because the test says it listed none).
class TstReconcileReleaseReads : public QObject
{
    Q_OBJECT

    testsupport::StandaloneRedis m_redis;
    std::unique_ptr<redis::RedisClient> m_client;
    QTemporaryDir m_dir;
    QString m_ledger;
    browse::KeyspaceStore m_store;

    struct Run
    {
        RunOutcome outcome;
        QStringList lines;
        QStringList sentences;
    };

    Run run(const ScannedReleaseKeys *listed, bool words = true)
    {
        Run out;
        auto spec = ledger::LedgerSpec::parse(m_ledger);
        auto source = ledger::openLedger(spec.value());
        if (!source.ok())
            qFatal("ledger: %s", qPrintable(source.error().english));
        RunOptions options;
        options.scope.nowMs = QDateTime::currentMSecsSinceEpoch();
        options.releaseKeys = listed;
        options.sentences = options.balances = words;
        out.outcome = runReconcile(*source.value(), m_store, *m_client, ReceiptPolicy{604800, {}},
                                   options, [&](const Finding &f) {
                                       out.lines << rawLine(f);
                                       out.sentences << f.sentence;
                                   });
        out.lines.sort();
        return out;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(m_redis.start());
        m_client = m_redis.connect();
        // The release of o-failed was written after the scan passed: only EXISTS sees it.
        QVERIFY(m_client->call({"SET", "rel:{a}:o-failed", "quantity=1;time=1.000000"}).ok());
        const uint32_t a = m_store.internSku("a");
        browse::ReceiptReading v1;
        v1.remaining = 5;
        for (const char *order : {"o-failed", "o-failed2", "o-commit"})
            m_store.putReceipt(a, order, v1);
        m_ledger = m_dir.filePath(QStringLiteral("ledger.csv"));
        QFile f(m_ledger);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("order_id,sku,quantity,state\n"
                "o-failed,a,1,failed\n"
                "o-failed2,a,1,failed\n"
                "o-commit,a,2,committed\n");
    }

    void candidatesAreReadAgainBeforeTheyAreNamed()
    {
        ScannedReleaseKeys none{m_store.schema()};
        none.setWalkComplete(true);
        const Run r = run(&none);
        QVERIFY(!r.outcome.couldNotCheck());
        QCOMPARE(r.lines, (QStringList{"o-commit:a:2:in_line", "o-failed2:a:1:release_candidate",
                                       "o-failed:a:0:released"}));
        QCOMPARE(r.outcome.releaseReads, 2); // the two candidates, nothing else
        QVERIFY(!r.outcome.skus.empty());
    }

    void withoutTheScansWordEveryRowIsRead()
    {
        const Run r = run(nullptr);
        QCOMPARE(r.lines, (QStringList{"o-commit:a:2:in_line", "o-failed2:a:1:release_candidate",
                                       "o-failed:a:0:released"}));
        QCOMPARE(r.outcome.releaseReads, 3);
    }

    // A key the scan listed is taken as it saw it, without a read (a v1 receipt records no
    // quantity: a release finding says 0), sentences and balances
    // only when asked for.
    void aListedKeyIsReleasedWithoutARead()
    {
        ScannedReleaseKeys listed{m_store.schema()};
        listed.note({"rel:{a}:o-commit", "rel:{a}:o-failed"});
        listed.setWalkComplete(true);
        const Run r = run(&listed, false);
        QCOMPARE(r.lines, (QStringList{"o-commit:a:0:released", "o-failed2:a:1:release_candidate",
                                       "o-failed:a:0:released"}));
        QCOMPARE(r.outcome.releaseReads, 1);
        QVERIFY(r.outcome.skus.empty());
        for (const QString &s : r.sentences)
            QVERIFY(s.isEmpty());
        QCOMPARE(run(&listed, true).sentences.filter(QStringLiteral("Order o-commit")).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TstReconcileReleaseReads)
#include "tst_reconcile_release_reads.moc"
