// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli refuses input that would make two different requests look alike, before
// anything is sent (issue 14): braces in a SKU, bytes that are not UTF-8, an option given
// twice. Each refusal is one line on stderr, exit 2, and the server is left as it was.
#include "CliRunner.h"
#include "RedisFixture.h"
#include "ServerTest.h"

#include <QTemporaryDir>
#include <QTest>

class TstCliInputRefusals : public testsupport::ServerTest
{
    Q_OBJECT

    QTemporaryDir m_dir;

    using Run = testsupport::CliRun;
    static Run shell(const QString &script) { return testsupport::runCliScript(script); }
    QString deduct() const
    {
        return QStringLiteral("\"$0\" deduct --url redis://127.0.0.1:%1 --audit-log '%2' ")
            .arg(m_redis.port())
            .arg(m_dir.filePath(QStringLiteral("audit.jsonl")));
    }
    QList<QByteArray> keys() const
    {
        QList<QByteArray> out;
        const redis::ReplyResult all = m_c->call({"KEYS", "*"});
        for (const redis::Reply &k : all->elements())
            out << k.bytes();
        std::sort(out.begin(), out.end());
        return out;
    }

#define VERIFY_REFUSED(run, needle)                                                                \
    do {                                                                                           \
        QCOMPARE((run).exitCode, 2);                                                               \
        QVERIFY2((run).out.isEmpty(), (run).out.constData());                                      \
        QVERIFY2((run).err.count('\n') == 1 && (run).err.contains(needle), (run).err.constData()); \
    } while (false)

private slots:
    void initTestCase()
    {
        QCOMPARE(startServer(QStringLiteral("inventory_lib_v1.lua")), QString());
    }

    void init()
    {
        QVERIFY(m_c->call({"FLUSHALL", "SYNC"}).ok());
        QVERIFY(m_c->call({"SET", "stock:{a}:available", "10"}).ok());
    }

    // Before: --sku 'a}:b' --order c wrote idem:{a}:b}:c and took stock from SKU a; then
    // --sku a --order 'b}:c' was "already applied" and SKU a was never deducted for it.
    void bracesInASkuAreRefused()
    {
        const auto before = keys();
        for (const char *sku : {"a}:b", "a{b", "{a}"}) {
            const Run r = shell(
                deduct()
                + QStringLiteral("--sku '%1' --order c --quantity 1").arg(QLatin1String(sku)));
            VERIFY_REFUSED(r, "--sku: the SKU contains");
            const Run check =
                shell(deduct() + QStringLiteral("--check --sku '%1' --order c").arg(sku));
            VERIFY_REFUSED(check, "--sku: the SKU contains");
        }
        QCOMPARE(keys(), before);
        QCOMPARE(m_c->call({"GET", "stock:{a}:available"})->bytes(), QByteArray("10"));
        // The order id may hold them: it comes after the hash tag.
        const Run ok = shell(deduct() + QStringLiteral("--sku a --order 'b}:c' --quantity 1"));
        QCOMPARE(ok.exitCode, 0);
        QCOMPARE(m_c->call({"GET", "idem:{a}:b}:c"})->bytes(), QByteArray("9"));
    }

    // Before: both became "o-\uFFFD", so the second was "already applied".
    void argumentsThatAreNotUtf8AreRefused()
    {
        const auto before = keys();
        for (const char *bytes : {"\\376", "\\377", "\\303", "\\355\\240\\200" /* surrogate */}) {
            const Run r = shell(deduct()
                                + QStringLiteral("--sku a --quantity 1 --order "
                                                 "\"o-$(printf '%1')\"")
                                      .arg(QLatin1String(bytes)));
            VERIFY_REFUSED(r, "inventory-cli: the value of --order (argument");
            QVERIFY2(r.err.contains("is not valid UTF-8"), r.err.constData());
        }
        const Run inline_ = shell(
            deduct() + QStringLiteral("--sku a --quantity 1 \"--order=o-$(printf '\\376')\""));
        VERIFY_REFUSED(inline_, "inventory-cli: the value of --order is not valid UTF-8");
        // Never echoed: it could be a password in a URL.
        const Run url = shell(QStringLiteral("\"$0\" ping --url \"redis://:S3cr$(printf "
                                             "'\\377')t@127.0.0.1:%1\"")
                                  .arg(m_redis.port()));
        VERIFY_REFUSED(url, "the value of --url");
        QVERIFY(!url.err.contains("S3cr"));
        QCOMPARE(keys(), before);
        // Valid UTF-8 beyond ASCII goes through as it is.
        const Run ok = shell(deduct() + QStringLiteral("--sku a --quantity 1 --order 'o-é'"));
        QCOMPARE(ok.exitCode, 0);
        QCOMPARE(m_c->call({"EXISTS", "idem:{a}:o-\xc3\xa9"})->toInteger(), 1);
    }

    // Before: the last one won, silently.
    void anOptionGivenTwiceIsRefused()
    {
        const auto before = keys();
        Run r = shell(deduct() + QStringLiteral("--sku a --order c --quantity 1 --quantity 2"));
        VERIFY_REFUSED(r, "--quantity is given more than once");
        r = shell(deduct() + QStringLiteral("--sku a --sku b --order c --quantity 1"));
        VERIFY_REFUSED(r, "--sku is given more than once");
        r = shell(QStringLiteral("\"$0\" keys --url redis://127.0.0.1:%1 --count 5 --count=6")
                      .arg(m_redis.port()));
        VERIFY_REFUSED(r, "--count is given more than once");
        r = shell(QStringLiteral("\"$0\" functions status --url redis://127.0.0.1:%1 --url "
                                 "redis://127.0.0.1:1")
                      .arg(m_redis.port()));
        VERIFY_REFUSED(r, "--url is given more than once");
        QCOMPARE(keys(), before);
        // --local-dir is meant to be repeated.
        r = shell(QStringLiteral("\"$0\" functions status --url redis://127.0.0.1:%1 --local-dir "
                                 "'%2' --local-dir '%2'")
                      .arg(m_redis.port())
                      .arg(m_dir.path()));
        QCOMPARE(r.exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(TstCliInputRefusals)
#include "tst_cli_input_refusals.moc"
