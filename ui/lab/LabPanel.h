// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/LabRun.h"

#include <QWidget>
#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QHBoxLayout;
class QVBoxLayout;

namespace lab {
class LabWorker;
}

namespace ui {

class LatencyChart;
class NoticeBanner;

// The concurrency lab: a settings form, Run (Ctrl+Return) and Cancel (Esc), progress, then
// each strategy's verdict and numbers side by side and their latency histograms. The storm
// runs on a thread of its own (lab::LabWorker): the window stays responsive. On a session the
// lab may not write to (`refusal` set: staging, production) the form is disabled and says why.
class LabPanel : public QWidget
{
    Q_OBJECT
public:
    LabPanel(const lab::LabTarget &target, const std::optional<QString> &refusal,
             QWidget *parent = nullptr);
    ~LabPanel() override;

    lab::LabSettings settings() const;
    void setSettings(const lab::LabSettings &settings);
    bool isRunning() const;
    // The session's label changed (a Local claim proven, or found not to be): the form follows.
    void setRefusal(const std::optional<QString> &refusal);
    const lab::LabReport &lastReport() const { return m_report; }
    LatencyChart *chart() const { return m_chart; }
    QTableWidget *resultsTable() const { return m_table; }

public slots:
    void run();
    void cancel();

signals:
    void runFinished();

protected:
    void showEvent(QShowEvent *event) override;

private:
    QGroupBox *buildSettingsBox();
    QFormLayout *buildSettingsForm();
    QHBoxLayout *buildRunButtons();
    QVBoxLayout *buildResultsSection();
    void showReport(const lab::LabReport &report);
    void showVerdictCards(const QList<lab::StrategyResult> &results);
    // Not const: reading a percentile sorts the result's latency samples (once).
    void showComparisonTable(QList<lab::StrategyResult> &results);
    void onProgress(int strategyIndex, qint64 done, const QString &node);
    void updateFaultFields();
    void setRunning(bool running);
    void showNotRunYet();

    lab::LabTarget m_target;
    std::optional<QString> m_refusal;
    NoticeBanner *m_refusalBanner = nullptr;
    QWidget *m_settingsBox = nullptr;
    lab::LabWorker *m_worker = nullptr;
    lab::LabReport m_report;
    lab::LabSettings m_running;
    bool m_cancelRequested = false;
    bool m_started = false; // a storm was started: the progress and status are its own

    QSpinBox *m_stock = nullptr;
    QSpinBox *m_connections = nullptr;
    QSpinBox *m_attempts = nullptr;
    QSpinBox *m_pipeline = nullptr;
    QDoubleSpinBox *m_retryShare = nullptr;
    QComboBox *m_fault = nullptr;
    QSpinBox *m_pauseMs = nullptr;
    QSpinBox *m_clientTimeoutMs = nullptr;
    QList<QCheckBox *> m_strategies; // in lab::allStrategies() order
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QHBoxLayout *m_verdicts = nullptr;
    QTableWidget *m_table = nullptr;
    LatencyChart *m_chart = nullptr;
};

} // namespace ui
