// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the GUI benchmarks (bench_browse_gui, bench_audit_gui) share.
#include <QByteArray>
#include <QElapsedTimer>
#include <QTextStream>
#include <QTimer>
#include <QtGlobal>
#include <functional>

// Whether --show asks for a real window (a screenshot). Without it the benchmark draws
// offscreen: QT_QPA_PLATFORM is set to offscreen unless the caller chose a platform. Call it
// before the QApplication is made.
inline bool offscreenUnlessShow(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i)
        if (QByteArray(argv[i]) == "--show")
            return true;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    return false;
}

// Heartbeat: the longest gap between ticks of a precise timer is the longest the event loop
// was blocked. Gaps are read off `clock`; BENCH_STALLS=1 prints every gap over 30 ms as it
// happens, followed by what `describe` writes (the benchmark's progress), when given.
class StallMeter
{
public:
    StallMeter(const QElapsedTimer &clock, int intervalMs,
               std::function<void(QTextStream &)> describe = {})
        : m_clock(clock)
        , m_describe(std::move(describe))
    {
        m_timer.setInterval(intervalMs);
        m_timer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_timer, &QTimer::timeout, [this] { tick(); });
    }

    // Measures from now on.
    void start()
    {
        m_timer.start();
        m_last = m_clock.elapsed();
    }
    void stop() { m_timer.stop(); }

    qint64 worst = 0;  // the longest gap, ms
    qint64 over50 = 0; // gaps over 50 ms
    qint64 ticks = 0;

private:
    void tick()
    {
        const qint64 now = m_clock.elapsed();
        const qint64 gap = now - m_last;
        worst = qMax(worst, gap);
        if (gap > 30 && qEnvironmentVariableIsSet("BENCH_STALLS")) {
            QTextStream err(stderr);
            err << "stall " << gap << " ms at " << now << " ms";
            if (m_describe)
                m_describe(err);
            err << '\n';
        }
        over50 += gap > 50 ? 1 : 0;
        ++ticks;
        m_last = now;
    }

    const QElapsedTimer &m_clock;
    std::function<void(QTextStream &)> m_describe;
    QTimer m_timer;
    qint64 m_last = 0;
};
