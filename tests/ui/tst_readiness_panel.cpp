// SPDX-License-Identifier: GPL-3.0-or-later
// The Readiness tab (issue 15) against a real server: it lists every finding with its verdict
// and why sentence, and its Markdown and HTML exports hold every finding.
#include "ServerTest.h"
#include "browse/InventoryScan.h"
#include "ui/readiness/FindingsModel.h"
#include "ui/readiness/ReadinessPanel.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using readiness::Verdict;

class TstReadinessPanel : public testsupport::ServerTest
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCOMPARE(startServer(QStringLiteral("inventory_lib_v1.lua")), QString());
        QVERIFY(m_c->call({"SET", "stock:{sku-1}:available", "-2"}).ok());
        QVERIFY(m_c->call({"SET", "idem:{sku-1}:o-1", "5", "EX", "3600"}).ok());
    }

    void listsFindingsAndExportsThem()
    {
        browse::InventoryScan scan(*m_c, inventory::KeySchema{});
        ui::ReadinessContext context{
            m_c->address(), QStringLiteral("default"), QStringLiteral("local"), {}};
        ui::ReadinessPanel panel(*m_c, scan, context);
        QAbstractItemModelTester tester(panel.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy checked(&panel, &ui::ReadinessPanel::checked);
        panel.setNote(QStringLiteral("Demo note for the ticket."));
        // Shown for the first time, it scans the keys (nothing was scanned) and checks.
        panel.resize(1200, 700);
        panel.show();
        QVERIFY(checked.wait(20000));
        QVERIFY(scan.isComplete());

        const ui::FindingsModel *model = panel.model();
        QCOMPARE(model->rowCount(), readiness::rules().size());
        auto row = [&](const QString &id) {
            for (int r = 0; r < model->rowCount(); ++r)
                if (model->findings()[r].id == id)
                    return r;
            return -1;
        };
        const int stock = row(QStringLiteral("stock-values"));
        QVERIFY(stock >= 0);
        QCOMPARE(model->index(stock, ui::FindingsModel::VerdictColumn).data().toString(),
                 QStringLiteral("FAIL"));
        QCOMPARE(model->index(stock, ui::FindingsModel::VerdictColumn)
                     .data(ui::FindingsModel::VerdictRole)
                     .toInt(),
                 int(Verdict::Fail));
        // The why sentence is a column of its own, not a tooltip.
        QVERIFY(model->index(stock, ui::FindingsModel::WhyColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("stock:{sku-1}:available")));
        QCOMPARE(
            model->index(row(QStringLiteral("eviction-policy")), ui::FindingsModel::VerdictColumn)
                .data()
                .toString(),
            QStringLiteral("PASS"));
        const auto *headline = panel.findChild<QLabel *>(QStringLiteral("readinessHeadline"));
        QVERIFY(headline->text().startsWith(QStringLiteral("Not ready")));

        // Re-check reads the server again: a fixed policy turns the finding red.
        QVERIFY(m_c->call({"CONFIG", "SET", "maxmemory-policy", "allkeys-lru"}).ok());
        panel.findChild<QPushButton *>(QStringLiteral("readinessRecheck"))->click();
        QVERIFY(checked.wait(20000));
        QCOMPARE(
            model->index(row(QStringLiteral("eviction-policy")), ui::FindingsModel::VerdictColumn)
                .data()
                .toString(),
            QStringLiteral("FAIL"));
        QVERIFY(m_c->call({"CONFIG", "SET", "maxmemory-policy", "noeviction"}).ok());

        QTemporaryDir dir;
        const QString md = dir.filePath(QStringLiteral("r.md"));
        const QString html = dir.filePath(QStringLiteral("r.html"));
        // A chart at integration time arrives through the image source.
        QImage chart(40, 20, QImage::Format_RGB32);
        chart.fill(Qt::blue);
        panel.setImageSource([chart] { return QList<QPair<QString, QImage>>{{"Memory", chart}}; });
        QCOMPARE(panel.exportTo(md).english, QString());
        QCOMPARE(panel.exportTo(html).english, QString());
        QFile m(md), h(html);
        QVERIFY(m.open(QIODevice::ReadOnly) && h.open(QIODevice::ReadOnly));
        const QString mdText = QString::fromUtf8(m.readAll());
        const QString htmlText = QString::fromUtf8(h.readAll());
        for (const readiness::Finding &f : model->findings()) {
            QVERIFY2(mdText.contains(f.title), qPrintable(f.title));
            QVERIFY2(htmlText.contains(f.title.toHtmlEscaped()), qPrintable(f.title));
            QVERIFY2(htmlText.contains(f.why.toHtmlEscaped()), qPrintable(f.why));
        }
        QVERIFY(mdText.contains(QStringLiteral("Demo note for the ticket.")));
        QVERIFY(mdText.contains(QStringLiteral("![Memory](r-images/1.png)")));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("r-images/1.png"))));
        QVERIFY(htmlText.contains(QStringLiteral("src=\"data:image/png;base64,")));
        QVERIFY(!htmlText.contains(QStringLiteral("src=\"http")));
    }
};

QTEST_MAIN(TstReadinessPanel)
#include "tst_readiness_panel.moc"
