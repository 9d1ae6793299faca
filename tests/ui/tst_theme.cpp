// SPDX-License-Identifier: GPL-3.0-or-later
// The light and dark themes: every status colour reads on its variant's window and base
// (WCAG contrast >= 4.5), each meaning's shades are its own, and a switch while windows are
// open re-tints what they show: labels, style sheets, rich text, table items, charts (Qt
// Charts' dark theme, series keeping their meaning) and the QScintilla code views.
#include "inventory/DeductionOutcome.h"
#include "ui/charts/ChartView.h"
#include "ui/common/EnvironmentStyle.h"
#include "ui/common/LuaCodeView.h"
#include "ui/common/OutcomeStyle.h"
#include "ui/common/Palette.h"
#include "ui/common/TextStyle.h"
#include "ui/common/Theme.h"
#include "ui/common/ThemeMenu.h"
#include "ui/functions/CodeDiffView.h"
#include "ui/lab/LatencyChart.h"

#include <Qsci/qscilexer.h>
#include <Qsci/qscilexerlua.h>

#include <QApplication>
#include <QBarSeries>
#include <QBarSet>
#include <QChartView>
#include <QGroupBox>
#include <QLabel>
#include <QLineSeries>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>

#include <cmath>
#include <functional>

using ui::Palette;
using ui::Theme;

namespace {

double luminance(const QColor &c)
{
    const auto channel = [](double v) {
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

// WCAG 2's contrast ratio, 1 (none) to 21 (black on white).
double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

struct Named
{
    const char *name;
    std::function<QColor()> colour;
};

// The shades that write words on the window or in a table.
const Named TextShades[] = {
    {"error", Palette::error},         {"ok", Palette::ok},           {"warning", Palette::warning},
    {"attention", Palette::attention}, {"pending", Palette::pending}, {"muted", Palette::muted},
    {"applied", Palette::applied},     {"unknown", Palette::unknown}, {"local", Palette::local},
};

QColor windowColour()
{
    return QGuiApplication::palette().color(QPalette::Window);
}

QColor baseColour()
{
    return QGuiApplication::palette().color(QPalette::Base);
}

} // namespace

class TstTheme : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("view/theme"));
    }
    void cleanup() { ui::applyTheme(Theme::Light); }

    void variants_data()
    {
        QTest::addColumn<Theme>("theme");
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << Theme::Light << false;
        QTest::newRow("dark") << Theme::Dark << true;
    }

    void textShadesReadOnWindowAndBase_data() { variants_data(); }
    void textShadesReadOnWindowAndBase()
    {
        QFETCH(Theme, theme);
        QFETCH(bool, dark);
        ui::applyTheme(theme);
        QCOMPARE(Palette::isDark(), dark);
        for (const Named &shade : TextShades) {
            const QColor c = shade.colour();
            QVERIFY2(contrast(c, windowColour()) >= 4.5,
                     qPrintable(QStringLiteral("%1 %2 on window %3: %4")
                                    .arg(shade.name, c.name(), windowColour().name())
                                    .arg(contrast(c, windowColour()))));
            QVERIFY2(contrast(c, baseColour()) >= 4.5,
                     qPrintable(QStringLiteral("%1 %2 on base: %3")
                                    .arg(shade.name, c.name())
                                    .arg(contrast(c, baseColour()))));
        }
        const QColor text = QGuiApplication::palette().color(QPalette::Text);
        if (dark) // the selected row (light's is Fusion's own)
            QVERIFY(contrast(QGuiApplication::palette().color(QPalette::HighlightedText),
                             QGuiApplication::palette().color(QPalette::Highlight))
                    >= 4.5);
        for (const QColor &tint :
             {Palette::soonTint(), Palette::errorTint(), Palette::warningTint(),
              Palette::scriptTint(), Palette::codeAdded(), Palette::codeRemoved(),
              Palette::codeChanged(), Palette::codeFiller()})
            QVERIFY2(contrast(text, tint) >= 4.5, qPrintable(tint.name()));
    }

    // Words drawn on a colour of the palette: badges, banners, cards, table cells.
    void wordsOnTintsAndBadgesRead_data() { variants_data(); }
    void wordsOnTintsAndBadgesRead()
    {
        QFETCH(Theme, theme);
        ui::applyTheme(theme);
        using profiles::Environment;
        for (Environment env :
             {Environment::Local, Environment::Test, Environment::Staging, Environment::Production})
            QVERIFY(contrast(Palette::onStrong(), ui::environmentColor(env)) >= 4.5);
        QVERIFY(contrast(Palette::onStrong(), Palette::muted()) >= 4.5); // "No change" badge
        using inventory::OutcomeKind;
        for (OutcomeKind kind :
             {OutcomeKind::Deducted, OutcomeKind::AlreadyApplied, OutcomeKind::Insufficient,
              OutcomeKind::StockMissing, OutcomeKind::Rejected, OutcomeKind::MayHaveWritten,
              OutcomeKind::Unknown, OutcomeKind::NotSent})
            QVERIFY2(contrast(ui::outcomeColor(kind), ui::outcomeTint(kind)) >= 4.5,
                     qPrintable(ui::outcomeColor(kind).name()));
        const std::pair<QColor, QColor> pairs[] = {
            {Palette::infoBannerText(), Palette::infoTint()},
            {Palette::okBannerText(), Palette::okTint()},
            {Palette::warningBannerText(), Palette::warningTint()},
            {Palette::errorBannerText(), Palette::errorTint()},
            {Palette::noticeText(), Palette::okTint()},
            {Palette::noticeText(), Palette::noticeWarning()},
            {Palette::noticeText(), Palette::noticeError()},
            {Palette::error(), Palette::errorTint()},
            {Palette::warning(), Palette::warningTint()},
        };
        for (const auto &[words, background] : pairs)
            QVERIFY2(contrast(words, background) >= 4.5,
                     qPrintable(words.name() + QLatin1Char(' ') + background.name()));
    }

    // What lets a switch find a widget's colours: each shade means one thing.
    void eachShadeHasOneMeaning()
    {
        QSet<QRgb> light, dark;
        for (const Palette::Shades &s : Palette::allShades()) {
            QVERIFY2(!light.contains(s.light.rgb()), qPrintable(s.light.name()));
            QVERIFY2(!dark.contains(s.dark.rgb()), qPrintable(s.dark.name()));
            light.insert(s.light.rgb());
            dark.insert(s.dark.rgb());
        }
        QVERIFY(!light.intersects(dark));
        QCOMPARE(Palette::counterpart(QColor(0x123456), false), QColor());
    }

    void aSwitchReTintsOpenWidgets()
    {
        ui::applyTheme(Theme::Light);
        QWidget window;
        auto *byPalette = new QLabel(QStringLiteral("failed"), &window);
        ui::setTextColour(byPalette, Palette::error());
        auto *bySheet = new QLabel(QStringLiteral("connected"), &window);
        bySheet->setStyleSheet(Palette::textStyle(Palette::ok()));
        auto *rich = new QLabel(&window);
        rich->setText(QStringLiteral("<span style='color:%1'>expires soon</span>")
                          .arg(Palette::warning().name()));
        auto *quiet = new QLabel(QStringLiteral("a note"), &window);
        QPalette p = quiet->palette();
        QColor half = p.color(QPalette::WindowText);
        half.setAlpha(170);
        p.setColor(QPalette::WindowText, half);
        quiet->setPalette(p);
        auto *table = new QTableWidget(1, 1, &window);
        auto *cell = new QTableWidgetItem(QStringLiteral("missing"));
        cell->setForeground(Palette::error());
        cell->setBackground(Palette::errorTint());
        table->setItem(0, 0, cell);
        window.show();

        ui::applyTheme(Theme::Dark);
        QVERIFY(Palette::isDark());
        QCOMPARE(byPalette->palette().color(QPalette::WindowText), Palette::error());
        QVERIFY(bySheet->styleSheet().contains(Palette::ok().name()));
        QVERIFY(rich->text().contains(Palette::warning().name()));
        QCOMPARE(quiet->palette().color(QPalette::WindowText).rgb(),
                 QGuiApplication::palette().color(QPalette::WindowText).rgb());
        QCOMPARE(quiet->palette().color(QPalette::WindowText).alpha(), 170);
        QCOMPARE(cell->foreground().color(), Palette::error());
        QCOMPARE(cell->background().color(), Palette::errorTint());

        ui::applyTheme(Theme::Light); // and back
        QCOMPARE(byPalette->palette().color(QPalette::WindowText), QColor(0xc62828));
        QCOMPARE(cell->background().color(), Palette::errorTint());
        QVERIFY(bySheet->styleSheet().contains(Palette::ok().name()));
    }

    // A style sheet on a panel (bold group titles) must not pin its children to the palette
    // they were first polished with.
    void widgetsUnderAStyleSheetFollow()
    {
        ui::applyTheme(Theme::Dark);
        QWidget panel;
        ui::boldGroupTitles(&panel);
        auto *group = new QGroupBox(QStringLiteral("Server"), &panel);
        auto *label = new QLabel(QStringLiteral("Address:"), group);
        auto *status = new QLabel(QStringLiteral("failed"), group);
        ui::setTextColour(status, Palette::error());
        panel.show();
        QCOMPARE(label->palette().color(QPalette::WindowText), QColor(0xeff0f1));

        ui::applyTheme(Theme::Light);
        const QColor text = QGuiApplication::palette().color(QPalette::WindowText);
        QTRY_COMPARE(label->palette().color(QPalette::WindowText), text);
        QTRY_COMPARE(group->palette().color(QPalette::Window),
                     QGuiApplication::palette().color(QPalette::Window));
        QCOMPARE(status->palette().color(QPalette::WindowText), Palette::error());
        ui::applyTheme(Theme::Dark);
        QTRY_COMPARE(label->palette().color(QPalette::WindowText), QColor(0xeff0f1));
        QCOMPARE(status->palette().color(QPalette::WindowText), Palette::error());
    }

    void chartsTakeTheDarkThemeAndKeepMeanings()
    {
        ui::applyTheme(Theme::Light);
        auto *chart = new QChart;
        auto *bars = new QBarSeries;
        auto *set = new QBarSet(QStringLiteral("receipts"));
        *set << 3 << 4;
        set->setColor(Palette::series());
        bars->append(set);
        chart->addSeries(bars);
        auto *line = new QLineSeries;
        chart->addSeries(line);
        ui::ChartView view(chart);
        view.show();
        QCOMPARE(chart->theme(), QChart::ChartThemeLight);

        ui::applyTheme(Theme::Dark);
        QTRY_COMPARE(chart->theme(), QChart::ChartThemeDark);
        QCOMPARE(set->color(), Palette::series());
        QVERIFY(contrast(set->color(), chart->backgroundBrush().color()) >= 3);
        QVERIFY(contrast(line->color(), chart->backgroundBrush().color()) >= 3);
        QVERIFY(set->color() != line->color());

        // A picture for the readiness report is drawn light, bars in their light shade; the
        // chart on screen stays dark.
        const QColor darkSeries = set->color();
        const QImage printed = view.renderImage(QSize(300, 150), ui::ChartView::Paper::Light);
        QCOMPARE(printed.pixelColor(1, 1), QColor(Qt::white));
        bool lightBar = false;
        for (int y = 0; y < printed.height() && !lightBar; ++y)
            for (int x = 0; x < printed.width() && !lightBar; ++x)
                lightBar = printed.pixelColor(x, y) == QColor(0x1a73e8);
        QVERIFY(lightBar);
        QCOMPARE(chart->theme(), QChart::ChartThemeDark);
        QCOMPARE(set->color(), darkSeries);
        QVERIFY(view.renderImage(QSize(300, 150)).pixelColor(1, 1) != QColor(Qt::white));
        ui::LatencyChart lab; // the lab's chart, built apart from the Charts tab
        lab.show();
        auto *labView = lab.findChild<QChartView *>(QStringLiteral("labLatencyChart"));
        QCOMPARE(labView->chart()->theme(), QChart::ChartThemeDark);
        lab.clear(); // a new chart for each run and each clear
        QCOMPARE(labView->chart()->theme(), QChart::ChartThemeDark);

        ui::applyTheme(Theme::Light);
        QTRY_COMPARE(chart->theme(), QChart::ChartThemeLight);
        QTRY_COMPARE(labView->chart()->theme(), QChart::ChartThemeLight);
        QCOMPARE(set->color(), QColor(0x1a73e8));
    }

    void codeViewsFollowThePalette()
    {
        ui::applyTheme(Theme::Light);
        ui::LuaCodeView code;
        ui::CodeDiffView diff;
        code.setCode(QStringLiteral("-- a comment\nlocal s = 'x'\nreturn 1\n"));
        code.show();
        diff.show();
        QCOMPARE(code.lexer()->paper(QsciLexerLua::Keyword), QColor(Qt::white));

        ui::applyTheme(Theme::Dark);
        const QColor paper = baseColour();
        QsciLexer *lua = code.lexer();
        // Widgets hear of a new application palette on the next turn of the event loop.
        QTRY_COMPARE(lua->defaultPaper(), paper);
        QTRY_COMPARE(diff.unified()->lexer()->paper(0), paper);
        for (int style :
             {QsciLexerLua::Default, QsciLexerLua::Comment, QsciLexerLua::Keyword,
              QsciLexerLua::String, QsciLexerLua::Number, QsciLexerLua::BasicFunctions}) {
            QCOMPARE(lua->paper(style), paper);
            QVERIFY2(contrast(lua->color(style), paper) >= 4.5,
                     qPrintable(lua->description(style)));
        }
        QsciLexer *unified = diff.unified()->lexer();
        QCOMPARE(unified->paper(0), paper);
        for (int style = 0; style < 12; ++style)
            QVERIFY2(contrast(unified->color(style), paper) >= 4.5,
                     qPrintable(unified->description(style)));

        ui::applyTheme(Theme::Light); // and back: no light words left on the white paper
        QTRY_COMPARE(lua->paper(QsciLexerLua::Keyword), QColor(Qt::white));
        for (int style : {QsciLexerLua::Default, QsciLexerLua::Identifier, QsciLexerLua::Operator,
                          QsciLexerLua::Keyword, QsciLexerLua::String})
            QVERIFY2(contrast(lua->color(style), QColor(Qt::white)) >= 4.5,
                     qPrintable(lua->description(style)));
    }

    void theMenuAppliesAndRemembers()
    {
        QWidget window;
        QMenu *menu = ui::themeMenu(&window);
        auto *dark = menu->findChild<QAction *>(QStringLiteral("themeDarkAction"));
        QVERIFY(dark);
        QVERIFY(menu->findChild<QAction *>(QStringLiteral("themeSystemAction"))->isChecked());
        dark->trigger();
        QVERIFY(Palette::isDark());
        QCOMPARE(ui::savedTheme(), Theme::Dark);
        QCOMPARE(QSettings().value(QStringLiteral("view/theme")).toString(),
                 QStringLiteral("dark"));
        QMenu *other = ui::themeMenu(&window); // another window's, built before the change
        ui::saveTheme(Theme::Light);
        emit other->aboutToShow();
        QVERIFY(other->findChild<QAction *>(QStringLiteral("themeLightAction"))->isChecked());
        menu->findChild<QAction *>(QStringLiteral("themeSystemAction"))->trigger();
        QVERIFY(!Palette::isDark()); // offscreen's platform palette is a light one
        QCOMPARE(ui::savedTheme(), Theme::System);
    }
};

QTEST_MAIN(TstTheme)
#include "tst_theme.moc"
