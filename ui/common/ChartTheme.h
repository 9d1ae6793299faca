// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QChart;

namespace ui {

// Gives `chart` the Qt Charts theme of the application's palette: ChartThemeDark on a dark
// one (Palette::isDark), ChartThemeLight otherwise; nothing when it has it already. A theme
// gives every series its own colours: a series coloured by meaning (an outcome, the bar
// series) keeps its meaning, in the new variant's shade; the others take the theme's, which
// it tells apart on its own background. Chart views call it when built and on PaletteChange.
void followPaletteChartTheme(QChart *chart);
// The same for a chosen variant: a picture for a document (the readiness report) is drawn
// light whatever the window's palette, then the chart follows the palette again.
void setChartThemeVariant(QChart *chart, bool dark);

} // namespace ui
