// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "inventory/KeySchema.h"

#include <QByteArrayView>
#include <optional>

namespace browse {

// KeySchema's key parsing without copies: the SKU and order id come back as positions in
// the key, so a million keys cost no allocations. Same rules as KeySchema::skuOfStockKey and
// parseReceiptKey (the SKU ends at the first separator); a test holds the two together.
class KeyParser
{
public:
    explicit KeyParser(const inventory::KeySchema &schema);

    struct Span
    {
        qsizetype pos = 0, len = 0;
        QByteArrayView in(QByteArrayView key) const { return key.sliced(pos, len); }
    };
    struct Receipt
    {
        Span sku, order;
    };
    std::optional<Span> stockSku(QByteArrayView key) const;
    std::optional<Receipt> receipt(QByteArrayView key) const;

private:
    QByteArray m_stockPrefix, m_stockSuffix;
    QByteArray m_receiptPrefix, m_receiptMiddle, m_receiptSuffix;
};

} // namespace browse
