// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>
#include <functional>

class QChart;
class QHBoxLayout;
class QLabel;
class QToolButton;

namespace ui {

class ChartView;

// One chart with its title and its buttons: Pause (the time axis stops following new
// samples; they are still kept), Reset zoom, Save PNG…, Save CSV…. A rubber band on the chart
// zooms to a range and pauses; Reset zoom goes back to following the latest samples.
class ChartPanel : public QWidget
{
    Q_OBJECT
public:
    ChartPanel(const QString &title, QChart *chart, bool live, QWidget *parent = nullptr);

    ChartView *view() const { return m_view; }
    QString title() const;
    QChart *chart() const;
    bool isPaused() const { return m_paused; }
    void setPaused(bool paused);
    // What Save CSV writes; the chart's own series (chartCsv) unless set.
    void setCsvSource(std::function<QByteArray()> source) { m_csv = std::move(source); }
    QByteArray csv() const;
    bool savePng(const QString &path, QSize size = {}) const;
    bool saveCsv(const QString &path) const;
    QString fileStem() const; // "server-memory": the default file name

    // Extra buttons of a chart (e.g. Refresh) go before the standard ones.
    void addButton(QWidget *button);

signals:
    void pausedChanged(bool paused);
    void resetZoomRequested(); // the live chart puts its axis back on the latest samples

private:
    void save(bool png);

    ChartView *m_view;
    QLabel *m_title;
    QToolButton *m_pause = nullptr;
    QHBoxLayout *m_buttons;
    bool m_paused = false;
    std::function<QByteArray()> m_csv;
};

} // namespace ui
