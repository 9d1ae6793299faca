// SPDX-License-Identifier: GPL-3.0-or-later
// screenshot_tour OUT_DIR: the console on its embedded demo, offscreen at 1366x768, one PNG per
// main tab (docs/images/), then a few of them again in the dark theme. scripts/screenshots runs it
// under tests/support/run-isolated, so the demo's redis-server and everything the window reads stay
// on loopback.
//
// It drives the real window the way a user would (seeded demo, a scan, three deductions) and
// waits for each view's data before it grabs it: no fixed sleeps, a condition per picture.
#include "demo/DemoServer.h"
#include "ui/ConsoleController.h"
#include "ui/MainWindow.h"
#include "ui/browse/BrowserPanel.h"
#include "ui/browse/SkuBrowserView.h"
#include "ui/common/LuaCodeView.h"
#include "ui/common/Theme.h"
#include "ui/deduct/ConfirmDeductionDialog.h"
#include "ui/deduct/DeductionPanel.h"
#include "ui/deduct/ResultCard.h"
#include "ui/functions/ContractPage.h"
#include "ui/functions/LibrariesView.h"
#include "ui/functions/LoadWizard.h"
#include "ui/readiness/ReadinessPanel.h"

#include <Qsci/qscilexer.h>

#include <QAbstractItemModel>
#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <cstdio>
#include <functional>

namespace {

QString g_outDir;

[[noreturn]] void fail(const QString &why)
{
    std::fprintf(stderr, "screenshot_tour: %s\n", qPrintable(why));
    std::exit(1);
}

// Runs the event loop until `condition` holds, or fails naming what never came.
void waitFor(const char *what, const std::function<bool()> &condition, int timeoutMs = 60000)
{
    if (!QTest::qWaitFor(condition, timeoutMs))
        fail(QStringLiteral("gave up waiting for %1 after %2 s")
                 .arg(QLatin1String(what))
                 .arg(timeoutMs / 1000));
}

QString labelText(QWidget *root, const char *name)
{
    auto *l = root->findChild<QLabel *>(QLatin1String(name));
    return l ? l->text() : QString();
}

void save(QWidget *widget, const QString &name)
{
    // Let pending layouts and paints settle (posted events only, no waiting).
    QCoreApplication::processEvents();
    const QString path = QDir(g_outDir).filePath(name + QStringLiteral(".png"));
    if (!widget->grab().save(path, "PNG", 9))
        fail(QStringLiteral("could not write %1").arg(path));
    std::printf("%s\n", qPrintable(path));
}

// One deduction through the form and its confirmation, as a user runs it. `grabAs` non-empty:
// the confirmation dialog is saved under that name before Run is pressed.
void deduct(ui::DeductionPanel *panel, const QString &sku, const QString &order,
            const QString &quantity, const QString &grabAs = {})
{
    panel->prefill(sku, order);
    auto *q = panel->findChild<QLineEdit *>(QStringLiteral("quantity"));
    if (!q)
        fail(QStringLiteral("the deduction form has no quantity field"));
    q->setText(quantity);
    const int before = panel->resultCard()->entryId();
    panel->runFromForm();
    waitFor("the deduction's confirmation", [&] {
        return panel->pendingConfirmation() && panel->pendingConfirmation()->isVisible();
    });
    ui::ConfirmDeductionDialog *dialog = panel->pendingConfirmation();
    // The dialog reads the stock and the receipt for itself before Run is offered.
    waitFor("the confirmation's reads", [&] {
        for (const char *name : {"currentStock", "receiptNow"}) {
            auto *l = dialog->findChild<QLabel *>(QLatin1String(name));
            if (l && l->text().startsWith(QStringLiteral("reading")))
                return false;
        }
        return dialog->runButton()->isEnabled();
    });
    if (!grabAs.isEmpty())
        save(dialog, grabAs);
    dialog->runButton()->click();
    waitFor("the deduction's outcome", [&] {
        return !panel->isRunning() && !panel->pendingConfirmation()
               && panel->resultCard()->entryId() != before;
    });
}

// The same window in the dark theme, switched to at run time as View > Theme > Dark does
// (docs/images/dark-*.png): the Overview, the Deductions tab with its result card and
// history, the Outcomes chart, the Libraries tab's Lua code.
void darkTour(ui::MainWindow *window)
{
    ui::applyTheme(ui::Theme::Dark);
    auto *code = window->findChild<ui::LuaCodeView *>();
    waitFor("the code view in the dark palette", [&] {
        return code
               && code->lexer()->defaultPaper() == QGuiApplication::palette().color(QPalette::Base);
    });
    const std::pair<const char *, const char *> shots[] = {
        {"overview", "dark-overview"},
        {"deductions", "dark-deductions"},
        {"charts/outcomes", "dark-charts"},
    };
    for (const auto &[tab, name] : shots) {
        if (!window->showTab(QLatin1String(tab)))
            fail(QStringLiteral("no tab %1").arg(QLatin1String(tab)));
        save(window, QLatin1String(name));
    }
    // The Libraries tab may be reading again (its footer says so): a read of its own, awaited.
    auto *view = window->findChild<ui::LibrariesView *>();
    bool refreshed = false;
    QObject::connect(view, &ui::LibrariesView::refreshed, [&] { refreshed = true; });
    window->showTab(QStringLiteral("libraries"));
    view->refresh();
    waitFor("the libraries, read again", [&] { return refreshed; });
    save(window, QStringLiteral("dark-libraries"));
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("inventory-console"));
    QApplication::setOrganizationName(QStringLiteral("InventoryConsole"));
    QApplication::setStyle(QStringLiteral("Fusion"));
    if (QGuiApplication::platformName() != QLatin1String("offscreen"))
        fail(QStringLiteral("run with QT_QPA_PLATFORM=offscreen (scripts/screenshots does)"));
    const QStringList args = QCoreApplication::arguments();
    if (args.size() != 2)
        fail(QStringLiteral("usage: screenshot_tour OUT_DIR"));
    g_outDir = args.at(1);
    if (!QDir().mkpath(g_outDir))
        fail(QStringLiteral("cannot create %1").arg(g_outDir));

    // The demo exactly as `inventory-console --demo` starts it, its state file in a temp dir.
    QTemporaryDir stateDir;
    demo::DemoServer demoServer;
    demo::DemoServer::Options options;
    options.stateDir = stateDir.path();
    if (!demoServer.start(options))
        fail(demoServer.error().english);
    profiles::ConnectionProfile profile;
    profile.name = QStringLiteral("demo");
    profile.host = demoServer.connectionOptions().host;
    profile.port = demoServer.connectionOptions().port;
    profile.environment = QStringLiteral("local");

    {
        ui::ConsoleController controller;
        ui::MainWindow *window = controller.openSession(profile, {}, {}, demoServer.pid());
        window->resize(1366, 768);
        window->seedDemo();

        // Overview: connected, seeded, the overview and the libraries read after the seed.
        waitFor("the demo data",
                [&] { return labelText(window, "demoSummary").contains(QStringLiteral("SKUs")); });
        auto *libraries = window->findChild<QTableView *>(QStringLiteral("librariesTable"));
        waitFor("the overview after the seed", [&] {
            return labelText(window, "keyCountValue").remove(QLatin1Char(',')).toInt() > 240
                   && libraries && libraries->model()->rowCount() > 0;
        });
        save(window, QStringLiteral("overview"));

        // Keys: the first scan runs when the tab is first shown; then one SKU selected.
        auto *browser = window->findChild<ui::BrowserPanel *>();
        bool scanned = false;
        QObject::connect(browser, &ui::BrowserPanel::scanFinished,
                         [&](bool complete) { scanned = scanned || complete; });
        window->showTab(QStringLiteral("keys"));
        waitFor("the key scan", [&] { return scanned; });
        QTableView *skuTable = browser->skuView()->skuTable();
        waitFor("the SKU table", [&] { return skuTable && skuTable->model()->rowCount() >= 240; });
        // A SKU with stock and many receipts, not the anomalies sorted first.
        const QModelIndexList sku1001 =
            skuTable->model()->match(skuTable->model()->index(0, 0), Qt::DisplayRole,
                                     QStringLiteral("sku-1001"), 1, Qt::MatchExactly);
        if (sku1001.isEmpty())
            fail(QStringLiteral("the demo has no sku-1001"));
        skuTable->selectRow(sku1001.first().row());
        waitFor("the selected SKU's receipts",
                [&] { return !labelText(browser->skuView(), "receiptsTitle").isEmpty(); });
        save(window, QStringLiteral("keys"));

        // Deductions: a new order, one the stock cannot cover, then the first order again,
        // which its receipt answers ("already applied"); its confirmation is grabbed too.
        auto *panel = window->findChild<ui::DeductionPanel *>();
        window->showTab(QStringLiteral("deductions"));
        deduct(panel, QStringLiteral("sku-1001"), QStringLiteral("20001"), QStringLiteral("2"));
        deduct(panel, QStringLiteral("sku-1002"), QStringLiteral("20002"),
               QStringLiteral("1000000"));
        deduct(panel, QStringLiteral("sku-1001"), QStringLiteral("20001"), QStringLiteral("2"),
               QStringLiteral("confirm-deduction"));
        // The history gets a quarter of the height by default, two rows at 768 px: drag the
        // splitter as a user would, so that the three deductions show.
        for (auto *split : panel->findChildren<QSplitter *>()) {
            if (split->orientation() != Qt::Vertical || split->count() != 2)
                continue;
            const int total = split->sizes().value(0) + split->sizes().value(1);
            split->setSizes({total - 170, 170});
        }
        save(window, QStringLiteral("deductions"));

        // Libraries: what is loaded, against the shipped files; the library selected.
        auto *view = window->findChild<ui::LibrariesView *>();
        bool refreshed = false;
        QObject::connect(view, &ui::LibrariesView::refreshed, [&] { refreshed = true; });
        window->showTab(QStringLiteral("libraries"));
        waitFor("the libraries",
                [&] { return refreshed && view->tree()->topLevelItemCount() > 0; });
        view->tree()->setCurrentItem(view->tree()->topLevelItem(0));
        save(window, QStringLiteral("libraries"));

        // The guarded load: "Preview upgrade…" opens the wizard on the shipped 1.3.0 against the
        // demo's 1.0.0. Its contract and code diffs are grabbed; then it is cancelled, so
        // nothing is loaded.
        QPushButton *preview = nullptr;
        for (auto *b : view->findChildren<QPushButton *>())
            if (b->text().startsWith(QStringLiteral("Preview upgrade")) && b->isVisible())
                preview = b;
        if (!preview)
            fail(QStringLiteral("no \"Preview upgrade\" button on the Libraries tab"));
        bool inspected = false;
        QObject::connect(view, &ui::LibrariesView::loadInspected, [&] { inspected = true; });
        preview->click();
        waitFor("the upgrade's inspection", [&] { return inspected; });
        ui::LoadWizard *wizard = nullptr;
        waitFor("the load wizard", [&] {
            for (QWidget *w : QApplication::topLevelWidgets())
                if (auto *lw = qobject_cast<ui::LoadWizard *>(w); lw && lw->isVisible())
                    wizard = lw;
            return wizard != nullptr;
        });
        waitFor("the contract diff", [&] { return wizard->contractPage()->isComplete(); });
        save(wizard, QStringLiteral("load-contract"));
        wizard->next();
        waitFor("the code diff", [&] { return wizard->currentId() == ui::LoadWizard::Diff; });
        save(wizard, QStringLiteral("load-diff"));
        wizard->reject();

        // Readiness: every rule checked against the demo (which fails several on purpose).
        auto *readiness = window->findChild<ui::ReadinessPanel *>();
        bool checked = false;
        QObject::connect(readiness, &ui::ReadinessPanel::checked, [&] { checked = true; });
        window->showTab(QStringLiteral("readiness"));
        waitFor("the readiness audit", [&] { return checked && !readiness->isChecking(); });
        save(window, QStringLiteral("readiness"));

        darkTour(window);
        window->close();
    }
    return 0;
}
