// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "metrics/SlowLog.h"

#include <QWidget>

class QLabel;
class QTableView;
class QTimer;

namespace ui {

// SLOWLOG GET of every node in one table, slowest first; FCALL/EVALSHA rows (the console's
// deductions) are marked and tinted. Read on Refresh, and every 10 s while shown.
class SlowLogPage : public QWidget
{
    Q_OBJECT
public:
    explicit SlowLogPage(redis::CommandSender &sender, QWidget *parent = nullptr);
    metrics::SlowLogModel &model() { return m_model; }
    void refresh();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    metrics::SlowLogReader m_reader;
    metrics::SlowLogModel m_model;
    QTableView *m_table;
    QLabel *m_status;
    QTimer *m_timer;
};

} // namespace ui
