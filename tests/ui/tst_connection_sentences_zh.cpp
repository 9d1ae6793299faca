// SPDX-License-Identifier: GPL-3.0-or-later
// Why a connection or a ledger read failed comes out in the window's language once the window
// installs its translators, while the English copy the CLI prints and the log records stays
// as it was: a real connection to a closed loopback port, a real CSV ledger with a bad line and
// one without a column, a real file that is a directory.
#include "ClosedPort.h"
#include "PrivateSettings.h"
#include "core/CsvReader.h"
#include "core/RegularFile.h"
#include "ledger/LedgerReader.h"
#include "ledger/LedgerSpec.h"
#include "redis/RedisClient.h"
#include "session/ProbeReport.h"
#include "ui/common/UiLanguage.h"

#include <QApplication>
#include <QBuffer>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

class TstConnectionSentencesZh : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString ledgerFile(const QString &name, const QByteArray &text) const
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

    static ledger::LedgerSpec csvSpec(const QString &path)
    {
        ledger::LedgerSpec spec;
        spec.kind = ledger::LedgerSpec::Kind::Csv;
        spec.path = path;
        return spec;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(testsupport::usePrivateSettings(m_dir));
        ui::installUiTranslators(*qApp, ui::UiLanguage::SimplifiedChinese);
    }

    void refusedConnectionInBothCopies()
    {
        redis::ConnectionOptions options;
        options.host = QStringLiteral("127.0.0.1");
        options.port = testsupport::closedPort();
        options.autoReconnect = false;
        redis::RedisClient client(options);
        client.open();
        QVERIFY(!client.waitUntilReady(5000));
        QTRY_COMPARE(client.state(), redis::ConnectionState::Failed);
        const QString address = options.address();
        QCOMPARE(client.stateDetail().english,
                 QStringLiteral("connection refused by %1: is Redis running "
                                "there, on that port?")
                     .arg(address));
        QCOMPARE(
            client.stateDetail().text,
            QStringLiteral("%1 拒绝了连接：Redis 是否在该主机的这个端口上运行？").arg(address));
        // The kind, not the words, says what failed: it holds under any translator.
        QCOMPARE(client.failure(), redis::ConnectFailure::Refused);

        const session::ProbeFailure f =
            session::classifyConnectionFailure(client.failure(), client.stateDetail(), true);
        QCOMPARE(f.kind, session::ProbeFailure::Kind::Refused);
        QCOMPARE(f.message.english, client.stateDetail().english);
        QCOMPARE(f.message.text, client.stateDetail().text);
    }

    void timeoutNotesTlsInBothCopies()
    {
        const session::ProbeFailure f =
            session::classifyConnectionFailure(redis::ConnectFailure::Timeout, {}, true);
        QCOMPARE(f.message.english,
                 QStringLiteral("the connection failed; TLS is on: check that the "
                                "server speaks TLS on this port (redis:// for plain "
                                "text)"));
        QCOMPARE(f.message.text,
                 QStringLiteral("连接失败；已启用 TLS：请检查服务器在此端口上是否使用 "
                                "TLS（明文请用 redis://）"));
    }

    void missingColumnInBothCopies()
    {
        const QString path =
            ledgerFile(QStringLiteral("nosku.csv"), "order_id,quantity,state\no1,2,committed\n");
        const auto opened = ledger::openLedger(csvSpec(path));
        QVERIFY(!opened);
        QCOMPARE(opened.error().english,
                 QStringLiteral("%1: the header has no column \"sku\" (it has: order_id, "
                                "quantity, state; --ledger-columns maps others)")
                     .arg(path));
        QCOMPARE(opened.error().text,
                 QStringLiteral("%1：表头中没有列“sku”（现有列：order_id, quantity, state；可用 "
                                "--ledger-columns 映射其他列）")
                     .arg(path));
    }

    void badLineInBothCopies()
    {
        const QString path = ledgerFile(QStringLiteral("bad.csv"), "order_id,sku,quantity,state\n"
                                                                   "o1,s1,2,committed\n"
                                                                   "o2,s1,zero,committed\n");
        auto opened = ledger::openLedger(csvSpec(path));
        QVERIFY(opened);
        const ledger::ReadOutcome out =
            ledger::readLedger(*opened.value(), [](const ledger::LedgerRow &) { return true; });
        QCOMPARE(out.end, ledger::ReadOutcome::End::Failed);
        QCOMPARE(out.error.english,
                 QStringLiteral("could not read the ledger %1: line 3: the quantity "
                                "\"zero\" is not a whole number from 1 to 1000000 "
                                "after 1 rows")
                     .arg(path));
        QCOMPARE(out.error.text,
                 QStringLiteral("无法读取订单账 %1：第 3 行：数量 \"zero\" 不是 1 到 1000000 之间的"
                                "整数（已读 1 行）")
                     .arg(path));
    }

    void csvAndFileErrorsInBothCopies()
    {
        QBuffer buffer;
        buffer.setData("a,\"b\"c\n");
        QVERIFY(buffer.open(QIODevice::ReadOnly));
        core::CsvReader reader(buffer);
        QList<QByteArray> fields;
        QCOMPARE(reader.next(&fields), core::CsvReader::Status::Error);
        QCOMPARE(reader.error().english,
                 QStringLiteral("line 1: text after a closing quote (field 2)"));
        QCOMPARE(reader.error().text, QStringLiteral("第 1 行：闭合引号后还有文字（第 2 个字段）"));

        const auto read = core::readRegularFile(m_dir.path(), 1024);
        QVERIFY(!read);
        QCOMPARE(read.error().kind, core::FileReadError::Kind::NotRegular);
        QCOMPARE(
            read.error().message.english,
            QStringLiteral("cannot read %1: not a regular file (a directory)").arg(m_dir.path()));
        QCOMPARE(read.error().message.text,
                 QStringLiteral("无法读取 %1：不是普通文件（是一个目录）").arg(m_dir.path()));
        // Two sentences are the same when their English is, whatever the translator.
        QVERIFY(read.error().message == core::Sentence::plain(read.error().message.english));
    }
};

QTEST_MAIN(TstConnectionSentencesZh)
#include "tst_connection_sentences_zh.moc"
