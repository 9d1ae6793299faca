// SPDX-License-Identifier: GPL-3.0-or-later
#include "CliRunner.h"
#include "PostgresFixture.h"
#include "RedisFixture.h"
#include "ledger/LedgerReader.h"
#include "ledger/LedgerSpec.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTest>
#include <malloc.h>

// GCC says AddressSanitizer with __SANITIZE_ADDRESS__, clang 14 only through __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define INVENTORY_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define INVENTORY_ASAN 1
#endif
#endif

#ifdef INVENTORY_ASAN
// From the sanitizers' allocator interface, which GCC does not ship as a header.
extern "C" size_t __sanitizer_get_current_allocated_bytes();
#endif

using namespace ledger;

namespace {

// This process's resident set, from /proc (kB); -1 when unreadable.
qint64 rssKb()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    return -1;
}

// What this process holds on its heap now (kB). Under AddressSanitizer the resident set also
// counts the quarantine (freed memory kept on purpose, up to 256 MB), so only the allocator's
// own count says whether rows are being held.
qint64 heapInUseKb()
{
#ifdef INVENTORY_ASAN
    return qint64(__sanitizer_get_current_allocated_bytes()) / 1024;
#else
    const struct mallinfo2 m = mallinfo2();
    return qint64(m.uordblks + m.hblkhd) / 1024;
#endif
}

#ifdef INVENTORY_ASAN
constexpr bool ResidentSetIsTheHeap = false;
#else
constexpr bool ResidentSetIsTheHeap = true;
#endif

} // namespace

// A PostgreSQL ledger through the real server: a million rows streamed in bounded memory, a
// write in the query refused before it runs (the cursor) or by the server's read-only
// transaction (the role may write: the session is what refuses), a wrong password never
// echoed, and a session ended mid-stream by pg_terminate_backend a clear error with the rows
// read, in the library and in the CLI.
class TstLedgerPostgres : public QObject
{
    Q_OBJECT

    testsupport::Postgres m_pg;
    static constexpr int Rows = 1000000;

    LedgerSpec spec(const QString &query = {}) const
    {
        LedgerSpec s = LedgerSpec::parse(m_pg.url()).value();
        s.query = query;
        return s;
    }

    QString sumAndCount() const
    {
        QString out;
        const QString e =
            m_pg.admin(QStringLiteral("SELECT count(*), sum(quantity) FROM orders;"), &out);
        return e.isEmpty() ? out.trimmed() : e;
    }

    void expectRefused(const QString &query, const QString &why)
    {
        const QString before = sumAndCount();
        auto l = openLedger(spec(query), m_pg.password());
        QVERIFY(l);
        LedgerRow row;
        QCOMPARE(l.value()->next(&row), LedgerSource::Status::Error);
        const QString e = l.value()->error().english;
        QVERIFY2(e.startsWith(QStringLiteral("the ledger query was refused: ")), qPrintable(e));
        QVERIFY2(e.contains(why), qPrintable(e));
        QVERIFY2(e.contains(QStringLiteral("never writes to a ledger")), qPrintable(e));
        l.value().reset();
        QCOMPARE(sumAndCount(), before);
        QString tables;
        QVERIFY(
            m_pg.admin(QStringLiteral("SELECT count(*) FROM pg_tables WHERE tablename = 'evil';"),
                       &tables)
                .isEmpty());
        QCOMPARE(tables.trimmed(), QStringLiteral("0"));
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_pg.start(), qPrintable(m_pg.errorString()));
        const QString e = m_pg.admin(
            QStringLiteral("CREATE TABLE orders (order_id text, sku text, quantity integer, "
                           "state text, created_at timestamptz);\n"
                           "INSERT INTO orders SELECT 'o-' || g, 'sku-' || (g %% 100), 1 + g %% 5, "
                           "CASE WHEN g %% 10 = 0 THEN 'failed' ELSE 'committed' END, "
                           "timestamptz '2026-12-01 00:00:00+00' + g * interval '1 second' "
                           "FROM generate_series(1, %1) g;\n"
                           "CREATE SEQUENCE evil_seq;\n"
                           "GRANT ALL ON orders, evil_seq TO %2;\n")
                .arg(Rows)
                .arg(testsupport::Postgres::user())
                .replace(QStringLiteral("%%"), QStringLiteral("%")));
        QVERIFY2(e.isEmpty(), qPrintable(e));
    }

    void streamsAMillionRowsInBoundedMemory()
    {
        auto l = openLedger(spec(), m_pg.password());
        QVERIFY2(l, qPrintable(l ? QString() : l.error().english));
        const qint64 before = rssKb(), heapBefore = heapInUseKb();
        qint64 peak = before, heapPeak = heapBefore, units = 0, progressCalls = 0;
        ReadOptions o;
        o.progress = [&](qint64) {
            ++progressCalls;
        };
        QElapsedTimer t;
        t.start();
        const ReadOutcome out = readLedger(
            *l.value(),
            [&](const LedgerRow &r) {
                units += r.quantity;
                if (l.value()->rowsRead() % 10000 == 0) {
                    peak = std::max(peak, rssKb());
                    heapPeak = std::max(heapPeak, heapInUseKb());
                }
                return true;
            },
            o);
        QVERIFY2(out.complete(), qPrintable(out.error.english));
        QCOMPARE(out.rows, qint64(Rows));
        QCOMPARE(QStringLiteral("%1|%2").arg(out.rows).arg(units), sumAndCount());
        QCOMPARE(progressCalls, qint64(Rows / 100000)); // the last count is not repeated
        qInfo("1M PostgreSQL rows in %lld ms; heap %lld kB before, peak %lld kB (+%lld kB); "
              "RSS %lld kB before, peak %lld kB (+%lld kB)",
              t.elapsed(), heapBefore, heapPeak, heapPeak - heapBefore, before, peak,
              peak - before);
        // The whole result held by libpq would be well over 60 MB here.
        QVERIFY2(heapPeak - heapBefore < 24 * 1024,
                 qPrintable(QString::number(heapPeak - heapBefore)));
        if (ResidentSetIsTheHeap)
            QVERIFY2(peak - before < 24 * 1024, qPrintable(QString::number(peak - before)));
    }

    // A statement that is not one SELECT never runs: the cursor refuses it first.
    void writesAreRefusedBeforeTheyRun_data()
    {
        QTest::addColumn<QString>("query");
        QTest::newRow("update") << "UPDATE orders SET quantity = 9 WHERE order_id = 'o-1'";
        QTest::newRow("delete") << "DELETE FROM orders";
        QTest::newRow("ddl") << "CREATE TABLE evil (x integer)";
        QTest::newRow("drop") << "DROP TABLE orders";
        QTest::newRow("cte") << "WITH d AS (DELETE FROM orders RETURNING *) SELECT order_id, sku, "
                                "quantity, state FROM d";
    }
    void writesAreRefusedBeforeTheyRun()
    {
        QFETCH(QString, query);
        expectRefused(query, QStringLiteral("it must be one SELECT, read through a cursor"));
    }

    // A SELECT that writes (here through nextval) is refused by the read-only session: the
    // role itself may write, the session is what refuses.
    void aSelectThatWritesIsRefusedByTheReadOnlySession()
    {
        expectRefused(QStringLiteral("SELECT order_id, sku, quantity, state FROM orders, "
                                     "LATERAL (SELECT nextval('evil_seq')) n"),
                      QStringLiteral("the session is read-only"));
        QString value;
        QVERIFY(m_pg.admin(QStringLiteral("SELECT last_value FROM evil_seq;"), &value).isEmpty());
        QCOMPARE(value.trimmed(), QStringLiteral("1")); // never advanced
    }

    void aWrongPasswordIsNeverEchoed()
    {
        const QString wrong = QStringLiteral("not-the-password-8812");
        auto l = openLedger(spec(), wrong);
        QVERIFY(!l);
        QVERIFY2(l.error().english.contains(QStringLiteral("password authentication failed")),
                 qPrintable(l.error().english));
        QVERIFY(!l.error().english.contains(wrong));
        QVERIFY(!l.error().english.contains(m_pg.password()));
    }

    void timeColumnAndMapping()
    {
        LedgerSpec s = spec(QStringLiteral("SELECT order_id AS id, sku, quantity, state, "
                                           "created_at FROM orders WHERE order_id = 'o-10'"));
        s.columns = Columns::parse(QStringLiteral("order_id=id,time=created_at")).value();
        auto l = openLedger(s, m_pg.password());
        QVERIFY(l);
        LedgerRow row;
        QCOMPARE(l.value()->next(&row), LedgerSource::Status::Row);
        QCOMPARE(row.orderId, QByteArray("o-10"));
        QCOMPARE(row.state, OrderState::Failed);
        QCOMPARE(row.timeMs,
                 QDateTime(QDate(2026, 12, 1), QTime(0, 0, 10), Qt::UTC).toMSecsSinceEpoch());
        QCOMPARE(l.value()->next(&row), LedgerSource::Status::End);
    }

    void aTerminatedSessionMidStreamIsAClearError()
    {
        auto l = openLedger(spec(), m_pg.password());
        QVERIFY(l);
        QString terminated = QStringLiteral("not tried");
        const ReadOutcome out = readLedger(*l.value(), [&](const LedgerRow &) {
            if (l.value()->rowsRead() == 5000)
                terminated = m_pg.terminateConsoleSessions();
            return true;
        });
        QVERIFY2(terminated.isEmpty(), qPrintable(terminated));
        QCOMPARE(out.end, ReadOutcome::End::Failed);
        QVERIFY(out.rows >= 5000 && out.rows < Rows);
        QVERIFY2(
            out.error.english.startsWith(QStringLiteral("could not read the ledger ") + m_pg.url()),
            qPrintable(out.error.english));
        QVERIFY2(out.error.english.endsWith(QStringLiteral("after %1 rows").arg(out.rows)),
                 qPrintable(out.error.english));
        QVERIFY2(out.error.english.contains(QStringLiteral("terminat")),
                 qPrintable(out.error.english));
    }

    // The CLI: exit 3 with the same sentence, the rows already read never presented as a
    // verdict.
    void cliExitsThreeWhenTheLedgerSessionDies()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        testsupport::StandaloneRedis redis;
        QVERIFY2(redis.start(), qPrintable(redis.errorString()));
        QProcess cli;
        cli.setStandardOutputFile(QProcess::nullDevice()); // a full pipe would pause the CLI
        cli.start(testsupport::cliPath(),
                  {QStringLiteral("reconcile"), QStringLiteral("--url"),
                   QStringLiteral("redis://127.0.0.1:%1").arg(redis.port()),
                   QStringLiteral("--ledger"), m_pg.url(),
                   QStringLiteral("--ledger-password-stdin"), QStringLiteral("--raw")});
        QVERIFY(cli.waitForStarted());
        cli.write(m_pg.password().toUtf8() + '\n');
        cli.closeWriteChannel();
        // Once the first 100,000 rows are reported read, the session is ended from outside.
        QByteArray err;
        QElapsedTimer t;
        t.start();
        while (!err.contains("ledger rows read") && t.elapsed() < 60000
               && cli.state() == QProcess::Running) {
            cli.waitForReadyRead(100);
            err += cli.readAllStandardError();
        }
        QVERIFY2(err.contains("100000 ledger rows read"), err.constData());
        QCOMPARE(m_pg.terminateConsoleSessions(), QString());
        QVERIFY(cli.waitForFinished(60000));
        err += cli.readAllStandardError();
        QCOMPARE(cli.exitCode(), 3);
        QVERIFY2(err.contains("could not check: could not read the ledger " + m_pg.url().toUtf8()),
                 err.constData());
        QVERIFY(!err.contains(m_pg.password().toUtf8()));
    }
};

QTEST_GUILESS_MAIN(TstLedgerPostgres)
#include "tst_ledger_postgres.moc"
