// SPDX-License-Identifier: GPL-3.0-or-later
// What inventory-cli says in the small cases issue 14 found misleading, each named in its
// test's "Before:" line.
#include "CliRunner.h"
#include "RedisFixture.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using testsupport::StandaloneRedis;

class TstCliMessages : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    QString m_url;

    using Run = testsupport::CliRun;
    static Run cli(const QStringList &args) { return testsupport::runCli(args); }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_url = QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port());
        auto c = m_redis.connect();
        QVERIFY(c->call({"SET", "stock:{a}:available", "5"}).ok());
        QVERIFY(c->call({"SET", "stock:{b}:available", "x"}).ok());
    }

    // Before: --csv was ignored and the text table printed.
    void summaryAsCsv()
    {
        const Run r = cli({"keys", "--url", m_url, "--summary", "--csv"});
        QCOMPARE(r.exitCode, 0);
        const QList<QByteArray> lines = r.out.split('\n');
        QCOMPARE(lines.first(), QByteArray("name,value\r"));
        for (const char *row :
             {"skus,2\r", "stock_total,5\r", "anomalies.stock_not_integer,1\r", "complete,true\r"})
            QVERIFY2(lines.contains(row), r.out.constData());
    }

    // Before: 0 rows and exit 0, with nothing to say why.
    void aGlobThatCannotMeanWhatWasTypedIsRefused()
    {
        Run r = cli({"keys", "--url", m_url, "--sku", "[ab"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--sku: the '[' at position 1 is never closed"), r.err.constData());
        QVERIFY(r.out.isEmpty());
        r = cli({"keys", "--url", m_url, "--sku", "a\\"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("ends with a lone '\\'"), r.err.constData());
        r = cli({"keys", "--url", m_url, "--sku", "[ab]", "--summary"});
        QCOMPARE(r.exitCode, 0);
    }

    // Before: "authentication failed for user 'Secr3t-pw'": the password, echoed.
    void aLoneUserNameIsNeverEchoed()
    {
        StandaloneRedis locked;
        QVERIFY2(locked.start({QStringLiteral("--requirepass"), QStringLiteral("Secr3t-pw")}),
                 qPrintable(locked.errorString()));
        const Run r = cli(
            {"ping", "--url", QStringLiteral("redis://Secr3t-pw@127.0.0.1:%1").arg(locked.port())});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(!r.err.contains("Secr3t"), r.err.constData());
        QVERIFY2(r.err.contains("redis://:PASSWORD@host"), r.err.constData());
        // With the colon it is a password, and it works.
        const Run ok = cli({"ping", "--url",
                            QStringLiteral("redis://:Secr3t-pw@127.0.0.1:%1").arg(locked.port())});
        QCOMPARE(ok.exitCode, 0);
    }

    // Before: /dev/zero was "0 bytes, above the limit", a FIFO blocked for ever, and a file
    // with a byte order mark was "not UTF-8 text".
    void functionsCheckSaysWhatIsWrongWithTheFile()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("lib.fifo"));
        QVERIFY(mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        for (const QString &path : {QStringLiteral("/dev/zero"), fifo, dir.path()}) {
            const Run r = cli({"functions", "check", path});
            QVERIFY2(r.exitCode > 0, r.err.constData());
            QVERIFY2(r.err.contains("not a regular file"), r.err.constData());
        }
        QFile bom(dir.filePath(QStringLiteral("bom.lua")));
        QVERIFY(bom.open(QIODevice::WriteOnly));
        bom.write("\xEF\xBB\xBF" + testsupport::functionSource("inventory_lib_v1.lua"));
        bom.close();
        const Run r = cli({"functions", "check", bom.fileName()});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2((r.out + r.err).contains("byte order mark"), (r.out + r.err).constData());
        QVERIFY(!(r.out + r.err).contains("not UTF-8"));
    }
};

QTEST_GUILESS_MAIN(TstCliMessages)
#include "tst_cli_messages.moc"
