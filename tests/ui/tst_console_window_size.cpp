#include "ConsoleController.h"
#include "MainWindow.h"
#include "RedisFixture.h"
#include "session/Environment.h"

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
        session::ConnectionProfile profile;
        profile.name = QStringLiteral("size");
        profile.host = m_redis.options().host;
        profile.port = m_redis.options().port;
        profile.environment = session::environmentName(session::Environment::Local);
        ui::ConsoleController controller;
        ui::MainWindow *window = controller.openSession(profile, QString());
        QVERIFY(window);
        const QSize available = QGuiApplication::primaryScreen()->availableGeometry().size();
        QVERIFY2(available.width() < 1400, "the test screen must be smaller than the default");
        QVERIFY2(window->width() <= available.width() && window->height() <= available.height(),
                 qPrintable(QStringLiteral("%1x%2 on %3x%4")
                                .arg(window->width())
                                .arg(window->height())
                                .arg(available.width())
                                .arg(available.height())));
    }
};

QTEST_MAIN(TstConsoleWindowSize)
#include "tst_console_window_size.moc"
