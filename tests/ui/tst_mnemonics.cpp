// SPDX-License-Identifier: GPL-3.0-or-later
// Alt+letter reaches one thing: on every tab of the main window, in English and in Chinese,
// no two visible mnemonics (the menus, the tabs, the tab's labels, buttons and sub-tabs)
// share a letter. Two that do make Qt cycle focus between them and press neither, so Alt+C
// on the Lab tab went to its Connections field instead of the Reconcile tab.
#include "PrivateSettings.h"
#include "RedisFixture.h"
#include "ui/MainWindow.h"
#include "ui/common/UiLanguage.h"

#include <QAbstractButton>
#include <QGroupBox>
#include <QLabel>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>

using testsupport::StandaloneRedis;

namespace {

// The letter after a single '&' ("&&" is a literal ampersand), lower-cased; null when none.
QChar mnemonicOf(const QString &text)
{
    static const QRegularExpression single(QStringLiteral("(?<!&)&([^&\\s])"));
    const auto m = single.match(text);
    return m.hasMatch() ? m.captured(1).at(0).toLower() : QChar();
}

bool shown(const QWidget *w)
{
    return w->isVisibleTo(w->window()) && w->isEnabled();
}

// Every mnemonic that Alt+letter could reach with `tabs` showing its current page.
QMultiMap<QChar, QString> reachable(QWidget *window, QTabWidget *tabs)
{
    QMultiMap<QChar, QString> out;
    const auto add = [&out](const QString &text) {
        if (const QChar c = mnemonicOf(text); !c.isNull())
            out.insert(c, text);
    };
    for (QAction *menu : window->findChild<QMenuBar *>()->actions())
        add(menu->text());
    for (int i = 0; i < tabs->count(); ++i)
        add(tabs->tabText(i));
    QWidget *page = tabs->currentWidget();
    for (const QLabel *l : page->findChildren<QLabel *>())
        if (l->buddy() && shown(l) && shown(l->buddy()))
            add(l->text());
    for (const QAbstractButton *b : page->findChildren<QAbstractButton *>())
        if (shown(b))
            add(b->text());
    for (const QGroupBox *g : page->findChildren<QGroupBox *>())
        if (shown(g) && g->isCheckable())
            add(g->title());
    for (const QTabBar *bar : page->findChildren<QTabBar *>())
        if (shown(bar))
            for (int i = 0; i < bar->count(); ++i)
                if (bar->isTabEnabled(i))
                    add(bar->tabText(i));
    return out;
}

} // namespace

class TstMnemonics : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    QTemporaryDir m_dir;

    // Each tab's clashes, "Lab: c = &Connections, Re&concile"; empty when there are none.
    QStringList clashes()
    {
        profiles::ConnectionProfile profile;
        profile.name = QStringLiteral("mnemonics");
        profile.host = m_redis.options().host;
        profile.port = m_redis.options().port;
        profile.environment = QStringLiteral("test");
        ui::MainWindow w(std::make_unique<session::ConsoleSession>(profile, QByteArray()));
        w.resize(1366, 768);
        w.show();
        auto *tabs = w.findChild<QTabWidget *>(QStringLiteral("mainTabs"));
        if (!tabs)
            return {QStringLiteral("no tab widget named mainTabs")};
        QStringList found;
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QCoreApplication::processEvents();
            const QMultiMap<QChar, QString> all = reachable(&w, tabs);
            for (const QChar c : all.uniqueKeys())
                if (all.count(c) > 1)
                    found << QStringLiteral("%1: %2 = %3")
                                 .arg(tabs->tabText(i), QString(c), all.values(c).join(", "));
        }
        return found;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(testsupport::usePrivateSettings(m_dir));
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
    }

    void noClashInEnglish()
    {
        const QStringList found = clashes();
        QVERIFY2(found.isEmpty(), qPrintable(found.join('\n')));
    }

    // After the English test: a translator cannot be taken back from outside.
    void noClashInChinese()
    {
        ui::installUiTranslators(*qApp, ui::UiLanguage::SimplifiedChinese);
        const QStringList found = clashes();
        QVERIFY2(found.isEmpty(), qPrintable(found.join('\n')));
    }
};

QTEST_MAIN(TstMnemonics)
#include "tst_mnemonics.moc"
