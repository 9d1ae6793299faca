// SPDX-License-Identifier: GPL-3.0-or-later
#include "ledger/LedgerReader.h"
#include "ledger/LedgerSpec.h"
#include "ledger/SqlLedger.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using namespace ledger;

// The ledger's file and SQLite sources: every row validated, a bad one named by its line or
// row, never skipped; FIFOs and devices refused before a byte is read; SQLite opened so that a
// write is refused and the file is left as it was.
class TstLedgerFiles : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &bytes)
    {
        QFile f(m_dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            qFatal("cannot write %s", qPrintable(f.fileName()));
        return f.fileName();
    }

    static std::unique_ptr<LedgerSource> open(const QString &text, const QString &columns = {},
                                              const QString &states = {})
    {
        auto spec = LedgerSpec::parse(text);
        if (!spec)
            qFatal("spec: %s", qPrintable(spec.error().english));
        LedgerSpec s = spec.value();
        s.columns = Columns::parse(columns).value();
        s.states = StateMap::parse(states).value();
        auto l = openLedger(s);
        if (!l)
            qFatal("open: %s", qPrintable(l.error().english));
        return std::move(l).value();
    }

    // Every row as "order:sku:qty:state", or the error as "ERROR <text>" last.
    static QStringList readAll(LedgerSource &l)
    {
        QStringList rows;
        const ReadOutcome o = readLedger(l, [&](const LedgerRow &r) {
            rows << QStringLiteral("%1:%2:%3:%4")
                        .arg(QString::fromUtf8(r.orderId), QString::fromUtf8(r.sku))
                        .arg(r.quantity)
                        .arg(stateName(r.state));
            return true;
        });
        if (!o.complete())
            rows << QStringLiteral("ERROR ") + o.error.english;
        return rows;
    }

    static QString openError(const QString &text)
    {
        auto spec = LedgerSpec::parse(text);
        if (!spec)
            return spec.error().english;
        auto l = openLedger(spec.value());
        return l ? QString() : l.error().english;
    }

    QString makeSqlite(const QString &name, const QStringList &statements)
    {
        const QString path = m_dir.filePath(name);
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            db.setDatabaseName(path);
            if (!db.open())
                qFatal("sqlite open");
            QSqlQuery q(db);
            for (const QString &s : statements)
                if (!q.exec(s))
                    qFatal("sqlite: %s", qPrintable(s));
        }
        QSqlDatabase::removeDatabase(name);
        return path;
    }

private slots:
    void csvColumnsInAnyOrderOtherColumnsIgnored()
    {
        const QString path = write("a.csv", "\xEF\xBB\xBFnote,state,quantity,sku,order_id\r\n"
                                            "\"x, y\",committed,3,sku-1,o-1\r\n"
                                            "\r\n"
                                            "\"multi\nline\",failed,1,\"sku \"\"2\"\"\",o-2\n"
                                            "z,pending,1000000,sku-3,o-3");
        auto l = open(path);
        QCOMPARE(readAll(*l), (QStringList{"o-1:sku-1:3:committed", "o-2:sku \"2\":1:failed",
                                           "o-3:sku-3:1000000:pending"}));
        QVERIFY(!l->hasTime());
    }

    void csvBadRowsNamedByLine_data()
    {
        QTest::addColumn<QByteArray>("row");
        QTest::addColumn<QString>("error");
        QTest::newRow("zero") << QByteArray("o,s,0,committed") << "the quantity \"0\"";
        QTest::newRow("leading zero") << QByteArray("o,s,01,committed") << "the quantity \"01\"";
        QTest::newRow("fraction") << QByteArray("o,s,1.5,committed") << "the quantity \"1.5\"";
        QTest::newRow("too many") << QByteArray("o,s,1000001,committed") << "from 1 to 1000000";
        QTest::newRow("negative") << QByteArray("o,s,-1,committed") << "the quantity \"-1\"";
        QTest::newRow("empty order") << QByteArray(",s,1,committed") << "the order id is empty";
        QTest::newRow("empty sku") << QByteArray("o,,1,committed") << "the SKU is empty";
        QTest::newRow("unknown state") << QByteArray("o,s,1,paid") << "the state \"paid\"";
        QTest::newRow("short") << QByteArray("o,s,1") << "3 fields where the header has";
        QTest::newRow("open quote") << QByteArray("o,\"s,1,committed") << "never closed";
        QTest::newRow("stray quote") << QByteArray("o,s\"x,1,committed") << "a quote inside";
    }
    void csvBadRowsNamedByLine()
    {
        QFETCH(QByteArray, row);
        QFETCH(QString, error);
        const QString path =
            write("bad.csv", "order_id,sku,quantity,state\no-1,s,2,committed\n" + row + "\n");
        auto l = open(path);
        const QStringList rows = readAll(*l);
        QCOMPARE(rows.size(), 2); // the good row, then the error: nothing after, nothing skipped
        QCOMPARE(rows.first(), QStringLiteral("o-1:s:2:committed"));
        QVERIFY2(rows.last().contains(QStringLiteral("line 3: ")), qPrintable(rows.last()));
        QVERIFY2(rows.last().contains(error), qPrintable(rows.last()));
        QVERIFY2(rows.last().endsWith(QStringLiteral("after 1 rows")), qPrintable(rows.last()));
    }

    void csvStateMappingAndColumnMapping()
    {
        const QString path = write("mapped.csv", "id,product,qty,status,at\n"
                                                 "9,s,2,PAID,2026-12-03T10:00:00Z\n"
                                                 "10,s,2,refunded,1764756000\n");
        auto l = open(path, "order_id=id,sku=product,quantity=qty,state=status,time=at",
                      "PAID=committed,refunded=cancelled");
        QVERIFY(l->hasTime());
        QCOMPARE(readAll(*l), (QStringList{"9:s:2:committed", "10:s:2:cancelled"}));
        const QString bad = write("badtime.csv", "id,product,qty,status,at\n"
                                                 "9,s,2,PAID,2026-12-03T10:00:00\n");
        auto b = open(bad, "order_id=id,sku=product,quantity=qty,state=status,time=at",
                      "PAID=committed");
        QVERIFY(readAll(*b).last().contains(QStringLiteral("line 2: the time")));
    }

    void csvHeaderProblems()
    {
        QVERIFY(openError(write("h1.csv", "order_id,sku,qty,state\n"))
                    .contains(QStringLiteral("no column \"quantity\"")));
        QVERIFY(openError(write("h2.csv", "")).contains(QStringLiteral("empty")));
        QVERIFY(openError(write("h3.csv", "order_id,sku,sku,quantity,state\n"))
                    .contains(QStringLiteral("twice")));
    }

    void fifosDevicesAndDirectoriesRefusedWithoutWaiting()
    {
        const QString fifo = m_dir.filePath(QStringLiteral("ledger.csv"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QElapsedTimer t;
        t.start();
        QVERIFY(openError(fifo).contains(QStringLiteral("a FIFO")));
        QVERIFY(openError(QStringLiteral("sqlite://") + fifo).contains(QStringLiteral("a FIFO")));
        QVERIFY(t.elapsed() < 5000); // no writer was waited for
        QDir(m_dir.path()).mkdir(QStringLiteral("d.jsonl"));
        QVERIFY(openError(m_dir.filePath(QStringLiteral("d.jsonl")))
                    .contains(QStringLiteral("a directory")));
        QVERIFY(
            openError(QStringLiteral("sqlite:///dev/null")).contains(QStringLiteral("a device")));
        QVERIFY(openError(m_dir.filePath(QStringLiteral("none.csv")))
                    .contains(QStringLiteral("No such file")));
    }

    void specRefusals()
    {
        const QString withPassword = openError(QStringLiteral("postgresql://u:s3cret@h:5432/db"));
        QVERIFY(withPassword.contains(QStringLiteral("holds a password")));
        QVERIFY(!withPassword.contains(QStringLiteral("s3cret")));
        QVERIFY(openError(QStringLiteral("orders.txt")).contains(QStringLiteral(".csv or .jsonl")));
        QVERIFY(
            openError(QStringLiteral("sqlite://relative.db")).contains(QStringLiteral("three")));
        auto pg = LedgerSpec::parse(QStringLiteral("postgresql://reader@127.0.0.1:5433/shop"));
        QVERIFY(pg);
        QCOMPARE(pg->port, 5433);
        QCOMPARE(pg->description(), QStringLiteral("postgresql://reader@127.0.0.1:5433/shop"));
        LedgerSpec csv = LedgerSpec::parse(QStringLiteral("x.csv")).value();
        csv.query = QStringLiteral("SELECT 1");
        QVERIFY(csv.problem());
        QVERIFY(!Columns::parse(QStringLiteral("colour=red")));
        QVERIFY(!StateMap::parse(QStringLiteral("paid=shipped")));
    }

    void jsonLines()
    {
        const QString path = write("a.jsonl", "{\"order_id\":\"o-1\",\"sku\":\"s\",\"quantity\":3,"
                                              "\"state\":\"committed\",\"extra\":[1]}\n\n"
                                              "{\"order_id\":42,\"sku\":\"s\",\"quantity\":\"2\","
                                              "\"state\":\"failed\"}\n");
        auto l = open(path);
        QCOMPARE(readAll(*l), (QStringList{"o-1:s:3:committed", "42:s:2:failed"}));

        const auto errorOf = [this](const QByteArray &line) {
            auto l = open(write("bad.jsonl", line + "\n"));
            return readAll(*l).last();
        };
        QVERIFY(errorOf("{\"order_id\":\"o\",\"sku\":\"s\",\"quantity\":1.5,\"state\":\"failed\"}")
                    .contains(QStringLiteral("line 1: \"quantity\" is neither")));
        QVERIFY(errorOf("[1,2]").contains(QStringLiteral("not a JSON object")));
        QVERIFY(errorOf("{\"order_id\":\"o\",").contains(QStringLiteral("not a JSON object")));
        QVERIFY(errorOf("{\"order_id\":\"o\",\"quantity\":1,\"state\":\"failed\"}")
                    .contains(QStringLiteral("\"sku\" is missing")));
    }

    void sqliteStreamsAndRefusesWrites()
    {
        const QString path = makeSqlite(
            "ledger.db", {"CREATE TABLE orders (order_id TEXT, sku TEXT, quantity INTEGER, "
                          "state TEXT, created_at TEXT)",
                          "INSERT INTO orders VALUES ('o-1','s',2,'committed','1764756000'),"
                          "('o-2','s',1,'cancelled','1764756001')"});
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray before = QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
        f.close();
        const QDateTime mtime = QFileInfo(path).lastModified();
        const QStringList filesBefore = QDir(m_dir.path()).entryList(QDir::Files);

        auto l = open(QStringLiteral("sqlite://") + path);
        QCOMPARE(readAll(*l), (QStringList{"o-1:s:2:committed", "o-2:s:1:cancelled"}));
        l.reset();

        for (const QString &write :
             {QStringLiteral("UPDATE orders SET quantity = 9"),
              QStringLiteral("DELETE FROM orders"), QStringLiteral("DROP TABLE orders"),
              QStringLiteral("CREATE TABLE evil (x INTEGER)")}) {
            LedgerSpec s = LedgerSpec::parse(QStringLiteral("sqlite://") + path).value();
            s.query = write;
            auto w = openLedger(s);
            QVERIFY(w);
            const QStringList rows = readAll(*w.value());
            QCOMPARE(rows.size(), 1);
            QVERIFY2(rows.first().contains(QStringLiteral("refused"))
                         && rows.first().contains(QStringLiteral("read-only")),
                     qPrintable(rows.first()));
        }
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256), before);
        QCOMPARE(QFileInfo(path).lastModified(), mtime);
        QCOMPARE(QDir(m_dir.path()).entryList(QDir::Files), filesBefore); // no journal left
    }

    void sqliteQueryTableAndNulls()
    {
        const QString path = makeSqlite(
            "mapped.db", {"CREATE TABLE sales (id INTEGER, product TEXT, qty INTEGER, "
                          "status TEXT)",
                          "INSERT INTO sales VALUES (7,'s',2,'committed'),(8,'s',NULL,'failed')"});
        LedgerSpec s = LedgerSpec::parse(QStringLiteral("sqlite://") + path).value();
        s.table = QStringLiteral("sales");
        s.columns = Columns::parse(QStringLiteral("order_id=id,sku=product,quantity=qty,"
                                                  "state=status"))
                        .value();
        auto l = openLedger(s);
        QVERIFY(l);
        const QStringList rows = readAll(*l.value());
        QCOMPARE(rows.first(), QStringLiteral("7:s:2:committed"));
        QVERIFY2(rows.last().contains(QStringLiteral("row 2: \"qty\" is NULL")),
                 qPrintable(rows.last()));

        s.table.clear();
        s.query = QStringLiteral("SELECT id, product, qty, status FROM sales WHERE qty > 1");
        auto q = openLedger(s);
        QVERIFY(q);
        QCOMPARE(readAll(*q.value()), QStringList{"7:s:2:committed"});

        s.query = QStringLiteral("SELECT id, product FROM sales");
        auto missing = openLedger(s);
        QVERIFY(readAll(*missing.value()).last().contains(QStringLiteral("no column \"qty\"")));
    }

    void cancelStopsBetweenRows()
    {
        QByteArray csv = "order_id,sku,quantity,state\n";
        for (int i = 0; i < 1000; ++i)
            csv += "o-" + QByteArray::number(i) + ",s,1,committed\n";
        auto l = open(write("many.csv", csv));
        std::atomic_bool cancel{false};
        ReadOptions o;
        o.cancel = &cancel;
        qint64 seen = 0;
        const ReadOutcome out = readLedger(
            *l,
            [&](const LedgerRow &) {
                if (++seen == 10)
                    cancel = true;
                return true;
            },
            o);
        QCOMPARE(out.end, ReadOutcome::End::Cancelled);
        QCOMPARE(out.rows, 10);
    }
};

QTEST_GUILESS_MAIN(TstLedgerFiles)
#include "tst_ledger_files.moc"
