// SPDX-License-Identifier: GPL-3.0-or-later
#include "RedisFixture.h"
#include "profiles/Environment.h"
#include "ui/ConsoleController.h"
#include "ui/MainWindow.h"

#include <QGuiApplication>
#include <QScreen>
#include <QTest>

// A new window fits the screen it opens on: at 1400x900 it hung off a 1366x768 laptop screen,
// cutting off the deduction history.
class TstConsoleWindowSize : public QObject
{
    Q_OBJECT

    testsupport::StandaloneRedis m_redis;

private slots:
    void initTestCase() { QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString())); }

    void windowFitsTheAvailableScreen()
    {
        profiles::ConnectionProfile profile;
        profile.name = QStringLiteral("size");
        profile.host = m_redis.options().host;
        profile.port = m_redis.options().port;
        profile.environment = profiles::environmentName(profiles::Environment::Local);
        ui::ConsoleController controller;
        ui::MainWindow *window = controller.openSession(profile, QString());
        QVERIFY(window);
        const QSize available = QGuiApplication::primaryScreen()->availableGeometry().size();
        QVERIFY2(available.width() < 1400 && available.height() < 900,
                 "the test screen must be smaller than the default size");
        // Bounded by the screen, unless the window's contents cannot be narrower.
        const QSize least = window->minimumSizeHint();
        QCOMPARE(window->height(), qMax(least.height(), int(available.height() * 0.95)));
        QCOMPARE(window->width(), qMax(least.width(), int(available.width() * 0.95)));
        // And the contents fit the laptop screen the issue names: 1366x768 less a panel.
        QVERIFY2(least.width() <= 1366 && least.height() <= 700,
                 qPrintable(QStringLiteral("least %1x%2").arg(least.width()).arg(least.height())));
    }
};

QTEST_MAIN(TstConsoleWindowSize)
#include "tst_console_window_size.moc"
