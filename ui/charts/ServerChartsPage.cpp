// SPDX-License-Identifier: GPL-3.0-or-later
#include "ServerChartsPage.h"

#include "ChartView.h"
#include "CountAxis.h"
#include "TimeChartPanel.h"
#include "metrics/ServerSampler.h"
#include "overview/ServerOverview.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QGridLayout>
#include <QLabel>
#include <QLineSeries>
#include <QScrollArea>
#include <QSpinBox>
#include <QValueAxis>

namespace ui {

namespace {

constexpr double MiB = 1024.0 * 1024.0;

// Compact, so that ten buckets fit under a half-width chart: "≤16µs", "≤2ms".
QString bucketLabel(qint64 us)
{
    if (us >= 1'000'000)
        return QStringLiteral("≤%1s").arg(us / 1'000'000);
    if (us >= 1000)
        return QStringLiteral("≤%1ms").arg(us / 1000);
    return QStringLiteral("≤%1µs").arg(us);
}

} // namespace

ServerChartsPage::ServerChartsPage(metrics::ServerSampler &sampler, QWidget *parent)
    : QWidget(parent)
    , m_sampler(sampler)
    , m_sampling(new QCheckBox(tr("Sample")))
    , m_interval(new QSpinBox)
    , m_span(new QComboBox)
    , m_status(new QLabel)
    , m_memory(new TimeChartPanel(tr("Memory used against maxmemory"), tr("memory (MiB)")))
    , m_ops(new TimeChartPanel(tr("Throughput"), tr("commands/s")))
    , m_keys(new TimeChartPanel(tr("Evicted and expired keys"), tr("keys/s")))
    , m_clients(new TimeChartPanel(tr("Connected clients"), tr("clients")))
    , m_latency(new TimeChartPanel(tr("FCALL latency: server vs console round trip"),
                                   tr("µs (log scale)"), true))
    , m_histogram(new ChartPanel(tr("FCALL latency distribution on the server"), new QChart, false))
{
    m_clients->setWholeNumbers(true);
    auto *controls = buildControls();
    auto *charts = buildChartArea();
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(charts, 1);
    setUpHistogram();
    connectControls();
    connect(&m_sampler, &metrics::ServerSampler::nodesChanged, this, &ServerChartsPage::rebuild);
    connect(&m_sampler, &metrics::ServerSampler::sampled, this, &ServerChartsPage::onSampled);
    connect(&m_sampler, &metrics::ServerSampler::sampleFailed, this, [this] { updateStatus(); });
    rebuild();
}

QHBoxLayout *ServerChartsPage::buildControls()
{
    m_sampling->setChecked(true);
    m_sampling->setToolTip(tr("One pipelined round trip per node per interval: INFO and "
                              "LATENCY HISTOGRAM"));
    m_interval->setRange(1, 60);
    m_interval->setValue(qMax(1, m_sampler.interval() / 1000));
    m_interval->setSuffix(tr(" s"));
    m_interval->setPrefix(tr("every "));
    m_span->addItem(tr("Last minute"), 60);
    m_span->addItem(tr("Last 5 minutes"), 300);
    m_span->addItem(tr("Last 15 minutes"), 900);
    m_span->addItem(tr("Last hour"), 3600);
    m_span->setCurrentIndex(1);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *controls = new QHBoxLayout;
    controls->addWidget(m_sampling);
    controls->addWidget(m_interval);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Show:")));
    controls->addWidget(m_span);
    controls->addSpacing(12);
    controls->addWidget(m_status, 1);
    return controls;
}

QScrollArea *ServerChartsPage::buildChartArea()
{
    auto *grid = new QGridLayout;
    grid->setSpacing(10);
    grid->addWidget(m_memory, 0, 0);
    grid->addWidget(m_ops, 0, 1);
    grid->addWidget(m_latency, 1, 0);
    grid->addWidget(m_histogram, 1, 1);
    grid->addWidget(m_keys, 2, 0);
    grid->addWidget(m_clients, 2, 1);
    for (ChartPanel *p : panels())
        p->setMinimumHeight(260);
    auto *page = new QWidget;
    page->setLayout(grid);
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(page);
    return scroll;
}

// The distribution: the server's own, cumulative since it started or CONFIG RESETSTAT, so
// it shows at the first sample; the latency lines beside it show the recent calls.
void ServerChartsPage::setUpHistogram()
{
    QChart *h = m_histogram->chart();
    m_histogramSeries = new QBarSeries;
    h->addSeries(m_histogramSeries);
    m_histogramBuckets = new QBarCategoryAxis;
    m_histogramBuckets->setTitleText(tr("server execution time (bucket upper bound)"));
    m_histogramCounts = new QValueAxis;
    m_histogramCounts->setTitleText(tr("FCALL calls"));
    m_histogramCounts->setLabelFormat(QStringLiteral("%d"));
    h->addAxis(m_histogramBuckets, Qt::AlignBottom);
    h->addAxis(m_histogramCounts, Qt::AlignLeft);
    m_histogramSeries->attachAxis(m_histogramBuckets);
    m_histogramSeries->attachAxis(m_histogramCounts);
}

void ServerChartsPage::connectControls()
{
    connect(m_sampling, &QCheckBox::toggled, this, [this](bool on) {
        on ? m_sampler.start() : m_sampler.stop();
        updateStatus();
        updateEmptyTexts();
    });
    connect(m_interval, &QSpinBox::valueChanged, this, [this](int s) {
        m_sampler.setInterval(s * 1000);
        for (TimeChartPanel *p : {m_memory, m_ops, m_keys, m_clients, m_latency})
            p->setCapacity(3600 / s + 1);
        updateStatus();
        updateEmptyTexts();
    });
    connect(m_span, &QComboBox::currentIndexChanged, this, [this] {
        for (TimeChartPanel *p : {m_memory, m_ops, m_keys, m_clients, m_latency})
            p->setSpanSeconds(m_span->currentData().toInt());
        updateEmptyTexts();
    });
}

QList<ChartPanel *> ServerChartsPage::panels() const
{
    return {m_memory, m_ops, m_latency, m_histogram, m_keys, m_clients};
}

void ServerChartsPage::rebuild()
{
    for (TimeChartPanel *p : {m_memory, m_ops, m_keys, m_clients, m_latency})
        p->clearSeries();
    m_lines.assign(size_t(m_sampler.nodeCount()), {});
    m_appendedUpTo.assign(m_lines.size(), 0);
    const bool many = m_sampler.nodeCount() > 1;
    for (int i = 0; i < m_sampler.nodeCount(); ++i) {
        const QString at = many ? QStringLiteral(" (%1)").arg(m_sampler.node(i).name) : QString();
        NodeLines &l = m_lines[size_t(i)];
        l.suffix = at;
        l.used = m_memory->addSeries(tr("used") + at, tr("MiB"));
        l.max = m_memory->addSeries(tr("maxmemory") + at, tr("MiB"));
        l.ops = m_ops->addSeries(tr("ops/s") + at, tr("commands/s"));
        l.fcall = m_ops->addSeries(tr("FCALL/s") + at, tr("calls/s"));
        l.evicted = m_keys->addSeries(tr("evicted") + at, tr("keys/s"));
        l.expired = m_keys->addSeries(tr("expired") + at, tr("keys/s"));
        l.clients = m_clients->addSeries(tr("clients") + at, tr("clients"), 0);
        l.fcallP50 = m_latency->addSeries(tr("server FCALL p50") + at, tr("µs"), 0);
        l.fcallP99 = m_latency->addSeries(tr("server FCALL p99") + at, tr("µs"), 0);
        // A point only where FCALLs ran between two samples: a lone one (a single deduction)
        // is no line at all, so each point is drawn as a dot.
        for (QLineSeries *fcall : {l.fcallP50, l.fcallP99})
            fcall->setPointsVisible(true);
        l.rttP50 = m_latency->addSeries(tr("console round trip p50") + at, tr("µs"), 0);
        l.rttP99 = m_latency->addSeries(tr("console round trip p99") + at, tr("µs"), 0);
        appendNew(i, true); // what was sampled before this page existed
    }
    updateHistogram();
    updateStatus();
    updateEmptyTexts();
}

void ServerChartsPage::onSampled(int node)
{
    if (node < 0 || size_t(node) >= m_lines.size())
        return;
    appendNew(node, false);
    updateHistogram();
    updateStatus();
    updateEmptyTexts();
}

void ServerChartsPage::appendNew(int node, bool all)
{
    const metrics::NodeSeries &n = m_sampler.node(node);
    NodeLines &l = m_lines[size_t(node)];
    const qint64 after = m_appendedUpTo[size_t(node)];
    // Each series' points newer than what is drawn: the last one per sample, or all of them
    // once after a rebuild.
    const auto feed = [&](TimeChartPanel *panel, QLineSeries *line, const metrics::TimeSeries &s,
                          double scale) {
        const size_t from = all ? 0 : (s.size() > 0 ? s.size() - 1 : 0);
        for (size_t k = from; k < s.size(); ++k) {
            const metrics::Point p = s.at(k);
            if (p.timeMs > after)
                panel->append(line, p.timeMs, p.value / scale);
        }
    };
    feed(m_memory, l.used, n.usedMemory, MiB);
    // maxmemory is drawn while it is within reach of the used memory; a limit far above (or
    // none) would flatten the used line to the floor, so the legend says it instead.
    if (n.last && n.last->maxMemory > 0 && n.last->maxMemory <= 4 * n.last->usedMemory)
        l.maxShown = true;
    if (l.maxShown)
        feed(m_memory, l.max, n.maxMemory, MiB);
    if (n.last)
        l.max->setName(
            (n.last->maxMemory == 0 ? tr("maxmemory: no limit")
             : l.maxShown
                 ? tr("maxmemory")
                 : tr("maxmemory %1 (far above)").arg(overview::formatBytes(n.last->maxMemory)))
            + l.suffix);
    feed(m_ops, l.ops, n.opsPerSec, 1);
    feed(m_ops, l.fcall, n.fcallPerSec, 1);
    feed(m_keys, l.evicted, n.evictedPerSec, 1);
    feed(m_keys, l.expired, n.expiredPerSec, 1);
    feed(m_clients, l.clients, n.clients, 1);
    feed(m_latency, l.fcallP50, n.fcallP50Us, 1);
    feed(m_latency, l.fcallP99, n.fcallP99Us, 1);
    feed(m_latency, l.rttP50, n.roundTripP50Us, 1);
    feed(m_latency, l.rttP99, n.roundTripP99Us, 1);
    if (n.last) {
        m_appendedUpTo[size_t(node)] = n.last->timeMs;
        for (TimeChartPanel *p : {m_memory, m_ops, m_keys, m_clients, m_latency})
            p->follow(n.last->timeMs);
    }
}

void ServerChartsPage::updateHistogram()
{
    // A handful of buckets (powers of two): replacing them costs the same at any history.
    m_histogramSeries->clear();
    QStringList categories;
    QList<QList<QPair<qint64, qint64>>> perNode;
    qint64 lowest = -1, highest = -1;
    for (int i = 0; i < m_sampler.nodeCount(); ++i) {
        const metrics::NodeSeries &n = m_sampler.node(i);
        perNode << (n.last ? n.last->fcallLatency.perBucket() : QList<QPair<qint64, qint64>>());
        for (const auto &[bound, count] : perNode.last())
            if (count > 0) {
                lowest = lowest < 0 ? bound : qMin(lowest, bound);
                highest = qMax(highest, bound);
            }
    }
    // At most eight bars, so their labels fit; the rare slow tail shares the last one.
    constexpr int MaxBars = 8;
    const qint64 lastBound = lowest > 0 ? qMin(highest, lowest << (MaxBars - 2)) : -1;
    const bool tail = lastBound < highest;
    double top = 0;
    if (lowest > 0) {
        for (qint64 b = lowest; b <= lastBound; b *= 2)
            categories << bucketLabel(b);
        if (tail)
            categories << tr("slower");
        for (int i = 0; i < m_sampler.nodeCount(); ++i) {
            auto *set =
                new QBarSet(m_sampler.nodeCount() > 1
                                ? m_sampler.node(i).name
                                : tr("FCALL calls since the server started or CONFIG RESETSTAT"));
            QList<double> counts(categories.size(), 0.0);
            for (const auto &[bound, count] : perNode.at(i)) {
                if (count == 0 || bound < lowest)
                    continue;
                qsizetype at = 0;
                for (qint64 b = lowest; b < bound && at < counts.size() - 1; b *= 2)
                    ++at;
                counts[at] += double(count);
            }
            for (double c : counts) {
                *set << c;
                top = qMax(top, c);
            }
            m_histogramSeries->append(set);
            m_histogram->view()->showValuesOf(set, categories, tr("calls"));
        }
    }
    m_histogramBuckets->setCategories(categories);
    setCountRange(m_histogramCounts, top);
}

void ServerChartsPage::updateStatus()
{
    if (!m_sampler.isRunning()) {
        m_status->setText(tr("Sampling is off: tick Sample to start."));
        return;
    }
    QStringList parts;
    parts << tr("%1 node(s), one pipelined round trip each per sample; an hour is kept")
                 .arg(m_sampler.nodeCount());
    for (int i = 0; i < m_sampler.nodeCount(); ++i) {
        const metrics::NodeSeries &n = m_sampler.node(i);
        if (!n.lastError.isEmpty())
            parts << tr("%1: last sample failed: %2").arg(n.name, n.lastError);
        else if (n.last)
            parts << tr("%1 at %2: %3 used of %4")
                         .arg(n.name,
                              QDateTime::fromMSecsSinceEpoch(n.last->timeMs)
                                  .toString(QStringLiteral("HH:mm:ss")),
                              overview::formatBytes(n.last->usedMemory),
                              n.last->maxMemory > 0 ? overview::formatBytes(n.last->maxMemory)
                                                    : tr("no limit"));
    }
    m_status->setText(parts.join(QStringLiteral(" · ")));
}

// The server's FCALL lines are drawn from the latency histogram's growth between two samples:
// no point in the span shown means no FCALL ran there, or the histogram could not be read. The
// console's round-trip lines beside them still draw, so the plot would look like "no latency"
// unless it says which. Only what the samples cover is claimed: a span longer than the
// sampling so far is said as "since sampling began".
QString ServerChartsPage::fcallLatencyGap() const
{
    const qint64 spanMs = qint64(m_span->currentData().toInt()) * 1000;
    QStringList unreadable;
    qint64 newest = 0, oldest = 0;
    int comparable = 0; // nodes with two samples: the first growth of the histogram
    for (int i = 0; i < m_sampler.nodeCount(); ++i) {
        const metrics::NodeSeries &n = m_sampler.node(i);
        if (!n.last)
            continue;
        const qint64 from = n.last->timeMs - spanMs;
        for (const metrics::TimeSeries *s : {&n.fcallP50Us, &n.fcallP99Us})
            if (const auto p = s->last(); p && p->timeMs > from)
                return {}; // a line to draw
        if (!n.histogramProblem.isEmpty()) {
            unreadable << (m_sampler.nodeCount() > 1
                               ? QStringLiteral("%1: %2").arg(n.name, n.histogramProblem)
                               : n.histogramProblem);
            continue;
        }
        if (n.samples < 2 || !n.first)
            continue;
        ++comparable;
        newest = qMax(newest, n.last->timeMs);
        const qint64 start = qMax(n.first->timeMs, from);
        oldest = oldest == 0 ? start : qMin(oldest, start);
    }
    QStringList lines;
    if (!unreadable.isEmpty())
        lines << tr("Could not read the server's FCALL latency:\n%1")
                     .arg(unreadable.join(QStringLiteral("; ")));
    if (comparable == 0 && unreadable.isEmpty())
        lines << tr("Server FCALL p50/p99 need two samples: the next one in %1 s")
                     .arg(qMax(1, m_sampler.interval() / 1000));
    if (comparable > 0) {
        const qint64 covered = newest - oldest;
        const QString at =
            QDateTime::fromMSecsSinceEpoch(newest).toString(QStringLiteral("HH:mm:ss"));
        QString when;
        if (covered + 1000 >= spanMs)
            when = spanMs >= 3600 * 1000 ? tr("in the hour up to %1").arg(at)
                   : spanMs <= 60 * 1000
                       ? tr("in the minute up to %1").arg(at)
                       : tr("in the %1 minutes up to %2").arg(spanMs / 60000).arg(at);
        else
            when = tr("in the %1 s sampled up to %2").arg((covered + 500) / 1000).arg(at);
        lines << tr("No FCALL ran %1:\nno server FCALL p50/p99 to draw").arg(when);
    }
    lines << tr("(the lines are the console's own round trip)");
    return lines.join(QLatin1Char('\n'));
}

void ServerChartsPage::updateEmptyTexts()
{
    const QString waiting =
        m_sampler.isRunning()
            ? tr("No samples yet — sampling every %1 s").arg(m_sampler.interval() / 1000)
            : tr("Sampling is off — tick Sample above to start");
    const auto empty = [&](TimeChartPanel *p, const QString &why) {
        p->view()->setEmptyText(p->hasPoints() ? QString() : why);
    };
    empty(m_memory, waiting);
    empty(m_clients, waiting);
    // Rates need two samples.
    empty(m_ops, waiting);
    empty(m_keys, waiting);
    QString noHistogram;
    for (int i = 0; i < m_sampler.nodeCount(); ++i)
        if (!m_sampler.node(i).histogramProblem.isEmpty())
            noHistogram = tr("The server gives no FCALL latency histogram (LATENCY HISTOGRAM needs "
                             "Redis 7): %1")
                              .arg(m_sampler.node(i).histogramProblem);
    m_latency->view()->setEmptyText(m_latency->hasPoints() ? fcallLatencyGap() : waiting);
    bool anyCalls = false;
    for (int i = 0; i < m_sampler.nodeCount(); ++i)
        anyCalls =
            anyCalls || (m_sampler.node(i).last && !m_sampler.node(i).last->fcallLatency.isEmpty());
    m_histogram->view()->setEmptyText(
        anyCalls ? QString()
        : !noHistogram.isEmpty()
            ? noHistogram
            : tr("No FCALL on this server yet — make a deduction to see its latency here"));
}

} // namespace ui
