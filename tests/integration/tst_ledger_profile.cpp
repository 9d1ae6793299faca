// SPDX-License-Identifier: GPL-3.0-or-later
#include "CliRunner.h"
#include "PostgresFixture.h"
#include "PrivateKeyring.h"
#include "RedisFixture.h"
#include "profiles/ProfileStore.h"
#include "profiles/SecretStore.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using profiles::SecretStore;

// The ledger a profile saves, read back by `inventory-cli reconcile --profile` with its
// PostgreSQL password from a real keyring (a Secret Service of the test's own): the saved
// source, query and state mapping used as the console saved them, what the command line gives
// replacing them, the password never printed, a missing keyring entry said as such, and a
// password written into the ledger URL refused before anything is saved.
class TstLedgerProfile : public QObject
{
    Q_OBJECT

    testsupport::PrivateKeyring m_keyring;
    testsupport::Postgres m_pg;
    testsupport::StandaloneRedis m_redis;
    QTemporaryDir m_config;
    const QString m_profile = QStringLiteral("orders eu");

    QString settingsPath() const
    {
        return m_config.filePath(QStringLiteral("InventoryConsole/inventory-console.conf"));
    }

    profiles::ConnectionProfile savedProfile() const
    {
        profiles::ConnectionProfile p;
        p.name = m_profile;
        p.port = m_redis.port();
        p.environment = QStringLiteral("test");
        p.ledger.source = m_pg.url();
        p.ledger.query = QStringLiteral("SELECT id AS order_id, sku, quantity, status AS state "
                                        "FROM shop_orders WHERE sku <> 'ignored'");
        p.ledger.states = QStringLiteral("paid=committed,refunded=cancelled");
        return p;
    }

    // The console's own store, on the private keyring: what the Reconcile tab does on Save.
    bool keep(const QString &secret)
    {
        SecretStore store;
        if (!store.waitForBackend(10000) || !store.isPersistent())
            return false;
        std::optional<SecretStore::StoreResult> stored;
        store.store(SecretStore::keyFor(m_profile, SecretStore::Account::Ledger), secret, this,
                    [&](const SecretStore::StoreResult &r) { stored = r; });
        return QTest::qWaitFor([&] { return stored.has_value(); }, 10000) && stored->persistent;
    }

    testsupport::CliRun reconcile(const QStringList &extra = {})
    {
        testsupport::CliOptions o;
        o.environment = m_keyring.environment();
        o.environment.insert(QStringLiteral("XDG_CONFIG_HOME"), m_config.path());
        return testsupport::runCli(QStringList{QStringLiteral("reconcile"),
                                               QStringLiteral("--profile"), m_profile,
                                               QStringLiteral("--raw")}
                                       + extra,
                                   o);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(testsupport::cliProblem().isEmpty(), qPrintable(testsupport::cliProblem()));
        QVERIFY2(m_keyring.start(), qPrintable(m_keyring.errorString()));
        QVERIFY2(m_pg.start(), qPrintable(m_pg.errorString()));
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        const QString e = m_pg.admin(
            QStringLiteral("CREATE TABLE shop_orders (id text, sku text, quantity integer, "
                           "status text);\n"
                           "INSERT INTO shop_orders VALUES ('o-1', 'sku-1', 2, 'paid'), "
                           "('o-2', 'sku-2', 1, 'refunded'), ('o-3', 'ignored', 1, 'odd');\n"
                           "GRANT SELECT ON shop_orders TO %1;\n")
                .arg(testsupport::Postgres::user()));
        QVERIFY2(e.isEmpty(), qPrintable(e));
        QSettings settings(settingsPath(), QSettings::IniFormat);
        const auto saved = profiles::ProfileStore(&settings).save(savedProfile());
        QVERIFY(saved.ok());
    }

    // The saved query and states apply: o-1 (paid: committed) has no receipt, o-2 (refunded:
    // cancelled) is no finding, the 'odd' row is outside the saved query.
    void theSavedLedgerIsReadWithTheKeyringPassword()
    {
        QVERIFY(keep(m_pg.password()));
        const auto run = reconcile();
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.out, QByteArray("o-1:sku-1:2:missing_receipt\n"));
        QVERIFY2(
            run.err.contains("the ledger saved in profile 'orders eu': " + m_pg.url().toUtf8()),
            run.err.constData());
        QVERIFY(!run.out.contains(m_pg.password().toUtf8()));
        QVERIFY(!run.err.contains(m_pg.password().toUtf8()));
    }

    // The command line replaces a saved part: here a state mapping without 'paid' stops the
    // run at the row (nothing concluded), so the saved one was not used.
    void theCommandLineReplacesWhatTheProfileSaved()
    {
        QVERIFY(keep(m_pg.password()));
        const auto run =
            reconcile({QStringLiteral("--ledger-states"), QStringLiteral("refunded=cancelled")});
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains("paid"), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    // No password in the keyring: said, the server's refusal reported, nothing concluded.
    void aMissingKeyringEntryIsSaid()
    {
        SecretStore store;
        QVERIFY(store.waitForBackend(10000) && store.isPersistent());
        store.remove(SecretStore::keyFor(m_profile, SecretStore::Account::Ledger));
        std::optional<std::optional<QString>> gone;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                gone.reset();
                store.load(SecretStore::keyFor(m_profile, SecretStore::Account::Ledger), this,
                           [&](const std::optional<QString> &s) { gone = s; });
                return QTest::qWaitFor([&] { return gone.has_value(); }, 5000)
                       && !gone->has_value();
            }(),
            10000);
        const auto run = reconcile();
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains("no ledger password for profile 'orders eu' in the keyring"),
                 run.err.constData());
        QVERIFY2(run.err.contains("could not read the ledger"), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    // --ledger names another ledger: the profile's password is not sent to it.
    void anotherLedgerGetsNoKeyringPassword()
    {
        QVERIFY(keep(m_pg.password()));
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("orders.csv"));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("order_id,sku,quantity,state\n");
        f.close();
        const auto run = reconcile({QStringLiteral("--ledger"), csv});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(!run.err.contains("saved in profile"));
    }

    // The CLI reads a profile's Redis password from the keyring too (it could not before: the
    // keyring answers through GLib's loop, which the CLI had turned off).
    void theRedisPasswordComesFromTheKeyringToo()
    {
        testsupport::StandaloneRedis locked;
        QVERIFY2(locked.start({QStringLiteral("--requirepass"), QStringLiteral("main-pw-7")}),
                 qPrintable(locked.errorString()));
        profiles::ConnectionProfile p;
        p.name = QStringLiteral("locked");
        p.port = locked.port();
        p.environment = QStringLiteral("test");
        {
            QSettings settings(settingsPath(), QSettings::IniFormat);
            QVERIFY(profiles::ProfileStore(&settings).save(p).ok());
        }
        testsupport::CliOptions o;
        o.environment = m_keyring.environment();
        o.environment.insert(QStringLiteral("XDG_CONFIG_HOME"), m_config.path());
        const QStringList ping{QStringLiteral("ping"), QStringLiteral("--profile"), p.name};
        const auto refused = testsupport::runCli(ping, o);
        QVERIFY2(refused.exitCode != 0, refused.out.constData());

        SecretStore store;
        QVERIFY(store.waitForBackend(10000) && store.isPersistent());
        std::optional<SecretStore::StoreResult> stored;
        store.store(SecretStore::keyFor(p.name), QStringLiteral("main-pw-7"), this,
                    [&](const SecretStore::StoreResult &r) { stored = r; });
        QTRY_VERIFY(stored.has_value());
        const auto run = testsupport::runCli(ping, o);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY(!run.out.contains("main-pw-7") && !run.err.contains("main-pw-7"));
    }

    // A password in the ledger URL never reaches the settings file.
    void aPasswordInTheLedgerUrlIsNotSaved()
    {
        profiles::ConnectionProfile p = savedProfile();
        p.name = QStringLiteral("leaky");
        p.ledger.source =
            QStringLiteral("postgresql://ledger_reader:hunter2@127.0.0.1:%1/shop").arg(m_pg.port());
        QSettings settings(settingsPath(), QSettings::IniFormat);
        const auto saved = profiles::ProfileStore(&settings).save(p);
        QVERIFY(!saved.ok());
        QCOMPARE(saved.error().first().field, QStringLiteral("ledger.source"));
        settings.sync();
        QFile file(settingsPath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains("hunter2"));
    }
};

QTEST_GUILESS_MAIN(TstLedgerProfile)
#include "tst_ledger_profile.moc"
