// SPDX-License-Identifier: GPL-3.0-or-later
#include "LabPanel.h"

#include "LatencyChart.h"
#include "lab/LabWorker.h"
#include "ui/common/NoticeBanner.h"
#include "ui/common/Palette.h"
#include "ui/common/TextStyle.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ui {

using namespace lab;

namespace {
QSpinBox *spin(int min, int max, int value, const QString &tip)
{
    auto *s = new QSpinBox;
    s->setRange(min, max);
    s->setValue(value);
    s->setGroupSeparatorShown(true);
    s->setToolTip(tip);
    return s;
}

// The colour of a verdict: red when stock was lost, amber when orders are still in doubt or
// the run did not finish, green otherwise.
QColor verdictColour(const StrategyResult &r)
{
    if (!r.ran())
        return Palette::muted();
    if (r.oversold() > 0 || r.doubleDeductions() > 0)
        return Palette::error();
    if (r.unresolved > 0 || r.errors > 0 || r.cancelled)
        return Palette::warning();
    return Palette::ok();
}

// A row of the comparison table: its label and how to read it from one strategy's result.
// The table marks rows 1 and 2 (oversold, double deductions) in red: keep them there.
struct LabComparisonRow
{
    QString label;
    std::function<QString(StrategyResult &)> value;
};

QString labNumber(qint64 v)
{
    return QLocale().toString(v);
}

QList<LabComparisonRow> labComparisonRows()
{
    return {
        {LabPanel::tr("Successes (first deductions)"),
         [](StrategyResult &r) {
             return labNumber(r.successes);
         }},
        {LabPanel::tr("Oversold units"),
         [](StrategyResult &r) {
             return labNumber(r.oversold());
         }},
        {LabPanel::tr("Double deductions"),
         [](StrategyResult &r) {
             return labNumber(r.doubleDeductions());
         }},
        {LabPanel::tr("Retries answered from receipts"),
         [](StrategyResult &r) {
             return labNumber(r.retriesAnswered);
         }},
        {LabPanel::tr("Refused: insufficient stock"),
         [](StrategyResult &r) {
             return labNumber(r.insufficient);
         }},
        {LabPanel::tr("Initial → final stock"),
         [](StrategyResult &r) {
             return QStringLiteral("%1 → %2").arg(labNumber(r.initialStock),
                                                  r.finalStock ? labNumber(*r.finalStock)
                                                               : LabPanel::tr("not read"));
         }},
        {LabPanel::tr("Receipts left"),
         [](StrategyResult &r) {
             return r.receipts ? labNumber(*r.receipts) : LabPanel::tr("none (no receipts)");
         }},
        {LabPanel::tr("Reused order ids"),
         [](StrategyResult &r) {
             return labNumber(r.reusedIds);
         }},
        {LabPanel::tr("Outcome unknown (retried)"),
         [](StrategyResult &r) {
             return QStringLiteral("%1 (%2)").arg(labNumber(r.unknownOutcomes),
                                                  labNumber(r.retriesAfterUnknown));
         }},
        {LabPanel::tr("Throughput"),
         [](StrategyResult &r) {
             return LabPanel::tr("%1 commands/s").arg(labNumber(qRound64(r.opsPerSec())));
         }},
        {LabPanel::tr("Latency p50 / p99"),
         [](StrategyResult &r) {
             return LabPanel::tr("%1 / %2 ms").arg(r.p50Ms(), 0, 'f', 2).arg(r.p99Ms(), 0, 'f', 2);
         }},
    };
}
} // namespace

LabPanel::LabPanel(const LabTarget &target, const std::optional<QString> &refusal, QWidget *parent)
    : QWidget(parent)
    , m_target(target)
    , m_refusal(refusal)
{
    setObjectName(QStringLiteral("labPanel"));
    m_worker = new LabWorker(this);
    connect(m_worker, &LabWorker::progress, this, &LabPanel::onProgress);
    connect(m_worker, &LabWorker::finished, this, &LabPanel::showReport);

    auto *settingsBox = buildSettingsBox();
    auto *results = buildResultsSection();
    auto *outer = new QVBoxLayout(this);
    m_refusalBanner = new NoticeBanner(NoticeBanner::Kind::Danger);
    m_refusalBanner->setObjectName(QStringLiteral("labRefusal"));
    outer->addWidget(m_refusalBanner);
    m_settingsBox = settingsBox;
    setRefusal(m_refusal);
    auto *row = new QHBoxLayout;
    row->addWidget(settingsBox);
    row->addLayout(results, 1);
    outer->addLayout(row, 1);
}

QFormLayout *LabPanel::buildSettingsForm()
{
    const LabSettings defaults;
    auto *form = new QFormLayout;
    m_stock = spin(0, int(LabSettings::MaxStock), int(defaults.initialStock),
                   tr("Units on each strategy's fresh SKU before the storm"));
    m_connections = spin(1, LabSettings::MaxConnections, defaults.connections,
                         tr("Connections deducting at the same time"));
    m_attempts = spin(1, int(LabSettings::MaxAttempts), int(defaults.attempts),
                      tr("Deductions of one unit each, over all connections"));
    m_pipeline = spin(1, LabSettings::MaxPipeline, defaults.pipeline,
                      tr("Commands each connection keeps in flight"));
    m_retryShare = new QDoubleSpinBox;
    m_retryShare->setRange(0, 1);
    m_retryShare->setSingleStep(0.05);
    m_retryShare->setDecimals(2);
    m_retryShare->setToolTip(tr("Share of attempts that resend an order id the server already "
                                "acknowledged, as a client retrying a finished order does"));
    m_fault = new QComboBox;
    m_fault->addItem(tr("None"), int(Fault::None));
    m_fault->addItem(tr("CLIENT PAUSE half way"), int(Fault::Pause));
    m_fault->addItem(tr("Client timeout shorter than a pause"), int(Fault::ShortTimeout));
    m_fault->setToolTip(tr("A pause stalls the storm; with the short timeout, replies come too "
                           "late, each call is an unknown outcome and is retried with the same "
                           "order id"));
    m_pauseMs = spin(10, 10000, defaults.pauseMs, tr("How long CLIENT PAUSE … WRITE lasts"));
    m_pauseMs->setSuffix(tr(" ms"));
    m_clientTimeoutMs = spin(10, 5000, defaults.clientTimeoutMs,
                             tr("The storm's command timeout with the short-timeout fault"));
    m_clientTimeoutMs->setSuffix(tr(" ms"));
    form->addRow(tr("Initial &stock"), m_stock);
    form->addRow(tr("Conn&ections"), m_connections);
    form->addRow(tr("Atte&mpts"), m_attempts);
    form->addRow(tr("&Pipeline depth"), m_pipeline);
    form->addRow(tr("&Retry share"), m_retryShare);
    form->addRow(tr("Fa&ult"), m_fault);
    form->addRow(tr("Pause"), m_pauseMs);
    form->addRow(tr("Client timeout"), m_clientTimeoutMs);
    auto *strategies = new QVBoxLayout;
    for (Strategy s : allStrategies()) {
        auto *box = new QCheckBox(strategyTitle(s));
        box->setObjectName(QStringLiteral("strategy-") + strategyName(s));
        box->setChecked(defaults.strategies.contains(s));
        strategies->addWidget(box);
        m_strategies << box;
    }
    form->addRow(tr("Strategies"), strategies);
    connect(m_fault, &QComboBox::currentIndexChanged, this, &LabPanel::updateFaultFields);
    updateFaultFields();
    return form;
}

QHBoxLayout *LabPanel::buildRunButtons()
{
    m_run = new QPushButton(tr("Run storm"));
    m_run->setObjectName(QStringLiteral("labRun"));
    m_run->setToolTip(tr("Ctrl+Return"));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setToolTip(tr("Esc: stop sending; the lab's keys are still removed"));
    m_cancel->setEnabled(false);
    connect(m_run, &QPushButton::clicked, this, &LabPanel::run);
    connect(m_cancel, &QPushButton::clicked, this, &LabPanel::cancel);
    auto *runShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    runShortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(runShortcut, &QShortcut::activated, this, &LabPanel::run);
    auto *enterShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Enter), this);
    enterShortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(enterShortcut, &QShortcut::activated, this, &LabPanel::run);
    auto *escShortcut = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escShortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(escShortcut, &QShortcut::activated, this, &LabPanel::cancel);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addStretch(1);
    return buttons;
}

QGroupBox *LabPanel::buildSettingsBox()
{
    auto *form = buildSettingsForm();
    auto *buttons = buildRunButtons();
    auto *settingsBox = new QGroupBox(tr("Storm"));
    auto *settingsLayout = new QVBoxLayout(settingsBox);
    settingsLayout->addLayout(form);
    settingsLayout->addLayout(buttons);
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("labProgress"));
    m_progress->setTextVisible(true);
    m_progress->setValue(0);
    settingsLayout->addWidget(m_progress);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("labStatus"));
    m_status->setWordWrap(true);
    settingsLayout->addWidget(m_status);
    settingsLayout->addStretch(1);
    settingsBox->setMaximumWidth(420);
    return settingsBox;
}

QVBoxLayout *LabPanel::buildResultsSection()
{
    auto *intro = new QLabel(
        tr("Each strategy deducts one unit at a time from a fresh throwaway SKU "
           "(stock:{lab-…}) under the same storm, and the lab counts what went wrong: "
           "<b>oversold</b> units (sold minus the initial stock) and <b>double deductions</b> "
           "from retries. The lab's keys are removed afterwards."));
    intro->setWordWrap(true);
    m_verdicts = new QHBoxLayout;
    m_table = new QTableWidget;
    m_table->setObjectName(QStringLiteral("labResults"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->hide(); // until there is something to compare
    m_chart = new LatencyChart;

    auto *results = new QVBoxLayout;
    results->addWidget(intro);
    results->addLayout(m_verdicts);
    results->addWidget(m_table);
    results->addWidget(m_chart, 1);
    return results;
}

LabPanel::~LabPanel() = default;

// Opening the tab puts the focus in it, so that Ctrl+Return runs at once.
void LabPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!isAncestorOf(QApplication::focusWidget()) && m_run->isEnabled())
        m_run->setFocus(Qt::OtherFocusReason);
}

void LabPanel::updateFaultFields()
{
    const auto fault = Fault(m_fault->currentData().toInt());
    m_pauseMs->setEnabled(fault != Fault::None);
    m_clientTimeoutMs->setEnabled(fault == Fault::ShortTimeout);
}

LabSettings LabPanel::settings() const
{
    LabSettings s;
    s.initialStock = m_stock->value();
    s.connections = m_connections->value();
    s.attempts = m_attempts->value();
    s.pipeline = m_pipeline->value();
    s.retryShare = m_retryShare->value();
    s.fault = Fault(m_fault->currentData().toInt());
    s.pauseMs = m_pauseMs->value();
    s.clientTimeoutMs = m_clientTimeoutMs->value();
    s.strategies.clear();
    const QList<Strategy> all = allStrategies();
    for (int i = 0; i < all.size(); ++i)
        if (m_strategies.at(i)->isChecked())
            s.strategies << all.at(i);
    return s;
}

void LabPanel::setSettings(const LabSettings &s)
{
    m_stock->setValue(int(s.initialStock));
    m_connections->setValue(s.connections);
    m_attempts->setValue(int(s.attempts));
    m_pipeline->setValue(s.pipeline);
    m_retryShare->setValue(s.retryShare);
    m_fault->setCurrentIndex(m_fault->findData(int(s.fault)));
    m_pauseMs->setValue(s.pauseMs);
    m_clientTimeoutMs->setValue(s.clientTimeoutMs);
    const QList<Strategy> all = allStrategies();
    for (int i = 0; i < all.size(); ++i)
        m_strategies.at(i)->setChecked(s.strategies.contains(all.at(i)));
}

void LabPanel::setRefusal(const std::optional<QString> &refusal)
{
    m_refusal = refusal;
    m_refusalBanner->setNotice(
        refusal ? tr("The lab is disabled on this session: %1.").arg(*refusal) : QString());
    m_settingsBox->setEnabled(!refusal);
    if (!m_started)
        showNotRunYet();
}

// Before the first storm the progress bar and the line under it say what Run will do, rather
// than an empty bar that reads as a run that made no progress.
void LabPanel::showNotRunYet()
{
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("Not run yet"));
    setTextColour(m_status, QColor());
    m_status->setText(
        m_refusal ? tr("Not run yet: the lab is disabled on this session (see above).")
                  : tr("Not run yet: press Run storm (Ctrl+Return) to run each ticked strategy "
                       "on throwaway SKUs through %1; their keys are removed afterwards.")
                        .arg(m_target.options.address()));
}

bool LabPanel::isRunning() const
{
    return m_worker->isRunning();
}

void LabPanel::run()
{
    if (m_refusal || m_worker->isRunning())
        return;
    m_running = settings();
    if (const QStringList problems = m_running.problems(); !problems.isEmpty()) {
        setTextColour(m_status, Palette::error());
        m_status->setText(tr("Nothing sent: %1.").arg(problems.join(QStringLiteral("; "))));
        return;
    }
    m_started = true;
    setTextColour(m_status, QColor());
    m_status->setText(
        tr("Starting %1 through %2…")
            .arg(strategyName(m_running.strategies.first()), m_target.options.address()));
    m_progress->setRange(0, int(m_running.strategies.size() * 1000));
    m_progress->setValue(0);
    m_progress->setFormat(QStringLiteral("%p%"));
    setRunning(true);
    m_cancelRequested = false;
    m_worker->start(m_running, m_target);
}

void LabPanel::cancel()
{
    if (!m_worker->isRunning())
        return;
    m_worker->cancel();
    m_cancelRequested = true;
    m_status->setText(tr("Cancelling: waiting for the commands in flight, then removing the "
                         "lab's keys…"));
}

void LabPanel::setRunning(bool running)
{
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
}

void LabPanel::onProgress(int strategyIndex, qint64 done, const QString &node)
{
    const double share = double(done) / double(std::max<qint64>(1, m_running.attempts));
    m_progress->setValue(strategyIndex * 1000 + int(std::min(1.0, share) * 1000));
    if (strategyIndex < m_running.strategies.size() && !m_cancelRequested)
        // The node the storm really runs on: on a cluster, the primary owning its SKU, not
        // the address the session was opened with.
        m_status->setText(tr("Running %1 on %2: %3 of %4 attempts…")
                              .arg(strategyName(m_running.strategies.at(strategyIndex)), node)
                              .arg(done)
                              .arg(m_running.attempts));
}

void LabPanel::showReport(const LabReport &report)
{
    setRunning(false);
    m_report = report;
    m_progress->setValue(m_progress->maximum());
    if (!report.failure.isEmpty()) {
        setTextColour(m_status, Palette::error());
        m_status->setText(tr("The lab could not run: %1.").arg(report.failure));
        emit runFinished();
        return;
    }
    m_status->setText(report.cancelled ? tr("Cancelled; the lab's keys were removed.")
                                       : tr("Done; the lab's keys were removed."));
    for (const StrategyResult &r : report.results)
        if (!r.cleanupProblem.isEmpty())
            m_status->setText(tr("Done, but some keys stayed: %1").arg(r.cleanupProblem));

    showVerdictCards(report.results);
    QList<StrategyResult> results = report.results;
    showComparisonTable(results);
    m_chart->setResults(results);
    emit runFinished();
}

void LabPanel::showVerdictCards(const QList<StrategyResult> &results)
{
    while (QLayoutItem *item = m_verdicts->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (const StrategyResult &r : results) {
        QString detail;
        if (r.ran() && r.finalStock)
            detail = tr("sold %1 from a stock of %2").arg(r.sold()).arg(r.initialStock);
        // Which server it ran on: on a cluster each strategy has a primary of its own.
        const QString node = r.node.isEmpty() ? QString() : tr("on %1").arg(r.node);
        auto *card = new QLabel(
            QStringLiteral("<b>%1</b><br>%2<br><small>%3</small><br><small>%4</small>")
                .arg(strategyName(r.strategy).toHtmlEscaped(), r.verdict().toHtmlEscaped(),
                     detail.toHtmlEscaped(), node.toHtmlEscaped()));
        card->setObjectName(QStringLiteral("verdict-") + strategyName(r.strategy));
        card->setWordWrap(true);
        card->setToolTip(strategyTitle(r.strategy));
        const QColor c = verdictColour(r);
        card->setStyleSheet(QStringLiteral("QLabel { border: 2px solid %1; border-radius: 4px; "
                                           "padding: 6px; %2 }")
                                .arg(c.name(), Palette::textStyle(c)));
        // A wrapped label in a row does not ask for the height its wrapped text needs: room
        // for the name, two lines of verdict, the detail and the node.
        card->setMinimumHeight(card->fontMetrics().lineSpacing() * 6 + 24);
        m_verdicts->addWidget(card, 1);
    }
}

// One column per strategy, side by side.
void LabPanel::showComparisonTable(QList<StrategyResult> &results)
{
    const QList<LabComparisonRow> rows = labComparisonRows();
    m_table->clear();
    m_table->setRowCount(int(rows.size()));
    m_table->setColumnCount(int(results.size()));
    QStringList headers;
    for (const StrategyResult &r : results)
        headers << strategyName(r.strategy); // as on the cards; the title is the tooltip
    m_table->setHorizontalHeaderLabels(headers);
    for (int c = 0; c < results.size(); ++c)
        m_table->horizontalHeaderItem(c)->setToolTip(strategyTitle(results.at(c).strategy));
    QStringList labels;
    for (const LabComparisonRow &row : rows)
        labels << row.label;
    m_table->setVerticalHeaderLabels(labels);
    for (int c = 0; c < results.size(); ++c) {
        StrategyResult &r = results[c];
        for (int i = 0; i < rows.size(); ++i) {
            auto *item = new QTableWidgetItem(r.ran() ? rows.at(i).value(r) : QStringLiteral("—"));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if ((i == 1 && r.oversold() > 0) || (i == 2 && r.doubleDeductions() > 0))
                item->setForeground(Palette::error());
            m_table->setItem(i, c, item);
        }
    }
    m_table->show();
}

} // namespace ui
