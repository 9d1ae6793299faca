// SPDX-License-Identifier: GPL-3.0-or-later
#include "reconcile/ScannedReleaseKeys.h"

#include <QTest>

using reconcile::ScannedReleaseKeys;

// What the release keys a scan passed prove: listed keys exist, unlisted ones are absent only
// once the walk finished and only where its MATCH reached; other families are not taken.
class TstScannedReleaseKeys : public QObject
{
    Q_OBJECT

private slots:
    void listedAbsentAndUnknown()
    {
        ScannedReleaseKeys keys{inventory::KeySchema()};
        keys.note({"stock:{a}:available", "idem:{a}:o1", "rel:{a}:o1", "adj:{a}:x"});
        QCOMPARE(keys.size(), 1);
        QCOMPARE(keys.listed("rel:{a}:o1"), std::optional<bool>(true));
        // Before the walk is known to have finished, a key not listed proves nothing.
        QCOMPARE(keys.listed("rel:{a}:o2"), std::nullopt);
        keys.setWalkComplete(true);
        QCOMPARE(keys.listed("rel:{a}:o2"), std::optional<bool>(false));
        QCOMPARE(keys.listed("rel:{a}:o1"), std::optional<bool>(true));
    }

    // Stock and receipts under one prefix: the scan's MATCH is that prefix, so release keys
    // elsewhere are never walked, and nothing is concluded about them.
    void aMatchThatExcludesReleaseKeysProvesNothing()
    {
        const auto base = inventory::KeySchema::fromTemplates(
            QStringLiteral("inv:stock:{<sku>}"), QStringLiteral("inv:idem:{<sku>}:<order>"));
        QVERIFY(base.ok());
        const auto outside = base.value().withRepairTemplates(QStringLiteral("rel:{<sku>}:<order>"),
                                                              QStringLiteral("adj:{<sku>}:<id>"));
        QVERIFY(outside.ok());
        ScannedReleaseKeys keys{outside.value()};
        keys.setWalkComplete(true);
        QCOMPARE(keys.listed("rel:{a}:o1"), std::nullopt);

        const auto inside = base.value().withRepairTemplates(
            QStringLiteral("inv:rel:{<sku>}:<order>"), QStringLiteral("inv:adj:{<sku>}:<id>"));
        QVERIFY(inside.ok());
        ScannedReleaseKeys walked{inside.value()};
        walked.note({"inv:rel:{a}:o1"});
        walked.setWalkComplete(true);
        QCOMPARE(walked.listed("inv:rel:{a}:o1"), std::optional<bool>(true));
        QCOMPARE(walked.listed("inv:rel:{a}:o2"), std::optional<bool>(false));
    }
};

QTEST_GUILESS_MAIN(TstScannedReleaseKeys)
#include "tst_scanned_release_keys.moc"
