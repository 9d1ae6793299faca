// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChildWidget.h"
#include "RedisFixture.h"
#include "gate/WriteGate.h"
#include "profiles/ProfileStore.h"
#include "profiles/SecretStore.h"
#include "ui/ConnectionDialog.h"
#include "ui/common/UnlockDialog.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

using profiles::ConnectionProfile;
using testsupport::child;
using testsupport::StandaloneRedis;
using ui::ConnectionDialog;

namespace {
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

    // Issue 28: the dialog is bounded by the screen (at 1366x768 its buttons sat on the last
    // pixels), unless its contents cannot be smaller; the environment list shows whole names.
    void fitsTheScreenAndNamesEnvironmentsWhole()
    {
        auto s = settings();
        profiles::ProfileStore profiles(s.get());
        profiles::SecretStore secrets(profiles::SecretStore::Mode::SessionOnly);
        ConnectionDialog dialog(profiles, secrets);
        const QSize available = QGuiApplication::primaryScreen()->availableGeometry().size();
        QVERIFY2(available.height() * 0.9 < 760,
                 "the test screen must be smaller than the default");
        QCOMPARE(dialog.height(),
                 qMax(dialog.minimumSizeHint().height(), int(available.height() * 0.9)));
        auto *combo = child<QComboBox>(&dialog, "environmentCombo");
        QCOMPARE(combo->view()->textElideMode(), Qt::ElideNone);
        QVERIFY(combo->view()->minimumWidth()
                >= combo->fontMetrics().horizontalAdvance(QStringLiteral("production")));
    }

    void fillFromUrlThenTest()
    {
        auto s = settings();
        profiles::ProfileStore profiles(s.get());
        profiles::SecretStore secrets(profiles::SecretStore::Mode::SessionOnly);
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
        profiles::ProfileStore profiles(s.get());
        profiles::SecretStore secrets(profiles::SecretStore::Mode::SessionOnly);
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
        profiles::ProfileStore profiles(s.get());
        profiles::SecretStore secrets(profiles::SecretStore::Mode::SessionOnly);
        ConnectionDialog dialog(profiles, secrets);
        dialog.show();
        QVERIFY(dialog.fillFromUrl(
            QStringLiteral("redis://alice:Al1ce-pw@127.0.0.1:%1").arg(m_redis.port())));
        child<QLineEdit>(&dialog, "hostEdit")->clear();
        child<QLineEdit>(&dialog, "nameEdit")->setText(QStringLiteral("prod-eu"));
        auto *env = child<QComboBox>(&dialog, "environmentCombo");
        // The user picks production (the empty host's default already): a choice all the same.
        env->setCurrentIndex(env->findData(QStringLiteral("production")));
        emit env->activated(env->currentIndex());
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
        // Save and Connect are separate: Save keeps the dialog open and says so.
        QVERIFY(dialog.isVisible());
        QCOMPARE(problems->text(), QStringLiteral("Saved as 'prod-eu' (production)."));
        QTest::mouseClick(child<QPushButton>(&dialog, "connectButton"), Qt::LeftButton);
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
        secrets.load(profiles::SecretStore::keyFor(QStringLiteral("prod-eu")), this,
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

        // The "Cluster & replicas" tab's announced-address map: checked as typed, a bad line named
        // by number and refused on save (on its tab), a good map saved and shown again.
        auto *map = child<QPlainTextEdit>(&again, "announcedMapEdit");
        auto *note = child<QLabel>(&again, "announcedMapNote");
        QVERIFY(note->text().contains("No mapping"));
        map->setPlainText(QStringLiteral("10.0.0.5:6379 = 127.0.0.1:7001\n10.0.0.6:6379"));
        QVERIFY2(note->text().startsWith("line 2: '10.0.0.6:6379' is not an address mapping"),
                 qPrintable(note->text()));
        again.show();
        QTest::mouseClick(child<QPushButton>(&again, "saveButton"), Qt::LeftButton);
        const QString refused = child<QLabel>(&again, "problems")->text();
        QVERIFY2(refused.contains("Cluster & replicas: announced addresses, line 2"),
                 qPrintable(refused));
        QVERIFY(profiles.list().first().announcedMap.isEmpty());
        map->setPlainText(QStringLiteral("10.0.0.5:6379 = 127.0.0.1:7001\nredis-2 = localhost"));
        QCOMPARE(note->text(), QStringLiteral("2 addresses mapped."));
        QTest::mouseClick(child<QPushButton>(&again, "saveButton"), Qt::LeftButton);
        const ConnectionProfile mapped = profiles.list().first();
        QCOMPARE(mapped.announcedMap,
                 QStringList({"10.0.0.5:6379=127.0.0.1:7001", "redis-2=localhost"}));
        ConnectionDialog third(profiles, secrets);
        third.setProfile(mapped);
        QCOMPARE(child<QPlainTextEdit>(&third, "announcedMapEdit")->toPlainText(),
                 QStringLiteral("10.0.0.5:6379 = 127.0.0.1:7001\nredis-2 = localhost"));
        QCOMPARE(third.profile().announcedMap, mapped.announcedMap);
    }

    // Safety bug 1: a pasted remote URL and Enter neither saves nor connects, and the remote
    // host is production until the user picks a label. No connection is made (the host is
    // only data).
    void remoteUrlAndEnterStaysOpenAsProduction()
    {
        auto s = settings();
        s->clear();
        profiles::ProfileStore profiles(s.get());
        profiles::SecretStore secrets(profiles::SecretStore::Mode::SessionOnly);
        ConnectionDialog dialog(profiles, secrets);
        bool saved = false;
        connect(&dialog, &ConnectionDialog::profileSaved, this, [&] { saved = true; });
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *env = child<QComboBox>(&dialog, "environmentCombo");
        QCOMPARE(env->currentData().toString(), QStringLiteral("local")); // 127.0.0.1

        auto *url = child<QLineEdit>(&dialog, "urlEdit");
        url->setFocus();
        QTest::keyClicks(url,
                         QStringLiteral("rediss://support@redis-staging.internal.example:6380/0"));
        QTest::keyClick(url, Qt::Key_Return);
        QCOMPARE(child<QLineEdit>(&dialog, "hostEdit")->text(),
                 QStringLiteral("redis-staging.internal.example"));
        QVERIFY(dialog.isVisible());
        QVERIFY(!saved);
        QVERIFY(profiles.list().isEmpty());
        QCOMPARE(env->currentData().toString(), QStringLiteral("production"));
        QCOMPARE(child<QLabel>(&dialog, "environmentSwatch")->text(), QStringLiteral("PRODUCTION"));
        QVERIFY(child<QLabel>(&dialog, "environmentNote")
                    ->text()
                    .startsWith(QLatin1String("Default for a host not written as localhost")));
        QVERIFY(dialog.profile().startsReadOnly());

        // Enter in any other field does not save either.
        auto *name = child<QLineEdit>(&dialog, "nameEdit");
        QTest::keyClick(name, Qt::Key_Return);
        QTest::keyClick(child<QLineEdit>(&dialog, "hostEdit"), Qt::Key_Enter);
        QVERIFY(dialog.isVisible());
        QVERIFY(!saved);

        // "Fill form" with a loopback URL gives local back; a saved unlabelled profile keeps
        // following its host wherever it is used.
        url->setText(QStringLiteral("redis://127.0.0.1:%1").arg(m_redis.port()));
        QTest::mouseClick(child<QPushButton>(&dialog, "fillButton"), Qt::LeftButton);
        QCOMPARE(env->currentData().toString(), QStringLiteral("local"));
        url->setText(QStringLiteral("redis://10.20.30.40:6379"));
        QTest::mouseClick(child<QPushButton>(&dialog, "fillButton"), Qt::LeftButton);
        QCOMPARE(env->currentData().toString(), QStringLiteral("production"));
        QCOMPARE(dialog.profile().environment, QString());
        QVERIFY(dialog.profile().startsReadOnly());
    }

    // The host decides the label until the user picks one; a pick survives host edits, and
    // local on a remote host is called out.
    void hostDefaultUntilChosen()
    {
        auto s = settings();
        profiles::ProfileStore profiles(s.get());
        profiles::SecretStore secrets(profiles::SecretStore::Mode::SessionOnly);
        ConnectionDialog dialog(profiles, secrets);
        auto *host = child<QLineEdit>(&dialog, "hostEdit");
        auto *env = child<QComboBox>(&dialog, "environmentCombo");
        const QList<std::pair<QString, QString>> hosts{
            {"localhost", "local"}, {"127.0.0.5", "local"},     {"::1", "local"},
            {"vm", "production"},   {"10.0.0.5", "production"}, {"127.0.0.1.nip.io", "production"}};
        for (const auto &[h, label] : hosts) {
            host->setText(h);
            QCOMPARE(env->currentData().toString(), label);
        }
        env->setCurrentIndex(env->findData(QStringLiteral("staging")));
        host->setText(QStringLiteral("127.0.0.1"));
        QCOMPARE(env->currentData().toString(), QStringLiteral("staging"));
        QCOMPARE(dialog.profile().environment, QStringLiteral("staging"));
        env->setCurrentIndex(env->findData(QStringLiteral("local")));
        host->setText(QStringLiteral("redis-staging.internal.example"));
        QCOMPARE(env->currentData().toString(), QStringLiteral("local"));
        QVERIFY(child<QLabel>(&dialog, "environmentNote")
                    ->text()
                    .startsWith(QLatin1String("This host is not written as loopback")));

        // Reopening: a labelled profile keeps its label, an unlabelled one follows its host.
        ConnectionProfile unlabelled;
        unlabelled.name = QStringLiteral("tunnel");
        unlabelled.host = QStringLiteral("localhost");
        ConnectionDialog again(profiles, secrets);
        again.setProfile(unlabelled);
        auto *env2 = child<QComboBox>(&again, "environmentCombo");
        QCOMPARE(env2->currentData().toString(), QStringLiteral("local"));
        child<QLineEdit>(&again, "hostEdit")->setText(QStringLiteral("prod-host"));
        QCOMPARE(env2->currentData().toString(), QStringLiteral("production"));
        QCOMPARE(again.profile(), [&] {
            ConnectionProfile p = unlabelled;
            p.host = QStringLiteral("prod-host");
            return p;
        }());
    }

    // Every Alt+letter of the dialog is taken once (Alt+T was both Test and Timeout).
    void mnemonicsAreUnique()
    {
        auto s = settings();
        profiles::ProfileStore profiles(s.get());
        profiles::SecretStore secrets(profiles::SecretStore::Mode::SessionOnly);
        ConnectionDialog dialog(profiles, secrets);
        QHash<QChar, QString> seen;
        QStringList texts;
        for (QLabel *l : dialog.findChildren<QLabel *>()) {
            texts << l->text();
            // A label's Alt+letter moves the focus to its buddy: one that takes focus.
            if (l->text().contains(QRegularExpression(QStringLiteral("&\\w"))))
                QVERIFY2(l->buddy() && l->buddy()->focusPolicy() != Qt::NoFocus,
                         qPrintable(l->text()));
        }
        for (QAbstractButton *b : dialog.findChildren<QAbstractButton *>())
            texts << b->text();
        for (int i = 0; i < child<QTabWidget>(&dialog, "profileTabs")->count(); ++i)
            texts << child<QTabWidget>(&dialog, "profileTabs")->tabText(i);
        for (const QString &t : texts) {
            const qsizetype at = t.indexOf(QLatin1Char('&'));
            if (at < 0 || at + 1 >= t.size() || !t.at(at + 1).isLetterOrNumber())
                continue;
            const QChar key = t.at(at + 1).toLower();
            QVERIFY2(!seen.contains(key),
                     qPrintable(QStringLiteral("Alt+%1: '%2' and '%3'").arg(key, seen[key], t)));
            seen.insert(key, t);
        }
        QVERIFY(seen.contains(QLatin1Char('t')));
    }

    // "Test connection" logs in as the release user too and dry-runs what a change sends.
    void testChecksTheReleaseUser()
    {
        auto admin = m_redis.connect();
        QVERIFY(admin
                    ->call({"ACL", "SETUSER", "rel", "reset", "on", ">Rel-pw-1", "~*", "+function",
                            "+info", "+acl|dryrun", "+client|setname", "+echo"})
                    .ok());
        auto s = settings();
        profiles::ProfileStore profiles(s.get());
        profiles::SecretStore secrets(profiles::SecretStore::Mode::SessionOnly);
        ConnectionDialog dialog(profiles, secrets);
        QVERIFY(dialog.fillFromUrl(
            QStringLiteral("redis://alice:Al1ce-pw@127.0.0.1:%1").arg(m_redis.port())));
        child<QLineEdit>(&dialog, "releaseUserEdit")->setText(QStringLiteral("rel"));
        child<QLineEdit>(&dialog, "releasePasswordEdit")->setText(QStringLiteral("Rel-pw-1"));
        std::optional<session::ProbeResult> got;
        connect(&dialog, &ConnectionDialog::testFinished, this,
                [&](const session::ProbeResult &r) { got = r; });
        dialog.startTest();
        QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 10000);
        QVERIFY(got->ok());
        auto *results = child<QTreeWidget>(&dialog, "testResults");
        QCOMPARE(resultFor(results, QStringLiteral("Release user")),
                 QStringLiteral("rel: logged in"));
        QCOMPARE(resultFor(results,
                           QStringLiteral("'rel' may back up function libraries (FUNCTION DUMP)")),
                 QStringLiteral("allowed"));
        QCOMPARE(resultFor(results, QStringLiteral("'rel' may load function libraries")),
                 QStringLiteral("allowed"));
        QCOMPARE(resultFor(results, QStringLiteral("'alice' may call inventory_deduct_v1")),
                 QStringLiteral("allowed"));
        QCOMPARE(resultFor(results, QStringLiteral("'alice' may load function libraries")),
                 QStringLiteral("allowed (loads run as 'rel')"));
        QCOMPARE(resultFor(results, QStringLiteral("'alice' may load function libraries")),
                 QStringLiteral("allowed (loads run as 'rel')"));

        got.reset();
        child<QLineEdit>(&dialog, "releasePasswordEdit")->setText(QStringLiteral("Wr0ng-rel"));
        dialog.startTest();
        QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 10000);
        QVERIFY(got->ok()); // the session itself connects
        const QString status = child<QLabel>(&dialog, "testStatus")->text();
        QVERIFY2(status.contains(QLatin1String("The release user 'rel' could not log in: wrong "
                                               "user name or password")),
                 qPrintable(status));
        QVERIFY(!status.contains(QLatin1String("Wr0ng")));
        QVERIFY(resultFor(results, QStringLiteral("Release user"))
                    .startsWith(QLatin1String("rel: wrong user name or password")));
        QVERIFY(admin->call({"ACL", "DELUSER", "rel"}).ok());
    }

    // "--connect shows an empty form after saving": the dialog opens on the saved profiles;
    // one can be reopened, duplicated and deleted.
    void profileListReopensSaved()
    {
        auto s = settings();
        s->clear();
        profiles::ProfileStore profiles(s.get());
        profiles::SecretStore secrets(profiles::SecretStore::Mode::SessionOnly);
        {
            ConnectionDialog first(profiles, secrets);
            QCOMPARE(child<QListWidget>(&first, "profileList")->count(), 0);
            QVERIFY(first.fillFromUrl(
                QStringLiteral("redis://alice:Al1ce-pw@127.0.0.1:%1").arg(m_redis.port())));
            child<QLineEdit>(&first, "nameEdit")->setText(QStringLiteral("staging-walk"));
            QVERIFY(first.save());
            QCOMPARE(child<QListWidget>(&first, "profileList")->count(), 1);
        }
        ConnectionDialog dialog(profiles, secrets);
        auto *list = child<QListWidget>(&dialog, "profileList");
        QCOMPARE(list->count(), 1);
        QVERIFY2(list->currentItem()->text().startsWith(QStringLiteral("staging-walk\nLOCAL · ")),
                 qPrintable(list->currentItem()->text()));
        QCOMPARE(child<QLineEdit>(&dialog, "nameEdit")->text(), QStringLiteral("staging-walk"));
        QTRY_COMPARE(dialog.password(), QStringLiteral("Al1ce-pw"));

        QTest::mouseClick(child<QPushButton>(&dialog, "duplicateProfileButton"), Qt::LeftButton);
        QCOMPARE(child<QLineEdit>(&dialog, "nameEdit")->text(),
                 QStringLiteral("staging-walk copy"));
        QVERIFY(dialog.save());
        QCOMPARE(profiles.list().size(), 2);
        QVERIFY(profiles.find(QStringLiteral("staging-walk")).has_value());
        QCOMPARE(list->count(), 2);

        list->setCurrentRow(0);
        QCOMPARE(child<QLineEdit>(&dialog, "nameEdit")->text(), QStringLiteral("staging-walk"));
        QTimer::singleShot(0, this, [] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget()))
                box->button(QMessageBox::Yes)->click();
        });
        QTest::mouseClick(child<QPushButton>(&dialog, "deleteProfileButton"), Qt::LeftButton);
        QCOMPARE(profiles.list().size(), 1);
        QCOMPARE(profiles.list().first().name, QStringLiteral("staging-walk copy"));
        QCOMPARE(list->count(), 1);
        QCOMPARE(child<QLineEdit>(&dialog, "nameEdit")->text(), QString()); // a new form

        QTest::mouseClick(child<QPushButton>(&dialog, "newProfileButton"), Qt::LeftButton);
        QCOMPARE(list->currentRow(), -1);
        QCOMPARE(dialog.password(), QString());
    }

    void unlockDialog()
    {
        auto client = m_redis.connect();
        ConnectionProfile p;
        p.name = QStringLiteral("prod-eu");
        p.environment = QStringLiteral("production");
        gate::WriteGate gate(*client, p);
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
