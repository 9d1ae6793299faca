// SPDX-License-Identifier: GPL-3.0-or-later
#include "redis/QuickReplyWait.h"

#include <QElapsedTimer>
#include <QTest>

#include <sys/socket.h>
#include <unistd.h>

using redis::QuickReplyWait;

// The wait polls a descriptor; a socket pair stands in for the connection, since what is
// tested is when it polls and for how long, not what Redis says.
class TstQuickReplyWait : public QObject
{
    Q_OBJECT

    int m_fds[2] = {-1, -1};

    void send() { QCOMPARE(::write(m_fds[1], "+OK\r\n", 5), ssize_t(5)); }
    void drain()
    {
        char buf[64];
        while (::recv(m_fds[0], buf, sizeof buf, MSG_DONTWAIT) > 0) {
        }
    }

private slots:
    void init() { QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM, 0, m_fds), 0); }
    void cleanup()
    {
        for (int &fd : m_fds)
            ::close(std::exchange(fd, -1));
    }

    void aReplyAlreadyThereEndsTheWait()
    {
        // A budget of a minute: a wait that spent it before looking would take that long (and
        // say false), however slow the machine, so half of it tells the two apart.
        constexpr int BudgetUs = 60'000'000;
        QuickReplyWait wait(BudgetUs);
        send();
        QElapsedTimer t;
        t.start();
        QVERIFY(wait.wait(m_fds[0]));
        QVERIFY2(t.elapsed() < BudgetUs / 1000 / 2, qPrintable(QString::number(t.elapsed())));
    }

    void aClosedPeerEndsTheWait()
    {
        QuickReplyWait wait(200000);
        ::close(std::exchange(m_fds[1], -1));
        QVERIFY(wait.wait(m_fds[0]));
    }

    void noReplyWaitsTheBudgetThenSkipsForAWhile()
    {
        QuickReplyWait wait(20000); // 20 ms
        QElapsedTimer t;
        t.start();
        QVERIFY(!wait.wait(m_fds[0]));
        QVERIFY2(t.nsecsElapsed() >= 20'000'000, qPrintable(QString::number(t.nsecsElapsed())));
        // A server this slow is not polled for again at once, even once a reply is there.
        send();
        for (int i = 0; i < QuickReplyWait::SkipAfterMiss; ++i)
            QVERIFY2(!wait.wait(m_fds[0]), qPrintable(QString::number(i)));
        QVERIFY(wait.wait(m_fds[0]));
        drain();
    }

    void aZeroBudgetNeverPolls()
    {
        QuickReplyWait wait(0);
        send();
        QVERIFY(!wait.wait(m_fds[0]));
    }
};

QTEST_GUILESS_MAIN(TstQuickReplyWait)
#include "tst_quick_reply_wait.moc"
