// SPDX-License-Identifier: GPL-3.0-or-later
// Where a rollback starts, offscreen: the backups of the backup folder as a history (library,
// version, node, time, the action each was taken before), newest first, the selected library
// first; the ways back explained in words and mapped to the right FUNCTION RESTORE policy.
#include "functions/FunctionBackup.h"
#include "ui/functions/RollbackDialog.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace functions;

namespace {
FunctionBackup backup(const QString &library, const QString &version, const QString &action,
                      const QDateTime &created)
{
    FunctionBackup b;
    b.created = created;
    b.library = library;
    b.action = action;
    b.profile = QStringLiteral("ui test");
    b.environment = QStringLiteral("local");
    NodeBackup n;
    n.address = QStringLiteral("127.0.0.1:6390");
    n.redisVersion = QStringLiteral("7.2.4");
    redis::LibraryInfo l;
    l.name = library;
    l.code = "#!lua name=" + library.toUtf8() + "\n-- version: " + version.toUtf8() + "\n";
    n.libraries << l;
    b.nodes << n;
    return b;
}
} // namespace

class TstRollbackDialog : public QObject
{
    Q_OBJECT

private slots:
    void showsTheHistoryAndExplainsTheWays()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QDateTime t0 = QDateTime::currentDateTimeUtc().addSecs(-3600);
        FunctionBackup older = backup(QStringLiteral("inventory_lib_v1"), QStringLiteral("1.0.0"),
                                      QStringLiteral("load"), t0);
        FunctionBackup newer = backup(QStringLiteral("inventory_lib_v1"), QStringLiteral("1.1.0"),
                                      QStringLiteral("delete"), t0.addSecs(600));
        FunctionBackup other = backup(QStringLiteral("misc"), QStringLiteral("2.0.0"),
                                      QStringLiteral("load"), t0.addSecs(1200));
        for (FunctionBackup *b : {&older, &newer, &other})
            QVERIFY(b->write(dir.path()));

        ui::RollbackDialog dialog(dir.path(), QStringLiteral("inventory_lib_v1"));
        QTreeWidget *tree = dialog.backups();
        QCOMPARE(tree->topLevelItemCount(), 3);
        // Newest first.
        QCOMPARE(tree->topLevelItem(0)->text(0), QStringLiteral("misc"));
        QTreeWidgetItem *row = tree->topLevelItem(1);
        QCOMPARE(row->text(0), QStringLiteral("inventory_lib_v1"));
        QCOMPARE(row->text(1), QStringLiteral("1.1.0"));
        QCOMPARE(row->text(2), QStringLiteral("127.0.0.1:6390"));
        QCOMPARE(row->text(3),
                 newer.created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        QCOMPARE(row->text(4), QStringLiteral("before a delete"));
        QCOMPARE(tree->topLevelItem(2)->text(4), QStringLiteral("before a load"));
        // The library selected in the view: its newest backup is chosen.
        QCOMPARE(dialog.backupPath(), newer.path);
        QVERIFY(!dialog.policy());

        // Each way back says what it does, in words, and maps to its policy.
        QStringList explanations;
        for (QLabel *l : dialog.findChildren<QLabel *>())
            explanations << l->text();
        const QString all = explanations.join('\n');
        QVERIFY(all.contains("FUNCTION RESTORE REPLACE: every library in the backup is put "
                             "back, replacing a loaded library of the same name"));
        QVERIFY(all.contains("FUNCTION RESTORE FLUSH: deletes every loaded library first"));
        QVERIFY(all.contains("FUNCTION RESTORE APPEND: adds the backup's libraries and fails"));
        QCOMPARE(dialog.findChildren<QRadioButton *>().size(), 4);
        dialog.setWay(1);
        QCOMPARE(dialog.policy(), std::optional(RestorePolicy::Replace));
        dialog.setWay(2);
        QCOMPARE(dialog.policy(), std::optional(RestorePolicy::Flush));
        dialog.setWay(3);
        QCOMPARE(dialog.policy(), std::optional(RestorePolicy::Append));
    }

    // A backup taken on another node than the session's is marked so, and Continue waits for
    // an explicit acknowledgement of that backup.
    void anotherNodesBackupNeedsAcknowledgement()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QDateTime t0 = QDateTime::currentDateTimeUtc().addSecs(-3600);
        FunctionBackup here = backup(QStringLiteral("inventory_lib_v1"), QStringLiteral("1.0.0"),
                                     QStringLiteral("load"), t0);
        FunctionBackup there = backup(QStringLiteral("inventory_lib_v1"), QStringLiteral("1.1.0"),
                                      QStringLiteral("load"), t0.addSecs(600));
        there.nodes[0].address = QStringLiteral("10.0.0.7:6379");
        for (FunctionBackup *b : {&here, &there})
            QVERIFY(b->write(dir.path()));

        ui::RollbackDialog dialog(dir.path(), QStringLiteral("inventory_lib_v1"),
                                  {QStringLiteral("127.0.0.1:6390")});
        dialog.show();
        QTreeWidget *tree = dialog.backups();
        QCOMPARE(tree->topLevelItemCount(), 2);
        // The newest, the other node's, is selected first.
        QCOMPARE(dialog.backupPath(), there.path);
        QCOMPARE(tree->topLevelItem(0)->text(2), QStringLiteral("10.0.0.7:6379 — another node"));
        QCOMPARE(tree->topLevelItem(1)->text(2), QStringLiteral("127.0.0.1:6390"));
        QVERIFY(dialog.selectedIsFromAnotherNode());
        QVERIFY(dialog.otherNodeAcknowledgement()->isVisible());
        QVERIFY(dialog.otherNodeAcknowledgement()->text().contains("10.0.0.7:6379"));
        QVERIFY(!dialog.continueButton()->isEnabled());
        dialog.otherNodeAcknowledgement()->click();
        QVERIFY(dialog.continueButton()->isEnabled());

        // This node's backup needs nothing more, and the tick does not carry over.
        tree->setCurrentItem(tree->topLevelItem(1));
        QVERIFY(!dialog.selectedIsFromAnotherNode());
        QVERIFY(!dialog.otherNodeAcknowledgement()->isVisible());
        QVERIFY(dialog.continueButton()->isEnabled());
        tree->setCurrentItem(tree->topLevelItem(0));
        QVERIFY(!dialog.otherNodeAcknowledgement()->isChecked());
        QVERIFY(!dialog.continueButton()->isEnabled());
    }

    void anEmptyFolderSaysSo()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ui::RollbackDialog dialog(dir.path(), QString());
        dialog.show();
        QCOMPARE(dialog.backups()->topLevelItemCount(), 0);
        QVERIFY(dialog.backupPath().isEmpty());
        auto *box = dialog.findChild<QDialogButtonBox *>();
        QVERIFY(!box->button(QDialogButtonBox::Ok)->isEnabled());
        bool said = false;
        for (QLabel *l : dialog.findChildren<QLabel *>())
            said = said || (l->isVisible() && l->text().startsWith("No backups in"));
        QVERIFY(said);
    }
};

QTEST_MAIN(TstRollbackDialog)
#include "tst_rollback_dialog.moc"
