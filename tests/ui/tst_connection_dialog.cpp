#include "ConnectionDialog.h"
#include "RedisFixture.h"
#include "UnlockDialog.h"
#include "session/ProfileStore.h"
#include "session/SecretStore.h"
#include "session/WriteGate.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

using session::ConnectionProfile;
using testsupport::StandaloneRedis;
using ui::ConnectionDialog;

namespace {
template<class W>
W *child(QWidget *parent, const char *name)
{
    W *w = parent->findChild<W *>(QLatin1String(name));
    if (!w)
        qFatal("no widget %s", name);
    return w;
}

QString resultFor(QTreeWidget *tree, const QString &label)
{
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        if (tree->topLevelItem(i)->text(0) == label)
            return tree->topLevelItem(i)->text(1);
    return {};
}
} // namespace

class TstConnectionDialog : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    QString m_version;
    QTemporaryDir m_dir;

    std::unique_ptr<QSettings> settings()
    {
        auto s = std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("console.ini")),
                                             QSettings::IniFormat);
        return s;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        auto admin = m_redis.connect();
        QVERIFY(admin->call({"ACL", "SETUSER", "alice", "on", ">Al1ce-pw", "~*", "+@all"}).ok());
        const auto info = admin->call({"INFO", "server"});
        for (const QByteArray &line : info->bytes().split('\n'))
            if (line.startsWith("redis_version:"))
                m_version = QString::fromLatin1(line.mid(14).trimmed());
        QVERIFY(!m_version.isEmpty());
    }

    void fillFromUrlThenTest()
    {
        auto s = settings();
        session::ProfileStore profiles(s.get());
        session::SecretStore secrets(session::SecretStore::Mode::SessionOnly);
        ConnectionDialog dialog(profiles, secrets);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));

        // A URL with a mistake: the reason shows, without the password.
        auto *url = child<QLineEdit>(&dialog, "urlEdit");
        url->setText(QStringLiteral("redis://alice:Al1ce-pw@127.0.0.1:99999"));
        QTest::mouseClick(child<QPushButton>(&dialog, "fillButton"), Qt::LeftButton);
        auto *urlNote = child<QLabel>(&dialog, "urlNote");
        QVERIFY(urlNote->text().contains(QLatin1String("port")));
        QVERIFY(!urlNote->text().contains(QLatin1String("Al1ce")));

        url->setText(QStringLiteral("redis://alice:Al1ce-pw@127.0.0.1:%1/2").arg(m_redis.port()));
        QTest::keyClick(url, Qt::Key_Return);
        QCOMPARE(child<QLineEdit>(&dialog, "hostEdit")->text(), QStringLiteral("127.0.0.1"));
        QCOMPARE(child<QSpinBox>(&dialog, "portSpin")->value(), int(m_redis.port()));
        QCOMPARE(child<QSpinBox>(&dialog, "databaseSpin")->value(), 2);
        QCOMPARE(child<QLineEdit>(&dialog, "userEdit")->text(), QStringLiteral("alice"));
        QCOMPARE(dialog.password(), QStringLiteral("Al1ce-pw"));
        QVERIFY(!child<QCheckBox>(&dialog, "tlsEnabled")->isChecked());
        QVERIFY(url->text().isEmpty()); // the password does not stay on screen in the URL
        QVERIFY(child<QLabel>(&dialog, "passwordNote")
                    ->text()
                    .contains(QLatin1String("for this session only")));

        // Test runs in the background: the click returns at once, the UI keeps going.
        auto *test = child<QPushButton>(&dialog, "testButton");
        QTest::mouseClick(test, Qt::LeftButton);
        QVERIFY(dialog.isTesting());
        QVERIFY(!test->isEnabled());
        auto *results = child<QTreeWidget>(&dialog, "testResults");
        QTRY_VERIFY_WITH_TIMEOUT(results->topLevelItemCount() > 0, 10000);
        QVERIFY(test->isEnabled());
        QVERIFY2(resultFor(results, QStringLiteral("Server")).contains(m_version),
                 qPrintable(resultFor(results, QStringLiteral("Server"))));
        QCOMPARE(resultFor(results, QStringLiteral("User")), QStringLiteral("alice"));
        QCOMPARE(resultFor(results, QStringLiteral("Mode")), QStringLiteral("standalone"));
        QCOMPARE(resultFor(results, QStringLiteral("'alice' may call inventory_deduct_v1")),
                 QStringLiteral("allowed"));
        QVERIFY(child<QLabel>(&dialog, "testStatus")->text().contains(m_version));
    }

    void failedTestSaysWhatToCheck()
    {
        auto s = settings();
        session::ProfileStore profiles(s.get());
        session::SecretStore secrets(session::SecretStore::Mode::SessionOnly);
        ConnectionDialog dialog(profiles, secrets);
        QVERIFY(dialog.fillFromUrl(
            QStringLiteral("redis://alice:Wr0ng-pw@127.0.0.1:%1").arg(m_redis.port())));
        std::optional<session::ProbeResult> got;
        connect(&dialog, &ConnectionDialog::testFinished, this,
                [&](const session::ProbeResult &r) { got = r; });
        dialog.startTest();
        QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 10000);
        QVERIFY(!got->ok());
        const QString status = child<QLabel>(&dialog, "testStatus")->text();
        QVERIFY2(status.contains(QLatin1String("user name and password")), qPrintable(status));
        QVERIFY(!status.contains(QLatin1String("Wr0ng")));
    }

    void saveValidatesThenStores()
    {
        auto s = settings();
        s->clear();
        session::ProfileStore profiles(s.get());
        session::SecretStore secrets(session::SecretStore::Mode::SessionOnly);
        ConnectionDialog dialog(profiles, secrets);
        dialog.show();
        QVERIFY(dialog.fillFromUrl(
            QStringLiteral("redis://alice:Al1ce-pw@127.0.0.1:%1").arg(m_redis.port())));
        child<QLineEdit>(&dialog, "hostEdit")->clear();
        child<QLineEdit>(&dialog, "nameEdit")->setText(QStringLiteral("prod-eu"));
        auto *env = child<QComboBox>(&dialog, "environmentCombo");
        env->setCurrentIndex(env->findData(QStringLiteral("production")));
        QCOMPARE(child<QLabel>(&dialog, "environmentSwatch")->text(), QStringLiteral("PRODUCTION"));
        QVERIFY(
            child<QLabel>(&dialog, "environmentNote")->text().contains(QLatin1String("read-only")));

        QTest::mouseClick(child<QPushButton>(&dialog, "saveButton"), Qt::LeftButton);
        QVERIFY(dialog.isVisible()); // a problem keeps the dialog open
        auto *problems = child<QLabel>(&dialog, "problems");
        QVERIFY(problems->isVisible());
        QVERIFY2(problems->text().contains(QLatin1String("host")), qPrintable(problems->text()));
        QVERIFY(profiles.list().isEmpty());

        child<QLineEdit>(&dialog, "hostEdit")->setText(QStringLiteral("127.0.0.1"));
        std::optional<ConnectionProfile> saved;
        connect(&dialog, &ConnectionDialog::profileSaved, this,
                [&](const ConnectionProfile &p) { saved = p; });
        QTest::mouseClick(child<QPushButton>(&dialog, "saveButton"), Qt::LeftButton);
        QVERIFY(saved.has_value());
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(profiles.list().size(), 1);
        const ConnectionProfile stored = profiles.list().first();
        QCOMPARE(stored.name, QStringLiteral("prod-eu"));
        QCOMPARE(stored.environment, QStringLiteral("production"));
        QCOMPARE(stored.username, QStringLiteral("alice"));
        QCOMPARE(stored.port, int(m_redis.port()));
        QVERIFY(stored.startsReadOnly());

        // The password went to the SecretStore, not the settings file.
        std::optional<std::optional<QString>> pw;
        secrets.load(session::SecretStore::keyFor(QStringLiteral("prod-eu")), this,
                     [&](const std::optional<QString> &p) { pw = p; });
        QTRY_VERIFY(pw.has_value());
        QCOMPARE(pw->value_or(QString()), QStringLiteral("Al1ce-pw"));
        s->sync();
        QFile file(s->fileName());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains("Al1ce-pw"));

        // Editing it again shows what was saved, password included.
        ConnectionDialog again(profiles, secrets);
        again.setProfile(stored);
        QTRY_COMPARE(again.password(), QStringLiteral("Al1ce-pw"));
        QCOMPARE(again.profile(), stored);
    }

    void unlockDialog()
    {
        auto client = m_redis.connect();
        ConnectionProfile p;
        p.name = QStringLiteral("prod-eu");
        p.environment = QStringLiteral("production");
        session::WriteGate gate(*client, p);
        QVERIFY(gate.isReadOnly());

        // Typing the wrong name keeps the button off; the exact name unlocks.
        bool sawDisabled = false;
        QTimer::singleShot(0, this, [&] {
            auto *dialog = qobject_cast<ui::UnlockDialog *>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            auto *typed = child<QLineEdit>(dialog, "typedName");
            auto *button = child<QPushButton>(dialog, "unlockButton");
            QTest::keyClicks(typed, QStringLiteral("PROD-EU"));
            sawDisabled = !button->isEnabled();
            typed->clear();
            QTest::keyClicks(typed, QStringLiteral("prod-eu"));
            QVERIFY(button->isEnabled());
            QTest::mouseClick(button, Qt::LeftButton);
        });
        QVERIFY(ui::UnlockDialog::unlock(gate));
        QVERIFY(sawDisabled);
        QVERIFY(!gate.isReadOnly());

        gate.lock();
        QTimer::singleShot(0, this, [&] {
            if (auto *dialog = QApplication::activeModalWidget())
                dialog->close(); // cancel
        });
        QVERIFY(!ui::UnlockDialog::unlock(gate));
        QVERIFY(gate.isReadOnly());
    }
};

QTEST_MAIN(TstConnectionDialog)
#include "tst_connection_dialog.moc"
