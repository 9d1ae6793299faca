// SPDX-License-Identifier: GPL-3.0-or-later
// The key browser's SKU filter says why a glob that cannot mean what was typed shows nothing
// (issue 14: an invalid glob gave 0 rows silently), as `inventory-cli keys --sku` does.
#include "RedisFixture.h"
#include "browse/InventoryScan.h"
#include "inventory/KeySchema.h"
#include "ui/browse/SkuBrowserView.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

class TstSkuFilterGlob : public QObject
{
    Q_OBJECT

private slots:
    void statusNamesTheProblem()
    {
        testsupport::StandaloneRedis redis;
        QVERIFY2(redis.start(), qPrintable(redis.errorString()));
        const auto client = redis.connect();
        browse::InventoryScan scan(*client, inventory::KeySchema());
        ui::SkuBrowserView view(scan);
        view.resize(1000, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy status(&view, &ui::SkuBrowserView::status);
        auto *filter = view.findChild<QLineEdit *>(QStringLiteral("skuFilter"));
        QVERIFY(filter);
        QTest::keyClicks(filter, QStringLiteral("sku-[12"));
        QTRY_VERIFY(!status.isEmpty());
        QVERIFY2(status.last().first().toString().contains(
                     QLatin1String("the '[' at position 5 is never closed")),
                 qPrintable(status.last().first().toString()));
        status.clear();
        QTest::keyClicks(filter, QStringLiteral("]"));
        QTRY_VERIFY(!status.isEmpty());
        QCOMPARE(status.last().first().toString(), QStringLiteral("0 SKUs shown"));
    }
};

QTEST_MAIN(TstSkuFilterGlob)
#include "tst_sku_filter_glob.moc"
