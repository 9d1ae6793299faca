// SPDX-License-Identifier: GPL-3.0-or-later
// The language of the window: the saved choice (System when none), English installs nothing,
// Simplified Chinese installs the console's words and Qt's own (standard buttons), and the
// View → Language menu saves a new choice and says it applies after a restart. Tabs are found
// by their English names (--tab keys) whatever their titles say.
#include "FileMode.h"
#include "PrivateSettings.h"
#include "core/DataPaths.h"
#include "ui/common/TabTitles.h"
#include "ui/common/UiLanguage.h"

#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <sys/stat.h>

using ui::UiLanguage;

class TstUiLanguage : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static int umaskNow()
    {
        const mode_t m = ::umask(0);
        ::umask(m);
        return int(m);
    }

private slots:
    void initTestCase() { QVERIFY(testsupport::usePrivateSettings(m_dir)); }

    void theChoiceIsRemembered()
    {
        QCOMPARE(ui::savedUiLanguage(), UiLanguage::System);
        ui::saveUiLanguage(UiLanguage::SimplifiedChinese);
        QCOMPARE(ui::savedUiLanguage(), UiLanguage::SimplifiedChinese);
        QCOMPARE(QSettings().value(QStringLiteral("ui/language")).toString(),
                 QStringLiteral("zh_CN"));
        ui::saveUiLanguage(UiLanguage::English);
        QCOMPARE(ui::savedUiLanguage(), UiLanguage::English);
        // A value the console does not know reads as System, not as one of the others.
        QSettings().setValue(QStringLiteral("ui/language"), QStringLiteral("klingon"));
        QCOMPARE(ui::savedUiLanguage(), UiLanguage::System);
    }

    // The console makes its settings file private at start (main_console.cpp), before the
    // language, the theme or a profile writes it: QSettings' rewrites keep that mode.
    void theSettingsFileStaysPrivate()
    {
        const QString path = QSettings().fileName();
        QFile::remove(path);
        QVERIFY(core::makeFilePrivate(path).ok());
        QCOMPARE(testsupport::fileMode(path), 0600);
        ui::saveUiLanguage(UiLanguage::SimplifiedChinese);
        QSettings().sync();
        QVERIFY(QFileInfo(path).size() > 0);
        QCOMPARE(testsupport::fileMode(path), 0600);
        ui::saveUiLanguage(UiLanguage::System);

        // Something else in its place is reported, not waited on or changed.
        const QString fifo = m_dir.filePath(QStringLiteral("fifo.conf"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0644), 0);
        const auto refused = core::makeFilePrivate(fifo);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().english.contains(QLatin1String("not a regular file")),
                 qPrintable(refused.error().english));
        QCOMPARE(testsupport::fileMode(fifo), 0644 & ~umaskNow());
    }

    // Before the Chinese test: translators cannot be taken back from outside.
    void englishInstallsNothing()
    {
        const ui::UiTranslation t = ui::installUiTranslators(*qApp, UiLanguage::English);
        QVERIFY(!t.consoleLoaded);
        QVERIFY(!t.qtLoaded);
        QVERIFY(t.problem.isEmpty());
        QCOMPARE(QCoreApplication::translate("ui::MainWindow", "&Overview"),
                 QStringLiteral("&Overview"));
    }

    void chineseTranslatesTheConsoleAndQt()
    {
        const ui::UiTranslation t = ui::installUiTranslators(*qApp, UiLanguage::SimplifiedChinese);
        QCOMPARE(t.locale, QStringLiteral("zh_CN"));
        QVERIFY(t.consoleLoaded);
        QVERIFY2(t.qtLoaded, qPrintable(t.problem)); // qt6-translations-l10n (scripts/deps)
        QVERIFY(t.problem.isEmpty());
        QCOMPARE(QCoreApplication::translate("ui::MainWindow", "&Overview"),
                 QStringLiteral("概览(&O)"));
        QDialogButtonBox buttons(QDialogButtonBox::Cancel);
        QCOMPARE(buttons.button(QDialogButtonBox::Cancel)->text(), QStringLiteral("取消"));
    }

    void theMenuSavesAChoiceForTheNextStart()
    {
        ui::saveUiLanguage(UiLanguage::System);
        QWidget parent;
        QMenu *menu = ui::createLanguageMenu(&parent);
        const QList<QAction *> actions = menu->actions();
        QCOMPARE(actions.size(), 3);
        QVERIFY(actions[0]->isChecked());
        QCOMPARE(actions[2]->text(), QStringLiteral("简体中文"));
        QVERIFY(menu->title().contains(QStringLiteral("重启"))); // the translation is installed

        // The notice that it applies after a restart is a modal box: close it when it shows.
        QString notice;
        QTimer::singleShot(0, this, [&notice] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (box) {
                notice = box->text();
                box->accept();
            }
        });
        actions[2]->trigger();
        QCOMPARE(ui::savedUiLanguage(), UiLanguage::SimplifiedChinese);
        QVERIFY(actions[2]->isChecked());
        QVERIFY(!actions[0]->isChecked());
        QVERIFY2(notice.contains(QStringLiteral("下次启动")), qPrintable(notice));
    }

    void titlesLoseTheirMnemonics()
    {
        QCOMPARE(ui::withoutMnemonic(QStringLiteral("&Keys")), QStringLiteral("Keys"));
        QCOMPARE(ui::withoutMnemonic(QStringLiteral("Char&ts")), QStringLiteral("Charts"));
        QCOMPARE(ui::withoutMnemonic(QStringLiteral("键(&K)")), QStringLiteral("键"));
        QCOMPARE(ui::withoutMnemonic(QStringLiteral("新建连接(&N)…")), QStringLiteral("新建连接…"));
        QCOMPARE(ui::withoutMnemonic(QStringLiteral("Stock && receipts")),
                 QStringLiteral("Stock & receipts"));
    }

    void tabsAreFoundByTheirEnglishNames()
    {
        QTabWidget tabs;
        ui::addNamedTab(&tabs, new QWidget, QStringLiteral("概览(&O)"), QStringLiteral("overview"));
        ui::addNamedTab(&tabs, new QWidget, QStringLiteral("审计日志(&A)"),
                        QStringLiteral("audit log"));
        tabs.addTab(new QWidget, QStringLiteral("&Reconcile")); // a tab added without a name
        QCOMPARE(ui::findNamedTab(&tabs, QStringLiteral("Overview")), 0);
        QCOMPARE(ui::findNamedTab(&tabs, QStringLiteral("audit")), 1);
        QCOMPARE(ui::findNamedTab(&tabs, QStringLiteral("reconcile")), 2);
        QCOMPARE(ui::findNamedTab(&tabs, QStringLiteral("概览")), -1); // names, not titles
        QCOMPARE(ui::findNamedTab(&tabs, QStringLiteral("keys")), -1);
    }
};

QTEST_MAIN(TstUiLanguage)
#include "tst_ui_language.moc"
