// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChartPanel.h"

#include "ChartCsv.h"
#include "ChartView.h"
#include "core/DataPaths.h"

#include <QBuffer>
#include <QChart>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QSaveFile>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>

namespace ui {

ChartPanel::ChartPanel(const QString &title, QChart *chart, bool live, QWidget *parent)
    : QWidget(parent)
    , m_view(new ChartView(chart))
    , m_title(new QLabel(title))
    , m_buttons(new QHBoxLayout)
{
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addLayout(m_buttons);
    const auto button = [this](const QString &text, const QString &tip) {
        auto *b = new QToolButton;
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        m_buttons->addWidget(b);
        return b;
    };
    if (live) {
        m_pause = button(tr("Pause"), tr("Stop following new samples (they are still kept)"));
        m_pause->setCheckable(true);
        connect(m_pause, &QToolButton::toggled, this, &ChartPanel::setPaused);
        // The zoom hint lives here, not on the chart: a tooltip at the pointer hid the values
        // being read there.
        auto *reset = button(tr("Reset zoom"),
                             tr("Follow the latest samples again. Drag across the chart to zoom "
                                "to a range; right-click zooms out."));
        connect(reset, &QToolButton::clicked, this, [this] {
            m_view->chart()->zoomReset();
            setPaused(false);
            emit resetZoomRequested();
        });
        // Zooming to a range holds it there: the axis would move away at the next sample.
        connect(m_view, &ChartView::zoomedByUser, this, [this] { setPaused(true); });
    }
    connect(button(tr("Save PNG…"), tr("Save this chart as an image")), &QToolButton::clicked, this,
            [this] { save(true); });
    connect(button(tr("Save CSV…"), tr("Save the values this chart draws as CSV")),
            &QToolButton::clicked, this, [this] { save(false); });
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
    setObjectName(fileStem());
}

QChart *ChartPanel::chart() const
{
    return m_view->chart();
}

void ChartPanel::setPaused(bool paused)
{
    if (m_paused == paused)
        return;
    m_paused = paused;
    if (m_pause) {
        const QSignalBlocker block(m_pause);
        m_pause->setChecked(paused);
        m_pause->setText(paused ? tr("Resume") : tr("Pause"));
    }
    emit pausedChanged(paused);
}

void ChartPanel::addButton(QWidget *button)
{
    m_buttons->insertWidget(0, button);
}

QByteArray ChartPanel::csv() const
{
    return m_csv ? m_csv() : chartCsv(*chart());
}

QString ChartPanel::fileStem() const
{
    QString stem = m_title->text().toLower();
    for (QChar &c : stem)
        if (!c.isLetterOrNumber())
            c = QLatin1Char('-');
    while (stem.contains(QStringLiteral("--")))
        stem.replace(QStringLiteral("--"), QStringLiteral("-"));
    return QStringLiteral("chart-")
           + stem.section(QLatin1Char('-'), 0, -1, QString::SectionSkipEmpty);
}

bool ChartPanel::savePng(const QString &path, QSize size) const
{
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    return m_view->renderImage(size.isEmpty() ? QSize(1200, 600) : size).save(&buffer, "PNG")
           && core::writePrivateFile(path, png).ok();
}

bool ChartPanel::saveCsv(const QString &path) const
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || !core::makeOpenFilePrivate(f).ok())
        return false;
    f.write(csv());
    return f.commit();
}

void ChartPanel::save(bool png)
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString path = QFileDialog::getSaveFileName(
        this, png ? tr("Save chart as PNG") : tr("Save chart data as CSV"),
        dir + QLatin1Char('/') + fileStem()
            + (png ? QStringLiteral(".png") : QStringLiteral(".csv")),
        png ? tr("PNG image (*.png)") : tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    if (!(png ? savePng(path) : saveCsv(path)))
        QMessageBox::warning(this, tr("Could not save"),
                             tr("%1 could not be written. Choose a folder you may write to and "
                                "try again.")
                                 .arg(path));
}

QString ChartPanel::title() const
{
    return m_title->text();
}

} // namespace ui
