// SPDX-License-Identifier: GPL-3.0-or-later
#include "OutcomesPage.h"

#include "ChartPanel.h"
#include "ChartView.h"
#include "CountAxis.h"
#include "inventory/AuditIndex.h"
#include "inventory/AuditLoader.h"
#include "inventory/AuditLogWatcher.h"
#include "inventory/DeductionHistory.h"
#include "metrics/OutcomeBuckets.h"
#include "ui/common/OutcomeStyle.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QDateTime>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStackedBarSeries>
#include <QValueAxis>
#include <utility>

namespace ui {

namespace {

using inventory::OutcomeKind;

// Draws buckets as stacked bars, one set per outcome that occurs (an outcome that never
// happened would only crowd the legend).
void drawBuckets(ChartPanel *panel, const std::vector<metrics::OutcomeBucket> &buckets,
                 const QString &timeFormat, const QString &timeTitle, const QString &empty)
{
    // The axes stay (a removed axis lingers in the scene until the event loop runs); the
    // series is replaced: a handful of bars, whatever the length of the history.
    QChart *c = panel->chart();
    c->removeAllSeries();
    auto *x = qobject_cast<QBarCategoryAxis *>(c->axes(Qt::Horizontal).value(0));
    auto *y = qobject_cast<QValueAxis *>(c->axes(Qt::Vertical).value(0));
    if (!x) {
        x = new QBarCategoryAxis;
        y = new QValueAxis;
        y->setTitleText(QObject::tr("deductions"));
        c->addAxis(x, Qt::AlignBottom);
        c->addAxis(y, Qt::AlignLeft);
    }
    QStringList categories;
    for (const auto &b : buckets)
        categories << QDateTime::fromMSecsSinceEpoch(b.startMs).toString(timeFormat);
    auto *series = new QStackedBarSeries;
    int top = 0;
    for (const auto &b : buckets)
        top = qMax(top, b.total());
    QList<QRgb> used;
    for (int k = 0; k < metrics::OutcomeKindCount; ++k) {
        int sum = 0;
        for (const auto &b : buckets)
            sum += b.counts[size_t(k)];
        if (sum == 0)
            continue;
        auto *set = new QBarSet(inventory::outcomeTitle(OutcomeKind(k)));
        // Outcomes that share a colour elsewhere (insufficient and stock missing are both
        // amber) must still be told apart in a stack: a darker shade for the second.
        QColor colour = outcomeColor(OutcomeKind(k));
        while (used.contains(colour.rgb()))
            colour = colour.darker(160);
        used << colour.rgb();
        set->setColor(colour);
        set->setBorderColor(colour);
        for (const auto &b : buckets)
            *set << b.counts[size_t(k)];
        series->append(set);
        panel->view()->showValuesOf(set, categories, QObject::tr("deductions"));
    }
    series->setBarWidth(0.9);
    c->addSeries(series);
    x->setCategories(categories);
    x->setTitleText(timeTitle);
    setCountRange(y, top);
    series->attachAxis(x);
    series->attachAxis(y);
    panel->view()->setEmptyText(series->count() == 0 ? empty : QString());
}

} // namespace

OutcomesPage::OutcomesPage(inventory::DeductionHistory *history, QString auditPath, QWidget *parent)
    : QWidget(parent)
    , m_history(history)
    , m_auditPath(std::move(auditPath))
    , m_session(new ChartPanel(tr("Deduction outcomes in this session"), new QChart, false))
    , m_audit(new ChartPanel(tr("Deduction outcomes in the audit log"), new QChart, false))
    , m_period(new QComboBox)
    , m_auditStatus(new QLabel)
    , m_loader(new inventory::AuditLoader(this))
    , m_auditWatcher(new inventory::AuditLogWatcher(this))
{
    // At most 12 bars: their time labels stay readable.
    m_period->addItem(tr("Last hour (per 5 min)"), 3600);
    m_period->addItem(tr("Last day (per 2 hours)"), 86400);
    m_period->addItem(tr("Last week (per day)"), 7 * 86400);
    m_period->addItem(tr("Last 30 days (per 3 days)"), 30 * 86400);
    m_period->setCurrentIndex(1);
    auto *reload = new QPushButton(tr("Reload"));
    m_audit->addButton(reload);
    m_audit->addButton(m_period);
    m_auditStatus->setWordWrap(true);
    m_auditStatus->setObjectName(QStringLiteral("auditStatus"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_session, 1);
    layout->addWidget(m_audit, 1);
    layout->addWidget(m_auditStatus);
    connect(m_loader, &inventory::AuditLoader::finished, this, &OutcomesPage::auditLoaded);
    // Hidden, it reads what was appended when it is shown again.
    connect(m_auditWatcher, &inventory::AuditLogWatcher::changed, this, [this] {
        if (isVisible())
            refreshAudit();
    });
    m_auditWatcher->setPath(m_auditPath);
    connect(reload, &QPushButton::clicked, this, &OutcomesPage::refreshAudit);
    connect(m_period, &QComboBox::currentIndexChanged, this, &OutcomesPage::refreshAudit);
    if (m_history) {
        connect(m_history, &QAbstractItemModel::rowsInserted, this, &OutcomesPage::refreshSession);
        connect(m_history, &QAbstractItemModel::modelReset, this, &OutcomesPage::refreshSession);
    }
    refreshSession();
    refreshAudit();
}

OutcomesPage::~OutcomesPage() = default;

QList<ChartPanel *> OutcomesPage::panels() const
{
    return {m_session, m_audit};
}

void OutcomesPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refreshAudit();
}

void OutcomesPage::refreshSession()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const auto events =
        m_history ? metrics::sessionOutcomes(*m_history) : std::vector<metrics::OutcomeEvent>{};
    qint64 first = now;
    for (const auto &e : events)
        first = qMin(first, e.timeMs);
    // Twelve bars over the whole session: a minute each while it is short, longer later.
    constexpr qint64 minute = 60'000;
    qint64 bucket = minute;
    for (qint64 b : {minute, 5 * minute, 15 * minute, 30 * minute, 60 * minute, 180 * minute,
                     720 * minute, 1440 * minute}) {
        bucket = b;
        if (now - first < 12 * b)
            break;
    }
    drawBuckets(m_session, metrics::bucketOutcomes(events, now - 11 * bucket, now, bucket),
                QStringLiteral("HH:mm"),
                tr("%1 started")
                    .arg(bucket == minute ? tr("minute") : tr("%1 minutes").arg(bucket / minute)),
                tr("No deduction in this session yet — deductions made on the Deductions tab "
                   "appear here by outcome"));
}

void OutcomesPage::refreshAudit()
{
    if (m_loader->isRunning()) {
        m_refreshAgain = true;
        return;
    }
    if (!m_auditPath.isEmpty() && QFileInfo::exists(m_auditPath)) {
        // Kept between reloads: each one parses only what was appended since (a file that
        // was replaced is read again from the start).
        if (!m_index)
            m_index = std::make_unique<inventory::AuditIndex>(m_auditPath);
        if (inventory::AuditLoader::readsOnWorker(*m_index)) {
            m_auditStatus->setText(tr("Reading %1…").arg(m_auditPath));
            m_loader->start(std::move(m_index));
            return;
        }
        m_index->readAppended();
    } else {
        m_index.reset(); // no log (yet, or any more)
    }
    drawAudit();
}

void OutcomesPage::auditLoaded()
{
    m_index = m_loader->takeIndex();
    drawAudit();
    if (std::exchange(m_refreshAgain, false))
        refreshAudit();
}

void OutcomesPage::drawAudit()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 period = qint64(m_period->currentData().toInt()) * 1000;
    const qint64 bucket = period <= 3600'000        ? 300'000
                          : period <= 86400'000     ? 2 * 3600'000
                          : period <= 7 * 86400'000 ? 86400'000
                                                    : 3 * 86400'000;
    const QString format = bucket >= 86400'000 ? QStringLiteral("MMM d") : QStringLiteral("HH:mm");
    std::vector<metrics::OutcomeEvent> events;
    if (!m_index) {
        m_auditStatus->setText(
            tr("No audit log yet at %1: it is written at the first deduction.").arg(m_auditPath));
    } else {
        events = metrics::auditOutcomes(*m_index, now - period, now);
        m_auditStatus->setText(
            tr("%1 deductions in the period, from %2.").arg(events.size()).arg(m_auditPath));
    }
    drawBuckets(m_audit, metrics::bucketOutcomes(events, now - period + bucket, now, bucket),
                format, tr("period started"),
                tr("No deduction recorded in the audit log in this period"));
}

} // namespace ui
