// SPDX-License-Identifier: GPL-3.0-or-later
#include "CliRunner.h"
#include "RedisFixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using testsupport::StandaloneRedis;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run cli(const QStringList &args, const QByteArray &stdinData = {})
{
    testsupport::CliOptions o;
    o.input = stdinData;
    o.environment.remove(QStringLiteral("QT_LOGGING_RULES"));
    o.environment.insert(QStringLiteral("INVENTORY_SECRETS"), QStringLiteral("session"));
    const testsupport::CliRun r = testsupport::runCli(args, o);
    return Run{r.exitCode, QString::fromUtf8(r.out), QString::fromUtf8(r.err)};
}

// A failure is exactly one line on stderr and nothing on stdout.
#define VERIFY_ONE_ERROR_LINE(run)                                                                 \
    do {                                                                                           \
        QVERIFY2((run).out.isEmpty(), qPrintable((run).out));                                      \
        QVERIFY2((run).err.endsWith('\n') && (run).err.count('\n') == 1, qPrintable((run).err));   \
        QVERIFY((run).err.startsWith(QLatin1String("inventory-cli ping: ")));                      \
    } while (false)

} // namespace

class TstCliPing : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    QString m_url;

private slots:
    void initTestCase()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        auto admin = m_redis.connect();
        QVERIFY(
            admin->call({"ACL", "SETUSER", "alice", "on", ">Al1ce-Secret-pw", "~*", "+@all"}).ok());
        m_url = QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port());
    }

    void text()
    {
        const Run r = cli({QStringLiteral("ping"), QStringLiteral("--url"), m_url});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        // The server as it names itself: Valkey answers redis_version:7.2.4 for compatibility,
        // which must not make it "Redis 7.2.4" (issue 29).
        const QString server = testsupport::serverLabel(*m_redis.connect());
        QVERIFY(!server.isEmpty());
        const auto line = [&](const QString &label, const QString &value) {
            return r.out.contains(QRegularExpression(
                QStringLiteral("^%1 +%2").arg(label, QRegularExpression::escape(value)),
                QRegularExpression::MultilineOption));
        };
        QVERIFY2(line(QStringLiteral("Server"), server + QStringLiteral(" at ")),
                 qPrintable(r.out));
        QVERIFY2(line(QStringLiteral("Mode"), QStringLiteral("standalone")), qPrintable(r.out));
        for (const char *expected : {"primary", "default", " ms", "may call inventory_deduct_v1",
                                     "may load function "
                                     "libraries",
                                     "allowed"})
            QVERIFY2(r.out.contains(QLatin1String(expected)), qPrintable(r.out));
    }

    void json()
    {
        const Run r =
            cli({QStringLiteral("ping"), QStringLiteral("--url"), m_url, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        QJsonParseError error;
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8(), &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(o.value("server").toString() + ' ' + o.value("version").toString(),
                 testsupport::serverLabel(*m_redis.connect()));
        QVERIFY(o.value("redis_version").toString().startsWith(QLatin1String("7.")));
        QCOMPARE(o.value("mode").toString(), QStringLiteral("standalone"));
        QCOMPARE(o.value("role").toString(), QStringLiteral("primary"));
        QCOMPARE(o.value("user").toString(), QStringLiteral("default"));
        QVERIFY(o.value("latency_ms").toDouble() > 0);
        QCOMPARE(o.value("tls").toBool(), false);
        const auto perms = o.value("permissions").toArray();
        QCOMPARE(perms.size(), 2);
        for (const auto &p : perms)
            QCOMPARE(p.toObject().value("verdict").toString(), QStringLiteral("allowed"));
    }

    void passwordInUrlNeverPrinted()
    {
        const QString url =
            QStringLiteral("redis://alice:Al1ce-Secret-pw@127.0.0.1:%1").arg(m_redis.port());
        const Run ok = cli({QStringLiteral("ping"), QStringLiteral("--url"), url});
        QCOMPARE(ok.exitCode, 0);
        QVERIFY(ok.out.contains(QLatin1String("alice")));
        const Run js =
            cli({QStringLiteral("ping"), QStringLiteral("--url"), url, QStringLiteral("--json")});
        QCOMPARE(js.exitCode, 0);
        for (const Run &r : {ok, js}) {
            QVERIFY(!r.out.contains(QLatin1String("Al1ce-Secret")));
            QVERIFY(!r.err.contains(QLatin1String("Al1ce-Secret")));
        }
    }

    void wrongPassword()
    {
        const QString url =
            QStringLiteral("redis://alice:Wr0ng-Guess-pw@127.0.0.1:%1").arg(m_redis.port());
        const Run r = cli({QStringLiteral("ping"), QStringLiteral("--url"), url});
        QCOMPARE(r.exitCode, 3);
        VERIFY_ONE_ERROR_LINE(r);
        QVERIFY2(r.err.contains(QLatin1String("authentication failed for user 'alice'")),
                 qPrintable(r.err));
        QVERIFY(r.err.contains(QLatin1String("WRONGPASS")));
        QVERIFY(!r.err.contains(QLatin1String("Wr0ng-Guess")));
    }

    void passwordFromStdin()
    {
        const QString url = QStringLiteral("redis://alice@127.0.0.1:%1").arg(m_redis.port());
        const Run r = cli({QStringLiteral("ping"), QStringLiteral("--url"), url,
                           QStringLiteral("--password-stdin"), QStringLiteral("--json")},
                          "Al1ce-Secret-pw\n");
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object().value("user").toString(),
                 QStringLiteral("alice"));
        QVERIFY(!r.out.contains(QLatin1String("Al1ce-Secret")));

        const Run wrong = cli({QStringLiteral("ping"), QStringLiteral("--url"), url,
                               QStringLiteral("--password-stdin")},
                              "St4le-Other-pw\r\n");
        QCOMPARE(wrong.exitCode, 3);
        VERIFY_ONE_ERROR_LINE(wrong);
        QVERIFY(!wrong.err.contains(QLatin1String("St4le-Other")));

        const Run empty = cli({QStringLiteral("ping"), QStringLiteral("--url"), url,
                               QStringLiteral("--password-stdin")});
        QCOMPARE(empty.exitCode, 2);
        VERIFY_ONE_ERROR_LINE(empty);

        // A password in the URL and on stdin: ambiguous, refused.
        const Run both =
            cli({QStringLiteral("ping"), QStringLiteral("--url"),
                 QStringLiteral("redis://alice:Al1ce-Secret-pw@127.0.0.1:%1").arg(m_redis.port()),
                 QStringLiteral("--password-stdin")},
                "Al1ce-Secret-pw\n");
        QCOMPARE(both.exitCode, 2);
        VERIFY_ONE_ERROR_LINE(both);
        QVERIFY(!both.err.contains(QLatin1String("Al1ce-Secret")));
    }

    void refusedPort()
    {
        const Run r = cli({QStringLiteral("ping"), QStringLiteral("--url"),
                           QStringLiteral("redis://u:Refused-Secret-pw@127.0.0.1:%1")
                               .arg(demo::LocalRedisServer::freePort()),
                           QStringLiteral("--timeout-ms"), QStringLiteral("2000")});
        QCOMPARE(r.exitCode, 3);
        VERIFY_ONE_ERROR_LINE(r);
        QVERIFY2(r.err.contains(QLatin1String("connection refused")), qPrintable(r.err));
        QVERIFY(!r.err.contains(QLatin1String("Refused-Secret")));
    }

    void tls()
    {
        testsupport::TlsRedis server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        const QString url = QStringLiteral("rediss://127.0.0.1:%1").arg(server.port());
        const Run ok = cli({QStringLiteral("ping"), QStringLiteral("--url"), url,
                            QStringLiteral("--tls-ca"), server.caFile(), QStringLiteral("--json")});
        QVERIFY2(ok.exitCode == 0, qPrintable(ok.err));
        QCOMPARE(QJsonDocument::fromJson(ok.out.toUtf8()).object().value("tls").toBool(), true);

        const Run wrongCa = cli({QStringLiteral("ping"), QStringLiteral("--url"), url,
                                 QStringLiteral("--tls-ca"), server.otherCaFile()});
        QCOMPARE(wrongCa.exitCode, 3);
        VERIFY_ONE_ERROR_LINE(wrongCa);
        QVERIFY2(wrongCa.err.contains(QLatin1String("TLS")), qPrintable(wrongCa.err));
        QVERIFY(wrongCa.err.contains(QLatin1String("CA file")));

        // The system trust store does not know the test CA.
        const Run noCa = cli({QStringLiteral("ping"), QStringLiteral("--url"), url});
        QCOMPARE(noCa.exitCode, 3);
        VERIFY_ONE_ERROR_LINE(noCa);
    }

    void usage()
    {
        const Run noUrl = cli({QStringLiteral("ping")});
        QCOMPARE(noUrl.exitCode, 2);
        VERIFY_ONE_ERROR_LINE(noUrl);
        const Run badUrl = cli({QStringLiteral("ping"), QStringLiteral("--url"),
                                QStringLiteral("http://u:Bad-Url-Secret@h:1")});
        QCOMPARE(badUrl.exitCode, 2);
        VERIFY_ONE_ERROR_LINE(badUrl);
        QVERIFY(badUrl.err.contains(QLatin1String("redis://")));
        QVERIFY(!badUrl.err.contains(QLatin1String("Bad-Url-Secret")));
        const Run badPort = cli({QStringLiteral("ping"), QStringLiteral("--url"),
                                 QStringLiteral("redis://u:Bad-Port-Secret@h:99999")});
        QCOMPARE(badPort.exitCode, 2);
        QVERIFY(!badPort.err.contains(QLatin1String("Bad-Port-Secret")));
        const Run unknown = cli({QStringLiteral("ping"), QStringLiteral("--frobnicate")});
        QCOMPARE(unknown.exitCode, 2);
        VERIFY_ONE_ERROR_LINE(unknown);
        const Run timeout = cli({QStringLiteral("ping"), QStringLiteral("--url"), m_url,
                                 QStringLiteral("--timeout-ms"), QStringLiteral("soon")});
        QCOMPARE(timeout.exitCode, 2);
    }

    void help()
    {
        const Run top = cli({QStringLiteral("--help")});
        QCOMPARE(top.exitCode, 0);
        QVERIFY(top.out.contains(QLatin1String("ping")));
        const Run ping = cli({QStringLiteral("ping"), QStringLiteral("--help")});
        QCOMPARE(ping.exitCode, 0);
        QVERIFY(ping.out.contains(QLatin1String("Usage: inventory-cli ping")));
        for (const char *option :
             {"--url", "--password-stdin", "--tls-ca", "--timeout-ms", "--json"})
            QVERIFY2(ping.out.contains(QLatin1String(option)), option);
        QCOMPARE(cli({QStringLiteral("help"), QStringLiteral("ping")}).out, ping.out);
        const Run unknown = cli({QStringLiteral("frobnicate")});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY(unknown.err.contains(QLatin1String("unknown command")));
    }
};

QTEST_GUILESS_MAIN(TstCliPing)
#include "tst_cli_ping.moc"
