// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shared by the key browser's integration tests: seeding, a sender that delays data batches
// (so pages are in flight when a test cancels, rescans or lets keys expire), and waiting.
#include "RedisFixture.h"

#include <QPointer>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

namespace browsetest {

// Forwards to another sender; every batch except SCAN and DBSIZE waits delayMs first. SCAN
// replies therefore arrive long before the data of their pages.
class SlowSender : public QObject, public redis::CommandSender
{
public:
    SlowSender(redis::CommandSender &inner, int delayMs)
        : m_inner(inner)
        , m_delay(delayMs)
    {}
    void sendBatch(QList<redis::Command> commands, QObject *context, redis::BatchCallback callback,
                   int timeoutMs = -1) override
    {
        const bool fast =
            commands.size() == 1 && (commands[0][0] == "SCAN" || commands[0][0] == "DBSIZE");
        QPointer<QObject> guard(context);
        ++batches;
        ++inFlight;
        QTimer::singleShot(fast ? 0 : m_delay, this, [this, guard, commands, callback, timeoutMs] {
            if (!guard) {
                --inFlight;
                return;
            }
            m_inner.sendBatch(
                commands, this,
                [this, guard, callback](const QList<redis::ReplyResult> &replies) {
                    --inFlight;
                    if (guard)
                        callback(replies);
                },
                timeoutMs);
        });
    }
    QString address() const override { return m_inner.address(); }
    int batches = 0;
    // Batches taken and not yet answered: 0 once every late reply has been delivered (or its
    // context was gone), which is what a test waits for instead of a fixed sleep.
    int inFlight = 0;

private:
    redis::CommandSender &m_inner;
    int m_delay;
};

// Sends the commands in one batch; returns an empty string or the first failure.
inline QString seed(redis::CommandSender &c, const QList<redis::Command> &commands)
{
    const auto results = c.callBatch(commands, 30000);
    for (qsizetype i = 0; i < results.size(); ++i)
        if (!results[i].ok())
            return QStringLiteral("seeding %1 failed: %2")
                .arg(QString::fromLatin1(commands[i].join(' ').left(80)),
                     testsupport::render(results[i]));
    return {};
}

inline redis::Command setString(const QByteArray &key, const QByteArray &value, qint64 pxMs = 0)
{
    redis::Command c{"SET", key, value};
    if (pxMs > 0)
        c << "PX" << QByteArray::number(pxMs);
    return c;
}

} // namespace browsetest
