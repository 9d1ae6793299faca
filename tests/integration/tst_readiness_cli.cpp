// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli audit (issue 15): each exit code against a real server set up for it, the
// JSON and file exports, and drift between the primaries of a real cluster.
#include "AclUsers.h"
#include "CliRunner.h"
#include "RedisFixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace {

struct Run
{
    int code = -1;
    QString out, err;
};

Run cli(QStringList args)
{
    testsupport::CliOptions o;
    o.environment.remove(QStringLiteral("QT_LOGGING_RULES"));
    o.environment.insert(QStringLiteral("INVENTORY_SECRETS"), QStringLiteral("session"));
    args.prepend(QStringLiteral("audit"));
    const testsupport::CliRun r = testsupport::runCli(args, o);
    return Run{r.exitCode, QString::fromUtf8(r.out), QString::fromUtf8(r.err)};
}

QString findingField(const QString &json, const QString &id, const QString &field)
{
    const QJsonArray findings = QJsonDocument::fromJson(json.toUtf8())["findings"].toArray();
    for (const QJsonValue &f : findings)
        if (f["id"].toString() == id)
            return f[field].toString();
    return QStringLiteral("(no finding %1)").arg(id);
}

QString whyOf(const QString &json, const QString &id)
{
    return findingField(json, id, QStringLiteral("why"));
}

QString verdictOf(const QString &json, const QString &id)
{
    const QJsonArray findings = QJsonDocument::fromJson(json.toUtf8())["findings"].toArray();
    for (const QJsonValue &f : findings)
        if (f["id"].toString() == id)
            return f["verdict"].toString();
    return QStringLiteral("(no finding %1)").arg(id);
}

} // namespace

class TstReadinessCli : public QObject
{
    Q_OBJECT

    testsupport::StandaloneRedis m_redis, m_replica;
    std::unique_ptr<redis::RedisClient> m_c;
    QString m_url; // as "auditor", a user who may read everything but not load libraries

private slots:
    void initTestCase()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        // Everything a passing audit needs: AOF, a replica writes wait for, a short busy
        // threshold, the shipped library, and a calling user who cannot load.
        QVERIFY2(m_redis.start({QStringLiteral("--appendonly"), QStringLiteral("yes"),
                                QStringLiteral("--busy-reply-threshold"), QStringLiteral("1000")}),
                 qPrintable(m_redis.errorString()));
        m_c = m_redis.connect();
        QVERIFY(m_c->call({"FUNCTION", "LOAD", testsupport::functionSource("inventory_lib_v1.lua")})
                    .ok());
        QVERIFY(m_c->call({"ACL", "SETUSER", "auditor", "reset", "on", ">auditor-pw", "~*", "+@all",
                           "-function|load", "-function|restore", "-function|delete",
                           "-function|flush"})
                    .ok());
        QVERIFY(testsupport::createSupportAndReleaseUsers(*m_c));
        QVERIFY2(m_replica.startReplicaOf(m_redis), qPrintable(m_replica.errorString()));
        QTRY_VERIFY_WITH_TIMEOUT(
            m_c->call({"INFO", "replication"})->bytes().contains("connected_slaves:1"), 15000);
        QVERIFY(m_c->call({"SET", "stock:{sku-1}:available", "10"}).ok());
        QVERIFY(m_c->call({"SET", "idem:{sku-1}:o-1", "10", "EX", "86400"}).ok());
        // Last: until the primary counts the replica as good, writes are refused.
        QVERIFY(m_c->call({"CONFIG", "SET", "min-replicas-to-write", "1"}).ok());
        m_url = QStringLiteral("redis://auditor:auditor-pw@127.0.0.1:%1").arg(m_redis.port());
    }

    void exit0WhenEveryRulePasses()
    {
        const Run r = cli({QStringLiteral("--url"), m_url});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("Ready: every rule passed.") && !r.out.contains("auditor-pw"),
                 qPrintable(r.out));
        QCOMPARE(r.out.count(QStringLiteral("\nPASS ")), 11);
    }

    void exit1OnWarnings()
    {
        QVERIFY(m_c->call({"CONFIG", "SET", "appendfsync", "no"}).ok());
        const Run r = cli({QStringLiteral("--url"), m_url, QStringLiteral("--json")});
        QVERIFY(m_c->call({"CONFIG", "SET", "appendfsync", "everysec"}).ok());
        QVERIFY2(r.code == 1, qPrintable(r.out + r.err));
        QCOMPARE(verdictOf(r.out, QStringLiteral("persistence")), QStringLiteral("warn"));
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8())["exit"].toInt(), 1);
    }

    void exit2OnFailures()
    {
        QVERIFY(m_c->call({"CONFIG", "SET", "maxmemory-policy", "allkeys-lru"}).ok());
        const Run r = cli({QStringLiteral("--url"), m_url, QStringLiteral("--json")});
        QVERIFY(m_c->call({"CONFIG", "SET", "maxmemory-policy", "noeviction"}).ok());
        QVERIFY2(r.code == 2, qPrintable(r.out + r.err));
        QCOMPARE(verdictOf(r.out, QStringLiteral("eviction-policy")), QStringLiteral("fail"));
    }

    void exit3WhenItCannotCheck()
    {
        // A user allowed only FCALL: nothing can be read, nothing passes.
        Run r = cli({QStringLiteral("--url"),
                     QStringLiteral("redis://support:support-pw@127.0.0.1:%1").arg(m_redis.port()),
                     QStringLiteral("--no-scan")});
        QVERIFY2(r.code == 3, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("COULD NOT CHECK") && r.out.contains("NOPERM")
                     && !r.out.contains("\nPASS "),
                 qPrintable(r.out));
        // No server at all.
        r = cli({QStringLiteral("--url"), QStringLiteral("redis://127.0.0.1:1")});
        QCOMPARE(r.code, 3);
    }

    void optionsAndExports()
    {
        Run r = cli({QStringLiteral("--url"), m_url, QStringLiteral("--retry-window"),
                     QStringLiteral("soon")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--retry-window takes seconds"), qPrintable(r.err));
        // --no-scan leaves the keyspace rules out.
        r = cli({QStringLiteral("--url"), m_url, QStringLiteral("--no-scan"),
                 QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        QCOMPARE(verdictOf(r.out, QStringLiteral("stock-values")),
                 QStringLiteral("(no finding stock-values)"));
        // A retry window longer than the receipt's remaining day: a warning naming it.
        r = cli({QStringLiteral("--url"), m_url, QStringLiteral("--retry-window"),
                 QStringLiteral("172800"), QStringLiteral("--json")});
        QCOMPARE(r.code, 1);
        QCOMPARE(verdictOf(r.out, QStringLiteral("receipt-ttl")), QStringLiteral("warn"));

        QTemporaryDir dir;
        const QString md = dir.filePath(QStringLiteral("ready.md"));
        const QString html = dir.filePath(QStringLiteral("ready.html"));
        r = cli({QStringLiteral("--url"), m_url, QStringLiteral("--markdown"), md,
                 QStringLiteral("--html"), html});
        QCOMPARE(r.code, 0);
        QFile m(md), h(html);
        QVERIFY(m.open(QIODevice::ReadOnly) && h.open(QIODevice::ReadOnly));
        const QString mdText = QString::fromUtf8(m.readAll());
        const QString htmlText = QString::fromUtf8(h.readAll());
        QCOMPARE(mdText.count(QStringLiteral("| **PASS** |")), 11);
        QVERIFY(htmlText.startsWith("<!DOCTYPE html>") && htmlText.contains("Eviction policy"));

        // D10: a report is written only to a regular file: a FIFO (as a device node would,
        // /dev/full as root) was replaced by a regular file.
        const QString fifo = dir.filePath(QStringLiteral("fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        r = cli({QStringLiteral("--url"), m_url, QStringLiteral("--html"), fifo});
        QVERIFY2(r.code != 0, qPrintable(r.out));
        QVERIFY2(r.err.contains(
                     QStringLiteral("could not write %1: it is not a regular file").arg(fifo)),
                 qPrintable(r.err));
        struct stat st
        {
        };
        QVERIFY(::lstat(QFile::encodeName(fifo).constData(), &st) == 0 && S_ISFIFO(st.st_mode));
    }

    void clusterDrift()
    {
        testsupport::RedisCluster cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
        const QByteArray shipped = testsupport::functionSource("inventory_lib_v1.lua");
        for (int i = 0; i < 3; ++i)
            QVERIFY(cluster.connectNode(i)->call({"FUNCTION", "LOAD", shipped}).ok());
        const QString url = QStringLiteral("redis://127.0.0.1:%1").arg(cluster.nodes().at(0).port);
        Run r = cli(
            {QStringLiteral("--url"), url, QStringLiteral("--no-scan"), QStringLiteral("--json")});
        QCOMPARE(verdictOf(r.out, QStringLiteral("library-drift")), QStringLiteral("pass"));
        // The third primary gets the previous release.
        QVERIFY(cluster.connectNode(2)
                    ->call({"FUNCTION", "LOAD", "REPLACE", testsupport::previousReleaseSource()})
                    .ok());
        r = cli({QStringLiteral("--url"), url, QStringLiteral("--no-scan")});
        QCOMPARE(r.code, 2);
        const QString third = QStringLiteral("127.0.0.1:%1").arg(cluster.nodes().at(2).port);
        const qsizetype at = r.out.indexOf(QStringLiteral("FAIL             Same library"));
        QVERIFY2(at >= 0, qPrintable(r.out));
        const QString line = r.out.mid(at, r.out.indexOf('\n', r.out.indexOf('\n', at) + 1) - at);
        QVERIFY2(line.contains(third + QStringLiteral(" hold(s) different libraries")),
                 qPrintable(line));

        // One primary loses its library: the release and deduct rules name that primary, and
        // say what the others hold, instead of "not loaded" about "the" server.
        QVERIFY(cluster.connectNode(1)->call({"FUNCTION", "DELETE", "inventory_lib_v1"}).ok());
        r = cli(
            {QStringLiteral("--url"), url, QStringLiteral("--no-scan"), QStringLiteral("--json")});
        const QString second = QStringLiteral("127.0.0.1:%1").arg(cluster.nodes().at(1).port);
        const QString first = QStringLiteral("127.0.0.1:%1").arg(cluster.nodes().at(0).port);
        QCOMPARE(verdictOf(r.out, QStringLiteral("library-release")), QStringLiteral("fail"));
        const QString release = whyOf(r.out, QStringLiteral("library-release"));
        QVERIFY2(
            release.startsWith(QStringLiteral("On %1: inventory_lib_v1 is not loaded").arg(second)),
            qPrintable(release));
        QVERIFY2(release.contains(QStringLiteral("On %1").arg(first)), qPrintable(release));
        const QString writes = whyOf(r.out, QStringLiteral("deduct-writes"));
        QVERIFY2(writes.contains(QStringLiteral("On %1: no deduct function is loaded").arg(second)),
                 qPrintable(writes));
        QVERIFY2(writes.contains(QStringLiteral("inventory_deduct_v1 may write")),
                 qPrintable(writes));
    }

    // A configuration rule holds only if it holds on every primary: one primary evicting keys
    // fails the audit, named, even though the primary the URL names is fine.
    void clusterConfigurationOnEveryPrimary()
    {
        testsupport::RedisCluster cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
        const QString url = QStringLiteral("redis://127.0.0.1:%1").arg(cluster.nodes().at(0).port);
        const QStringList args{QStringLiteral("--url"), url, QStringLiteral("--no-scan"),
                               QStringLiteral("--json")};
        Run r = cli(args);
        const QString before = verdictOf(r.out, QStringLiteral("eviction-policy"));
        QVERIFY2(before != QLatin1String("fail"), qPrintable(r.out));
        QVERIFY2(whyOf(r.out, QStringLiteral("eviction-policy"))
                     .endsWith(QLatin1String(" The same on all 3 primaries.")),
                 qPrintable(r.out));
        QVERIFY(cluster.connectNode(1)
                    ->call({"CONFIG", "SET", "maxmemory-policy", "allkeys-lru"})
                    .ok());
        r = cli(args);
        QCOMPARE(r.code, 2);
        QCOMPARE(verdictOf(r.out, QStringLiteral("eviction-policy")), QStringLiteral("fail"));
        const QString second = QStringLiteral("127.0.0.1:%1").arg(cluster.nodes().at(1).port);
        const QString why = whyOf(r.out, QStringLiteral("eviction-policy"));
        QVERIFY2(why.startsWith(QStringLiteral("On %1 (1 of 3 primaries): ").arg(second)),
                 qPrintable(why));
        QVERIFY2(why.contains(QLatin1String("allkeys-lru")), qPrintable(why));
        // A second primary failing for another reason is said too, not hidden by the first.
        QVERIFY(cluster.connectNode(2)
                    ->call({"CONFIG", "SET", "maxmemory-policy", "volatile-ttl"})
                    .ok());
        r = cli(args);
        const QString third = QStringLiteral("127.0.0.1:%1").arg(cluster.nodes().at(2).port);
        const QString both = whyOf(r.out, QStringLiteral("eviction-policy"));
        QVERIFY2(both.contains(QStringLiteral("On %1: volatile-ttl").arg(third))
                     || both.contains(QStringLiteral("On %1: allkeys-lru").arg(second)),
                 qPrintable(both));
        QVERIFY2(both.contains(second) && both.contains(third), qPrintable(both));
    }
};

QTEST_GUILESS_MAIN(TstReadinessCli)
#include "tst_readiness_cli.moc"
