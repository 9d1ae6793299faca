// SPDX-License-Identifier: GPL-3.0-or-later
// The libraries view and the load wizard, offscreen, against a real redis-server holding the
// 1.0.0 release: the view says the shipped 1.3.0 differs; the wizard walks contract, code
// diff, preflight (with a production unlock), backup, confirmation and result; the view then
// shows the library identical to the shipped file.
#include "AclUsers.h"
#include "ChangeFixture.h"
#include "RedisFixture.h"
#include "ServerTest.h"
#include "functions/FunctionBackup.h"
#include "functions/LibraryVersion.h"
#include "functions/LocalCatalog.h"
#include "gate/WriteGate.h"
#include "ui/common/LuaCodeView.h"
#include "ui/functions/BackupPage.h"
#include "ui/functions/CodeDiffView.h"
#include "ui/functions/CommandField.h"
#include "ui/functions/ConfirmPage.h"
#include "ui/functions/ContractPage.h"
#include "ui/functions/DiffPage.h"
#include "ui/functions/LibrariesView.h"
#include "ui/functions/LoadWizard.h"
#include "ui/functions/PreflightPage.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

using namespace functions;

namespace {
const QByteArray Misc = "#!lua name=misc\nredis.register_function{function_name='ping_ro', "
                        "callback=function() return 1 end, flags={'no-writes'}}\n";
} // namespace

class TstFunctionsWizard : public testsupport::ChangeTest
{
    Q_OBJECT

    ChangeContext context()
    {
        return testsupport::singleNodeContext(*m_c, m_gate.get(), m_dir, "ui test");
    }
    void useGate(const QString &environment)
    {
        profiles::ConnectionProfile p;
        p.name = QStringLiteral("ui test");
        p.environment = environment;
        m_gate = std::make_unique<gate::WriteGate>(*m_c, p);
    }
    QByteArray serverCode(const QByteArray &library)
    {
        auto libs = redis::decodeFunctionList(m_c->call({"FUNCTION", "LIST", "WITHCODE"}).value());
        for (const redis::LibraryInfo &l : libs.value())
            if (l.name == QString::fromUtf8(library))
                return l.code;
        return {};
    }
    static QAbstractButton *next(QWizard *w)
    {
        return w->button(w->currentPage()->isCommitPage() ? QWizard::CommitButton
                                                          : QWizard::NextButton);
    }

private slots:
    void initTestCase() { QCOMPARE(startServer(), QString()); }

    void init()
    {
        QVERIFY(m_c->call({"FUNCTION", "FLUSH"}).ok());
        QVERIFY(m_c->call({"FUNCTION", "LOAD", testsupport::previousReleaseSource()}).ok());
        QVERIFY(m_c->call({"FUNCTION", "LOAD", Misc}).ok());
        useGate(QStringLiteral("local"));
    }

    void viewShowsLoadedAndDiffering()
    {
        ui::LibrariesView view(context());
        QSignalSpy refreshed(&view, &ui::LibrariesView::refreshed);
        view.resize(1400, 900);
        view.show();
        view.refresh();
        QVERIFY(refreshed.wait(5000));
        QTreeWidget *tree = view.tree();
        QCOMPARE(tree->topLevelItemCount(), 2);
        QTreeWidgetItem *lib = tree->topLevelItem(0);
        QCOMPARE(lib->text(0), QStringLiteral("inventory_lib_v1"));
        QCOMPARE(lib->text(1), QStringLiteral("1.0.0"));
        QCOMPARE(lib->text(4), QStringLiteral("5479a38e54d6"));
        QCOMPARE(lib->text(5),
                 QStringLiteral("differs from shipped functions/inventory_lib_v1.lua (1.3.0)"));
        QCOMPARE(lib->child(0)->text(0), QStringLiteral("inventory_deduct_v1"));
        QCOMPARE(lib->child(0)->text(2), QStringLiteral("(no flags)"));
        QTreeWidgetItem *misc = tree->topLevelItem(1);
        QCOMPARE(misc->text(1), QStringLiteral("unversioned"));
        QCOMPARE(misc->text(5), QStringLiteral("unknown (no local file of this library)"));
        QCOMPARE(misc->child(0)->text(2), QStringLiteral("no-writes"));
        QCOMPARE(misc->child(0)->text(3), QStringLiteral("(no description)"));
        QVERIFY(view.banner()->isVisible());
        QCOMPARE(view.banner()->text(),
                 QStringLiteral("inventory_lib_v1: loaded 1.0.0, local file 1.3.0 (shipped "
                                "functions/inventory_lib_v1.lua) differs."));
        QCOMPARE(view.codeView()->text().toUtf8(), testsupport::previousReleaseSource());
        QVERIFY(view.codeView()->isReadOnly());
        tree->setCurrentItem(misc->child(0));
        QCOMPARE(view.codeView()->text().toUtf8(), Misc);
    }

    // The whole walk, with a production session unlocked on the preflight page.
    void wizardLoadsTheUpgrade()
    {
        useGate(QStringLiteral("production"));
        ui::LibrariesView view(context());
        QSignalSpy refreshed(&view, &ui::LibrariesView::refreshed);
        view.refresh();
        QVERIFY(refreshed.wait(5000));
        ui::LoadWizard *w = view.startLoad(QStringLiteral(":/functions/inventory_lib_v1.lua"));
        QVERIFY(w);
        QCOMPARE(w->currentId(), int(ui::LoadWizard::Contract));
        // It opens within 1280x720 (a 1366x768 screen with a task bar) and within this screen.
        QVERIFY(w->isVisible());
        const QSize available = w->screen()->availableGeometry().size();
        QVERIFY2(w->width() <= qMin(1280, available.width())
                     && w->height() <= qMin(720, available.height()),
                 qPrintable(QStringLiteral("%1x%2 on %3x%4")
                                .arg(w->width())
                                .arg(w->height())
                                .arg(available.width())
                                .arg(available.height())));
        QTRY_VERIFY_WITH_TIMEOUT(next(w)->isEnabled(), 5000);
        QTableWidget *table = w->contractPage()->table();
        // Rows by name: 1.3.0 added inventory_adjust_v1 and inventory_release_v1 (issue 32).
        QCOMPARE(table->rowCount(), 5);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("inventory_adjust_v1"));
        QCOMPARE(table->item(1, 0)->text(), QStringLiteral("inventory_deduct_v1"));
        QCOMPARE(table->item(4, 0)->text(), QStringLiteral("inventory_release_v1"));
        // 1.2.0 checks permissions before the first write: v1's code changed in place.
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("code"));
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("added"));
        QCOMPARE(table->item(2, 1)->text(), QStringLiteral("added"));
        QCOMPARE(table->item(4, 1)->text(), QStringLiteral("added"));
        QCOMPARE(table->item(3, 3)->text(), QStringLiteral("no-writes"));
        // What the added functions are for: their descriptions, from the new file.
        QCOMPARE(table->horizontalHeaderItem(4)->text(), QStringLiteral("Description"));
        QVERIFY2(table->item(2, 4)->text().startsWith(
                     "Deduct stock once per order, recording the quantity"),
                 qPrintable(table->item(2, 4)->text()));
        QVERIFY2(table->item(3, 4)->text().startsWith("Read an order receipt"),
                 qPrintable(table->item(3, 4)->text()));
        QVERIFY2(table->item(4, 4)->text().startsWith("Release an order deduction once"),
                 qPrintable(table->item(4, 4)->text()));

        // 2. The code diff.
        next(w)->click();
        QCOMPARE(w->currentId(), int(ui::LoadWizard::Diff));
        ui::CodeDiffView *diff = w->diffPage()->view();
        QVERIFY(diff->left()->text().contains("-- version: 1.0.0"));
        QVERIFY(diff->right()->text().contains("-- version: 1.3.0"));
        QCOMPARE(diff->left()->lines(), diff->right()->lines()); // aligned rows
        QVERIFY(diff->unified()->text().contains("\n+-- version: 1.3.0\n"));

        // 3. Preflight: refused until the production session is unlocked.
        next(w)->click();
        QCOMPARE(w->currentId(), int(ui::LoadWizard::Preflight));
        QTreeWidget *checks = w->preflightPage()->checks();
        // Contract, Environment, Permission (the load), Backup (FUNCTION DUMP), Change lock.
        QTRY_COMPARE_WITH_TIMEOUT(checks->topLevelItemCount(), 5, 5000);
        QVERIFY(checks->topLevelItem(4)->text(1).startsWith(QStringLiteral("Change lock on "))
                || checks->topLevelItem(4)->text(2).contains(QStringLiteral("change lock")));
        QVERIFY(!next(w)->isEnabled());
        QCOMPARE(checks->topLevelItem(1)->text(0), QStringLiteral("✖ refused"));
        QVERIFY(m_gate->unlock(QStringLiteral("ui test")));
        QAbstractButton *again = nullptr;
        for (QAbstractButton *b : w->preflightPage()->findChildren<QAbstractButton *>())
            if (b->text() == QStringLiteral("Check again"))
                again = b;
        QVERIFY(again);
        again->click();
        QTRY_VERIFY_WITH_TIMEOUT(next(w)->isEnabled(), 5000);
        QCOMPARE(checks->topLevelItem(1)->text(0), QStringLiteral("⚠ warning"));

        // 4. Backup.
        next(w)->click();
        QCOMPARE(w->currentId(), int(ui::LoadWizard::Backup));
        QTRY_VERIFY_WITH_TIMEOUT(next(w)->isEnabled(), 5000);
        const QString backup = w->backupPage()->path()->text();
        QVERIFY2(QFile::exists(backup), qPrintable(backup));
        // The way back, whole, and Copy puts exactly that command on the clipboard.
        ui::CommandField *command = w->backupPage()->command();
        QVERIFY(command->isVisible());
        // The context names a profile but not how the CLI reaches it (an unsaved profile has
        // no name the CLI could find): the command names the server.
        const QString expected = QStringLiteral("inventory-cli functions rollback --url "
                                                "redis://%1 --backup %2 --confirm inventory_lib_v1")
                                     .arg(m_c->address(), ui::CommandField::shellQuote(backup));
        QCOMPARE(command->text()->toPlainText(), expected);
        QApplication::clipboard()->clear();
        command->copyButton()->click();
        QCOMPARE(QApplication::clipboard()->text(), expected);

        // 5. Confirmation: only the exact name enables the commit button.
        next(w)->click();
        QCOMPARE(w->currentId(), int(ui::LoadWizard::Confirm));
        QAbstractButton *commit = w->button(QWizard::CommitButton);
        QCOMPARE(commit->text(), QStringLiteral("Load inventory_lib_v1"));
        QVERIFY(!w->confirmPage()->acknowledge()->isVisible()); // compatible: no second ack
        QTest::keyClicks(w->confirmPage()->typed(), "inventory_lib");
        QVERIFY(!commit->isEnabled());
        QTest::keyClicks(w->confirmPage()->typed(), "_v1");
        QVERIFY(commit->isEnabled());
        QCOMPARE(serverCode("inventory_lib_v1"), testsupport::previousReleaseSource());

        // 6. The load, verified; the view refreshes and shows the library identical.
        refreshed.clear();
        commit->click();
        QCOMPARE(w->currentId(), int(ui::LoadWizard::Result));
        QTRY_VERIFY_WITH_TIMEOUT(w->button(QWizard::FinishButton)->isEnabled(), 5000);
        QCOMPARE(serverCode("inventory_lib_v1"),
                 testsupport::functionSource("inventory_lib_v1.lua"));
        QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty(), 5000);
        QCOMPARE(view.tree()->topLevelItem(0)->text(1), QStringLiteral("1.3.0"));
        QVERIFY(view.tree()->topLevelItem(0)->text(5).startsWith("identical to"));
        QVERIFY(!view.banner()->isVisible());
        w->close();
    }

    // Deleting is breaking: the commit button also needs the acknowledgement.
    void breakingNeedsTheCheckbox()
    {
        ui::LoadWizard w(context(), LibraryChange::deleteSpec("misc"));
        w.show();
        QTRY_VERIFY_WITH_TIMEOUT(next(&w)->isEnabled(), 5000);
        for (int id : {ui::LoadWizard::Diff, ui::LoadWizard::Preflight, ui::LoadWizard::Backup,
                       ui::LoadWizard::Confirm}) {
            QTRY_VERIFY_WITH_TIMEOUT(next(&w)->isEnabled(), 5000);
            if (w.currentId() == ui::LoadWizard::Preflight) {
                // Safety bug 3: a breaking contract is a warning row, and the summary above it
                // never says that every check passed.
                QTreeWidget *checks = w.preflightPage()->checks();
                QCOMPARE(checks->topLevelItem(0)->text(1), QStringLiteral("Contract"));
                QCOMPARE(checks->topLevelItem(0)->text(0), QStringLiteral("⚠ warning"));
                const QString summary = w.preflightPage()->summary()->text();
                QVERIFY2(!summary.contains(QLatin1String("Every check passed")),
                         qPrintable(summary));
                QVERIFY2(summary.contains(QLatin1String("not every check passed: one warning")),
                         qPrintable(summary));
            }
            next(&w)->click();
            QCOMPARE(w.currentId(), id);
        }
        QCheckBox *ack = w.confirmPage()->acknowledge();
        QVERIFY(ack->isVisible());
        QCOMPARE(ack->text(),
                 QStringLiteral("I understand this is a breaking change: ping_ro is removed"));
        QTest::keyClicks(w.confirmPage()->typed(), "misc");
        QVERIFY(!w.button(QWizard::CommitButton)->isEnabled());
        ack->setChecked(true);
        QVERIFY(w.button(QWizard::CommitButton)->isEnabled());
        w.button(QWizard::CommitButton)->click();
        QTRY_VERIFY_WITH_TIMEOUT(w.button(QWizard::FinishButton)->isEnabled(), 5000);
        QCOMPARE(serverCode("misc"), QByteArray());
    }

    // Safety bug 2 in the wizard: with a release user, every page says who runs its step,
    // and the whole walk works although the session user may only FCALL.
    void wizardRunsAsTheReleaseUser()
    {
        QVERIFY(testsupport::createSupportAndReleaseUsers(*m_c));
        const auto support = m_redis.connect(testsupport::optionsAs(m_redis.options(), "support"));
        const auto release = m_redis.connect(testsupport::optionsAs(m_redis.options(), "release"));
        ChangeContext c = context();
        c.nodes = {ChangeTarget{support->address(), support.get(), release.get()}};
        c.loadUser = QStringLiteral("release");

        // The view reads as the release user too: `support` may not even FUNCTION LIST.
        ui::LibrariesView view(c);
        QSignalSpy refreshed(&view, &ui::LibrariesView::refreshed);
        view.refresh();
        QVERIFY(refreshed.wait(5000));
        QCOMPARE(view.tree()->topLevelItemCount(), 2); // the error would leave it empty
        QCOMPARE(view.tree()->topLevelItem(0)->text(0), QStringLiteral("inventory_lib_v1"));

        ui::LoadWizard w(c, LibraryChange::loadSpec(
                                *inspectFile(QStringLiteral(":/functions/inventory_lib_v1.lua"))));
        w.resize(1366, 768);
        w.show();
        const QString who = QStringLiteral("ACL user 'release' (the profile's release user)");
        for (int id : {ui::LoadWizard::Contract, ui::LoadWizard::Diff, ui::LoadWizard::Preflight,
                       ui::LoadWizard::Backup, ui::LoadWizard::Confirm}) {
            QCOMPARE(w.currentId(), id);
            if (id == ui::LoadWizard::Confirm)
                QTest::keyClicks(w.confirmPage()->typed(), "inventory_lib_v1");
            QTRY_VERIFY_WITH_TIMEOUT(next(&w)->isEnabled(), 5000);
            if (id != ui::LoadWizard::Diff && id != ui::LoadWizard::Confirm)
                QVERIFY2(w.currentPage()->subTitle().contains(who),
                         qPrintable(w.currentPage()->subTitle()));
            if (id != ui::LoadWizard::Confirm)
                next(&w)->click();
        }
        QCOMPARE(
            w.preflightPage()->summary()->text(),
            QStringLiteral("Every check passed. Next: a backup of what the server holds now."));
        w.button(QWizard::CommitButton)->click();
        QTRY_VERIFY_WITH_TIMEOUT(w.button(QWizard::FinishButton)->isEnabled(), 5000);
        QVERIFY(w.currentPage()->subTitle().contains(who));
        QCOMPARE(serverCode("inventory_lib_v1"),
                 testsupport::functionSource("inventory_lib_v1.lua"));
        QCOMPARE(testsupport::render(m_c->call({"ACL", "LOG"})), QStringLiteral("{}"));
        w.close();
        QVERIFY(m_c->call({"ACL", "DELUSER", "support", "release"}).ok());
    }

    // A file Redis would refuse is never sent: the view says why and opens no wizard.
    // A rollback says so: in the wizard's contract page title and heading, in plain words; the
    // version going down is what it is for, not a warning.
    void rollbackIsTitledAsOne()
    {
        QVERIFY(m_c->call({"FUNCTION", "LOAD", "REPLACE",
                           testsupport::functionSource("inventory_lib_v1.lua")})
                    .ok());
        FunctionBackup b;
        b.created = QDateTime::currentDateTimeUtc();
        b.library = QStringLiteral("inventory_lib_v1");
        b.action = QStringLiteral("load");
        b.profile = QStringLiteral("ui test");
        b.environment = QStringLiteral("local");
        NodeBackup n;
        n.address = m_c->address();
        n.redisVersion = QStringLiteral("7.0.0");
        redis::LibraryInfo l;
        l.name = b.library;
        l.code = testsupport::previousReleaseSource();
        n.libraries << l;
        b.nodes << n;
        QVERIFY(b.write(m_dir.filePath("rollback-title")));

        ui::LibrariesView view(context());
        ui::LoadWizard *w = view.startRollback(b.path, std::nullopt);
        QVERIFY(w);
        QTRY_VERIFY_WITH_TIMEOUT(next(w)->isEnabled(), 5000);
        QCOMPARE(w->contractPage()->title(),
                 QStringLiteral("Step 1 of 6 · Contract of the rollback"));
        QStringList texts;
        for (QLabel *label : w->contractPage()->findChildren<QLabel *>())
            texts << label->text();
        // From whatever release is shipped now back to 1.0.0.
        const QString shipped = libraryVersion(testsupport::functionSource("inventory_lib_v1.lua"));
        QVERIFY2(
            texts.contains(QStringLiteral("Rollback of inventory_lib_v1: %1 → 1.0.0").arg(shipped)),
            qPrintable(texts.join(" | ")));
        const QString all = texts.join('\n');
        QVERIFY2(!all.contains("goes down") && !all.contains("?)"), qPrintable(all));
        w->close();
    }

    // Loading an older release over a newer one is a rollback too: the contract page says so in
    // its title and heading, and the version going down is said in words.
    void loadingAnOlderReleaseIsTitledARollback()
    {
        QVERIFY(m_c->call({"FUNCTION", "LOAD", "REPLACE",
                           testsupport::functionSource("inventory_lib_v1.lua")})
                    .ok());
        ui::LoadWizard w(
            context(), LibraryChange::loadSpec(inspectLibrary(testsupport::previousReleaseSource(),
                                                              "inventory_lib_v1-1.0.0.lua")));
        w.show();
        QTRY_VERIFY_WITH_TIMEOUT(next(&w)->isEnabled(), 5000);
        QCOMPARE(w.contractPage()->title(),
                 QStringLiteral("Step 1 of 6 · Contract of the rollback to an older release"));
        QStringList texts;
        for (QLabel *label : w.contractPage()->findChildren<QLabel *>())
            texts << label->text();
        const QString all = texts.join('\n');
        QVERIFY2(all.contains("Rollback of inventory_lib_v1:") && all.contains("→ 1.0.0")
                     && all.contains("an older release replaces a newer one")
                     && !all.contains("?)"),
                 qPrintable(all));
        w.close();
    }

    void refusedFileOpensNoWizard()
    {
        QFile bad(m_dir.filePath("bad.lua"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("#!lua name=bad\nredis.register_function('f', function() end)\ncount = 1\n");
        bad.close();
        ui::LibrariesView view(context());
        QString shown;
        QTimer::singleShot(0, this, [&] {
            if (QWidget *box = QApplication::activeModalWidget()) {
                shown = box->findChildren<QLabel *>().isEmpty()
                            ? QString()
                            : box->findChildren<QLabel *>().last()->text();
                for (QLabel *l : box->findChildren<QLabel *>())
                    if (l->text().contains("line"))
                        shown = l->text();
                box->close();
            }
        });
        QVERIFY(!view.startLoad(bad.fileName()));
        QVERIFY2(shown.contains("line 3: Attempt to modify a readonly table (global 'count')"),
                 qPrintable(shown));
        QCOMPARE(serverCode("bad"), QByteArray());
    }

    // A file whose top level spends seconds in one C call is inspected off the GUI thread:
    // the view keeps painting (disabled, so no second action starts), then says why it is
    // refused. FUNCTION LOAD is never sent.
    void slowFileIsInspectedOffTheGuiThread()
    {
        QFile slow(m_dir.filePath("slow.lua"));
        QVERIFY(slow.open(QIODevice::WriteOnly));
        slow.write("#!lua name=slow\nlocal hit = ('a'):rep(100):find(('a*'):rep(6) .. 'b')\n"
                   "redis.register_function('f', function() end)\n");
        slow.close();
        ui::LibrariesView view(context());
        QSignalSpy done(&view, &ui::LibrariesView::loadInspected);
        QString shown;
        int ticks = 0;
        QTimer poll;
        connect(&poll, &QTimer::timeout, this, [&] {
            ++ticks;
            if (QWidget *box = QApplication::activeModalWidget()) {
                for (QLabel *l : box->findChildren<QLabel *>())
                    if (l->text().contains("line") || l->text().contains("ms"))
                        shown = l->text();
                box->close();
            }
        });
        poll.start(20);
        view.startLoadInBackground(slow.fileName());
        QVERIFY(!view.isEnabled());
        QVERIFY(done.wait(10000));
        QVERIFY(view.isEnabled());
        QVERIFY2(ticks > 20, qPrintable(QString::number(ticks))); // the loop ran meanwhile
        QVERIFY2(shown.contains("used more than 2000 ms of CPU time"), qPrintable(shown));
        QCOMPARE(serverCode("slow"), QByteArray());
    }
};

QTEST_MAIN(TstFunctionsWizard)
#include "tst_functions_wizard.moc"
