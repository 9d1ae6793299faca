// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "demo/DemoSeeder.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace ui {

// Shown only with the embedded demo: what was seeded, and the problems planted in it on
// purpose so that a support person can practise finding them.
class DemoDataPanel : public QWidget
{
    Q_OBJECT
public:
    explicit DemoDataPanel(QWidget *parent = nullptr);

    void setSeeding();
    void setReport(const demo::SeedReport &report, const demo::SeedOptions &options);
    void setFailed(const QString &error);

private:
    QLabel *m_summary;
    QTableWidget *m_anomalies;
};

} // namespace ui
