// SPDX-License-Identifier: GPL-3.0-or-later
// Key names from SCAN into the browser's zero-copy KeyParser, under templates a user may
// configure. Input: "<stock template>\n<receipt template>\n<sku>\n<order>" (missing lines
// take the defaults). Rules held:
// - KeyParser and KeySchema (the copying parser the rest of the console uses) agree on every
//   key, the SKU and order fields taken as keys included;
// - a SKU the schema accepts, with any order id, makes keys that parse back to exactly that
//   SKU and order: two (SKU, order) pairs never share a receipt (issue 14, finding 5).

#include "FuzzSupport.h"
#include "browse/KeyParser.h"
#include "inventory/KeySchema.h"

#include <QList>

#include <cstdint>

using browse::KeyParser;
using inventory::KeySchema;

namespace {

void agree(const KeySchema &schema, const KeyParser &parser, const QByteArray &key)
{
    const auto sku = schema.skuOfStockKey(key);
    const auto span = parser.stockSku(key);
    FUZZ_CHECK(sku.has_value() == span.has_value());
    if (sku)
        FUZZ_CHECK(span->in(key) == *sku);
    const auto receipt = schema.parseReceiptKey(key);
    const auto spans = parser.receipt(key);
    FUZZ_CHECK(receipt.has_value() == spans.has_value());
    if (receipt) {
        FUZZ_CHECK(spans->sku.in(key) == receipt->sku);
        FUZZ_CHECK(spans->order.in(key) == receipt->orderId);
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray in(reinterpret_cast<const char *>(data), qsizetype(size));
    QList<QByteArray> f = in.split('\n');
    if (f.size() > 4) // the order id is the rest, newlines included
        f = f.mid(0, 3) << in.mid(f[0].size() + f[1].size() + f[2].size() + 3);
    while (f.size() < 4)
        f << QByteArray();
    const QString stockTemplate = f[0].isEmpty()
                                      ? QString::fromLatin1(KeySchema::DefaultStockTemplate)
                                      : QString::fromUtf8(f[0]);
    const QString receiptTemplate = f[1].isEmpty()
                                        ? QString::fromLatin1(KeySchema::DefaultReceiptTemplate)
                                        : QString::fromUtf8(f[1]);
    const auto schema = KeySchema::fromTemplates(stockTemplate, receiptTemplate);
    if (!schema.ok())
        return 0;
    const KeySchema &s = schema.value();
    const KeyParser parser(s);
    const QByteArray &sku = f[2], &order = f[3];
    agree(s, parser, sku);
    agree(s, parser, order);

    if (sku.isEmpty() || order.isEmpty() || s.skuProblem(sku))
        return 0;
    const QByteArray stockKey = s.stockKey(sku), receiptKey = s.receiptKey(sku, order);
    agree(s, parser, stockKey);
    agree(s, parser, receiptKey);
    FUZZ_CHECK(s.skuOfStockKey(stockKey) == sku);
    const auto back = s.parseReceiptKey(receiptKey);
    FUZZ_CHECK(back.has_value());
    FUZZ_CHECK(back->sku == sku);
    FUZZ_CHECK(back->orderId == order);
    return 0;
}
