// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QStringList>

namespace inventory {

// What the last key scan knows about SKUs, read-only: the deduction form suggests existing SKUs
// when a stock key is missing, and the confirmation names a SKU's known anomalies. The browse
// module implements it over its store; the deduction views only see this interface.
class SkuDirectory
{
public:
    virtual ~SkuDirectory() = default;

    // False until a scan has filled the store: "missing" then means "not seen yet".
    virtual bool hasScan() const = 0;
    // The last scan saw this SKU's stock key.
    virtual bool hasStock(QByteArrayView sku) const = 0;
    // Up to `count` SKUs with a stock key, nearest to `sku` first (see skuDistance).
    virtual QList<QByteArray> nearest(QByteArrayView sku, int count) const = 0;
    // The anomalies the scan flagged on this SKU's stock key and receipts, in words.
    virtual QStringList anomalies(QByteArrayView sku) const = 0;
};

// How far a typed SKU is from an existing one: the edit distance (case-insensitive), except
// that a name holding the typed text is nearer than any name that does not ("1001" finds
// "sku-1001" before "1002").
int skuDistance(QByteArrayView typed, QByteArrayView candidate);

} // namespace inventory
