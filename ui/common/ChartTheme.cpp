// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChartTheme.h"

#include "Palette.h"

#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QXYSeries>

#include <vector>

namespace ui {

void followPaletteChartTheme(QChart *chart)
{
    setChartThemeVariant(chart, Palette::isDark());
}

void setChartThemeVariant(QChart *chart, bool dark)
{
    const QChart::ChartTheme theme = dark ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (chart->theme() == theme)
        return;
    std::vector<std::pair<QXYSeries *, QColor>> lines;
    std::vector<std::pair<QBarSet *, QColor>> bars;
    const QList<QAbstractSeries *> all = chart->series();
    for (QAbstractSeries *s : all) {
        if (auto *xy = qobject_cast<QXYSeries *>(s))
            lines.emplace_back(xy, Palette::counterpart(xy->color(), !dark));
        if (auto *barSeries = qobject_cast<QAbstractBarSeries *>(s)) {
            const QList<QBarSet *> sets = barSeries->barSets();
            for (QBarSet *set : sets)
                bars.emplace_back(set, Palette::counterpart(set->color(), !dark));
        }
    }
    chart->setTheme(theme);
    for (const auto &[series, colour] : lines) {
        if (colour.isValid())
            series->setColor(colour);
    }
    for (const auto &[set, colour] : bars) {
        if (colour.isValid())
            set->setColor(colour);
    }
}

} // namespace ui
