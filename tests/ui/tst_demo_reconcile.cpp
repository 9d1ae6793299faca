// SPDX-License-Identifier: GPL-3.0-or-later
// The demo's first minute on the Reconcile tab: seeding with a ledger path plants the SQLite
// ledger there (0600) and fills the tab in with it, and one Run finds every class.
#include "RedisFixture.h"
#include "session/ConsoleSession.h"
#include "ui/MainWindow.h"
#include "ui/common/NoticeBanner.h"
#include "ui/reconcile/ReconcileFindingsModel.h"
#include "ui/reconcile/ReconcilePanel.h"

#include <QLineEdit>
#include <QSet>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

class TstDemoReconcile : public QObject
{
    Q_OBJECT

private slots:
    void demoLedgerIsPlantedAndEveryClassFound()
    {
        testsupport::StandaloneRedis redis;
        QVERIFY2(redis.start(), qPrintable(redis.errorString()));
        const redis::ConnectionOptions o = redis.options();
        profiles::ConnectionProfile profile;
        profile.name = QStringLiteral("demo");
        profile.host = o.host;
        profile.port = o.port;
        profile.environment = QStringLiteral("test");
        ui::MainWindow window(std::make_unique<session::ConsoleSession>(profile, o.password));
        window.show();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ledger.db"));
        window.seedDemo({}, path);

        auto *panel = window.findChild<ui::ReconcilePanel *>();
        QVERIFY(panel);
        auto *location = panel->findChild<QLineEdit *>(QStringLiteral("ledgerLocation"));
        QTRY_COMPARE_WITH_TIMEOUT(location->text(), path, 20000);
        struct stat st = {};
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        QCOMPARE(int(st.st_mode & 0777), 0600);
        auto *note = panel->findChild<ui::NoticeBanner *>(QStringLiteral("reconcileNote"));
        QVERIFY2(note->text().startsWith("Demo: a SQLite order ledger of "),
                 qPrintable(note->text()));
        QVERIFY(window.showTab(QStringLiteral("reconcile")));
        QCOMPARE(window.tabs()->currentWidget(), panel);

        QSignalSpy done(panel, &ui::ReconcilePanel::runFinished);
        panel->run();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 30000);
        QCOMPARE(done.first().first().toBool(), false);
        QSet<int> classes;
        for (int row = 0; row < panel->findings()->rowCount(); ++row)
            classes << int(panel->findings()->finding(row).cls);
        QCOMPARE(classes.size(), reconcile::FindingClasses);
    }
};

QTEST_MAIN(TstDemoReconcile)
#include "tst_demo_reconcile.moc"
