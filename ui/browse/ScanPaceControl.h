// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "browse/ScanPace.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QSpinBox;

namespace ui {

// The key browser's scan pace: fast or gentle, the gentle cap in keys/s, and what the pace
// means for this server ("about 25 s for 1,000,000 keys", once a DBSIZE is known). A
// production session starts gentle, any other fast (ScanPace::forEnvironment); a change
// applies from the next scan.
class ScanPaceControl : public QWidget
{
    Q_OBJECT
public:
    explicit ScanPaceControl(QWidget *parent = nullptr);

    // The label's default pace, shown with the label's name in the tooltip.
    void setEnvironment(profiles::Environment environment);
    void setPace(const browse::ScanPace &pace);
    browse::ScanPace pace() const;
    // The keyspace's size, from the last scan's DBSIZE: the expected duration follows it.
    void setDbSize(qint64 dbSize);
    QString expectedText() const;

signals:
    void paceChanged();

private:
    void update();

    QComboBox *m_mode = nullptr;
    QSpinBox *m_rate = nullptr; // keys/s, gentle only
    QLabel *m_expected = nullptr;
    qint64 m_dbSize = -1;
    QString m_environment; // the label's name; empty until setEnvironment
    bool m_startsGentle = false;
};

} // namespace ui
