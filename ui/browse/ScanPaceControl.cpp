// SPDX-License-Identifier: GPL-3.0-or-later
#include "ScanPaceControl.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>

namespace ui {

namespace {
enum ModeItem { FastItem, GentleItem };
}

ScanPaceControl::ScanPaceControl(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("scanPace"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_mode = new QComboBox(this);
    m_mode->setObjectName(QStringLiteral("scanPaceMode"));
    m_mode->addItem(tr("Fast scan"));
    m_mode->addItem(tr("Gentle scan"));
    m_rate = new QSpinBox(this);
    m_rate->setObjectName(QStringLiteral("scanPaceRate"));
    m_rate->setRange(int(browse::ScanPace::MinKeysPerSecond),
                     int(browse::ScanPace::MaxKeysPerSecond));
    m_rate->setSingleStep(5000);
    m_rate->setGroupSeparatorShown(true);
    m_rate->setSuffix(tr(" keys/s"));
    m_rate->setValue(int(browse::ScanPace::DefaultGentleKeysPerSecond));
    m_expected = new QLabel(this);
    m_expected->setObjectName(QStringLiteral("scanPaceExpected"));
    // "about 1,234 s" never widens the window past the screen (the key count is in the
    // tooltip); "time known after DBSIZE" may be cut.
    m_expected->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_expected->setMinimumWidth(m_expected->fontMetrics().horizontalAdvance(
        tr("about %1 s").arg(QLocale().toString(99999))));
    layout->addWidget(m_mode);
    layout->addWidget(m_rate);
    layout->addWidget(m_expected);
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] {
        update();
        emit paceChanged();
    });
    connect(m_rate, &QSpinBox::valueChanged, this, [this] {
        update();
        emit paceChanged();
    });
    update();
}

void ScanPaceControl::setEnvironment(profiles::Environment environment)
{
    m_environment = profiles::environmentName(environment);
    const browse::ScanPace pace = browse::ScanPace::forEnvironment(environment);
    m_startsGentle = pace.isGentle();
    setPace(pace);
}

void ScanPaceControl::setPace(const browse::ScanPace &pace)
{
    const QSignalBlocker a(m_mode), b(m_rate);
    m_mode->setCurrentIndex(pace.isGentle() ? GentleItem : FastItem);
    if (pace.isGentle())
        m_rate->setValue(int(pace.keysPerSecond));
    update();
}

browse::ScanPace ScanPaceControl::pace() const
{
    return m_mode->currentIndex() == GentleItem ? browse::ScanPace::gentle(m_rate->value())
                                                : browse::ScanPace::fast();
}

void ScanPaceControl::setDbSize(qint64 dbSize)
{
    m_dbSize = dbSize;
    update();
}

QString ScanPaceControl::expectedText() const
{
    return m_expected->text();
}

void ScanPaceControl::update()
{
    const browse::ScanPace p = pace();
    m_rate->setEnabled(p.isGentle());
    m_rate->setVisible(p.isGentle()); // the bar is full at 1366 px: no idle box in fast mode
    const qint64 seconds = p.expectedSeconds(m_dbSize);
    if (!p.isGentle())
        m_expected->setText(tr("no cap"));
    else if (seconds < 0)
        m_expected->setText(tr("time known after DBSIZE"));
    else
        m_expected->setText(tr("about %1 s").arg(QLocale().toString(seconds)));
    const QString label = m_environment.isEmpty()
                              ? QString()
                              : tr("This session is labelled %1: it starts %2.\n")
                                    .arg(m_environment, m_startsGentle ? tr("gentle") : tr("fast"));
    const QString tip = label
                        + tr("Fast: several pages in flight and no cap, for local and test "
                             "servers.\nGentle: one small page at a time and at most the keys/s "
                             "set here, so that the server's other clients keep their "
                             "latency (for production).\nNow: %1. A change applies from the "
                             "next scan.")
                              .arg(p.describe());
    for (QWidget *w : {static_cast<QWidget *>(m_mode), static_cast<QWidget *>(m_rate)})
        w->setToolTip(tip);
    const QString expected =
        seconds >= 0 && p.isGentle()
            ? tr("A scan of %1 keys at this pace takes about %2 s.")
                  .arg(QLocale().toString(m_dbSize), QLocale().toString(seconds))
            : m_expected->text();
    m_expected->setToolTip(expected + QStringLiteral("\n\n") + tip);
}

} // namespace ui
