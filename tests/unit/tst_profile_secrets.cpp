// SPDX-License-Identifier: GPL-3.0-or-later
#include "profiles/SecretStore.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using profiles::SecretStore;

class TstProfileSecrets : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void sessionOnlyKeepsInMemory()
    {
        SecretStore store(SecretStore::Mode::SessionOnly);
        QCOMPARE(store.backend(), SecretStore::Backend::SessionOnly);
        QVERIFY(!store.isPersistent());
        QVERIFY2(store.storageNote().contains(QLatin1String("for this session only")),
                 qPrintable(store.storageNote()));

        const QString key = SecretStore::keyFor(QStringLiteral("prod eu"));
        std::optional<SecretStore::StoreResult> stored;
        store.store(key, QStringLiteral("s3cr3t-pw"), this,
                    [&](const SecretStore::StoreResult &r) { stored = r; });
        QTRY_VERIFY(stored.has_value());
        QVERIFY(!stored->persistent);
        QVERIFY(stored->note.contains(QLatin1String("for this session only")));
        QVERIFY(!stored->note.contains(QLatin1String("s3cr3t")));

        std::optional<std::optional<QString>> loaded;
        store.load(key, this, [&](const std::optional<QString> &s) { loaded = s; });
        QTRY_VERIFY(loaded.has_value());
        QCOMPARE(loaded->value_or(QString()), QStringLiteral("s3cr3t-pw"));

        // Another profile's key, and the release account, are separate.
        QVERIFY(SecretStore::keyFor(QStringLiteral("prod eu"), SecretStore::Account::Release)
                != key);
        loaded.reset();
        store.load(SecretStore::keyFor(QStringLiteral("other")), this,
                   [&](const std::optional<QString> &s) { loaded = s; });
        QTRY_VERIFY(loaded.has_value());
        QVERIFY(!loaded->has_value());

        store.remove(key);
        loaded.reset();
        store.load(key, this, [&](const std::optional<QString> &s) { loaded = s; });
        QTRY_VERIFY(loaded.has_value());
        QVERIFY(!loaded->has_value());
    }

    // A second store (the next session) knows nothing of the first one's passwords.
    void sessionOnlyDoesNotOutliveTheSession()
    {
        const QString key = SecretStore::keyFor(QStringLiteral("p"));
        {
            SecretStore first(SecretStore::Mode::SessionOnly);
            bool done = false;
            first.store(key, QStringLiteral("pw"), this, [&](const auto &) { done = true; });
            QTRY_VERIFY(done);
        }
        SecretStore second(SecretStore::Mode::SessionOnly);
        std::optional<std::optional<QString>> loaded;
        second.load(key, this, [&](const std::optional<QString> &s) { loaded = s; });
        QTRY_VERIFY(loaded.has_value());
        QVERIFY(!loaded->has_value());
    }

    // With no keyring reachable (CI: no D-Bus session bus, no secret service), Auto mode
    // settles on session-only within a bounded time and still keeps the password.
    void autoFallsBackGracefully()
    {
        if (qEnvironmentVariableIsSet("DBUS_SESSION_BUS_ADDRESS"))
            qputenv("DBUS_SESSION_BUS_ADDRESS", QByteArray("unix:path=/nonexistent/bus"));
        QElapsedTimer t;
        t.start();
        SecretStore store(SecretStore::Mode::Auto);
        QVERIFY(store.waitForBackend(10000));
        QVERIFY(t.elapsed() < 8000);
        QCOMPARE(store.backend(), SecretStore::Backend::SessionOnly);
        QVERIFY(!store.fallbackReason().isEmpty());
        QVERIFY2(store.storageNote().contains(QLatin1String("for this session only")),
                 qPrintable(store.storageNote()));
        std::optional<SecretStore::StoreResult> stored;
        store.store(QStringLiteral("k"), QStringLiteral("pw-auto"), this,
                    [&](const SecretStore::StoreResult &r) { stored = r; });
        QTRY_VERIFY(stored.has_value());
        QVERIFY(!stored->persistent);
        std::optional<std::optional<QString>> loaded;
        store.load(QStringLiteral("k"), this, [&](const std::optional<QString> &s) { loaded = s; });
        QTRY_VERIFY(loaded.has_value());
        QCOMPARE(loaded->value_or(QString()), QStringLiteral("pw-auto"));
    }

    // A bus address that leads nowhere: QtKeychain's job fails (or never answers) and the
    // store still settles on session-only, within the detection timeout.
    void keyringJobFailureFallsBack()
    {
        const QByteArray saved = qgetenv("DBUS_SESSION_BUS_ADDRESS");
        qputenv("DBUS_SESSION_BUS_ADDRESS", QByteArray("unix:path=/nonexistent/inventory-bus"));
        QElapsedTimer t;
        t.start();
        SecretStore store(SecretStore::Mode::Auto);
        QCOMPARE(store.backend(), SecretStore::Backend::Detecting);
        QVERIFY(store.storageNote().contains(QLatin1String("keyring")));
        // A password given while detecting is kept, and its callback waits for the verdict.
        std::optional<SecretStore::StoreResult> stored;
        store.store(QStringLiteral("k"), QStringLiteral("pw-early"), this,
                    [&](const SecretStore::StoreResult &r) { stored = r; });
        QVERIFY(store.waitForBackend(10000));
        if (saved.isNull())
            qunsetenv("DBUS_SESSION_BUS_ADDRESS");
        else
            qputenv("DBUS_SESSION_BUS_ADDRESS", saved);
        QVERIFY2(t.elapsed() < 8000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(store.backend(), SecretStore::Backend::SessionOnly);
        QVERIFY2(!store.fallbackReason().isEmpty(), qPrintable(store.storageNote()));
        QTRY_VERIFY(stored.has_value());
        QVERIFY(!stored->persistent);
        std::optional<std::optional<QString>> loaded;
        store.load(QStringLiteral("k"), this, [&](const std::optional<QString> &s) { loaded = s; });
        QTRY_VERIFY(loaded.has_value());
        QCOMPARE(loaded->value_or(QString()), QStringLiteral("pw-early"));
    }

    void environmentForcesSessionOnly()
    {
        qputenv("INVENTORY_SECRETS", QByteArray("session"));
        SecretStore store(SecretStore::Mode::Auto);
        qunsetenv("INVENTORY_SECRETS");
        QCOMPARE(store.backend(), SecretStore::Backend::SessionOnly);
    }

    // A callback whose context is gone is not called.
    void deadContextGetsNoCallback()
    {
        SecretStore store(SecretStore::Mode::SessionOnly);
        bool called = false;
        {
            QObject context;
            store.load(QStringLiteral("k"), &context, [&](const auto &) { called = true; });
        }
        // Callbacks are queued in order: once a later load's has run, the first one's turn
        // has passed.
        bool later = false;
        store.load(QStringLiteral("k"), this, [&](const auto &) { later = true; });
        QTRY_VERIFY(later);
        QVERIFY(!called);
    }

    // Nothing was written under the (test-mode) config and data locations.
    void nothingOnDisk()
    {
        for (auto location : {QStandardPaths::GenericConfigLocation,
                              QStandardPaths::AppConfigLocation, QStandardPaths::AppDataLocation}) {
            const QString dir = QStandardPaths::writableLocation(location);
            QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                QFile f(it.next());
                if (f.open(QIODevice::ReadOnly))
                    QVERIFY2(!f.readAll().contains("s3cr3t-pw"), qPrintable(f.fileName()));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TstProfileSecrets)
#include "tst_profile_secrets.moc"
