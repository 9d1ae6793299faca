// SPDX-License-Identifier: GPL-3.0-or-later
#include "DemoPlan.h"

#include <QCoreApplication>
#include <QRandomGenerator>

#include <algorithm>

namespace demo {

namespace {

// What the Overview tab shows of the planted anomalies is translated there (the plan is built
// when the demo starts, after the window installed its translator).
struct DemoPlanText
{
    Q_DECLARE_TR_FUNCTIONS(demo::DemoPlan)
};

// SKUs the anomalies land on (indexes into the catalogue), and the discontinued one.
constexpr int kPersistedReceiptSku = 2; // sku-1003
constexpr int kExpiringReceiptSku = 4;  // sku-1005
constexpr int kNonCanonicalSku = 12;    // sku-1013
constexpr int kNegativeSku = 26;        // sku-1027
constexpr int kStockTtlSku = 41;        // sku-1042
constexpr int kMinimumSkus = kStockTtlSku + 1;
const QByteArray kDiscontinuedSku = "sku-0999";

constexpr qint64 kExpiringReceiptTtl = 90;
constexpr qint64 kStockTtl = 6 * 3600;
constexpr qint64 kMinimumReceiptTtl = 240;

int initialStock(QRandomGenerator &gen)
{
    const int r = int(gen.bounded(100));
    if (r < 6)
        return 0; // sold out: orders for it come back {0, 0}
    if (r < 16)
        return 1000 + int(gen.bounded(4001));
    return 5 + int(gen.bounded(396));
}

int orderQuantity(QRandomGenerator &gen)
{
    const int r = int(gen.bounded(100));
    if (r < 60)
        return 1;
    if (r < 80)
        return 2;
    if (r < 95)
        return 3 + int(gen.bounded(3));
    return 10 + int(gen.bounded(11)); // a bulk order
}

} // namespace

QString anomalyKindName(Anomaly::Kind kind)
{
    switch (kind) {
    case Anomaly::Kind::NonCanonicalStock:
        return DemoPlanText::tr("stock not a canonical integer");
    case Anomaly::Kind::NegativeStock:
        return DemoPlanText::tr("negative stock");
    case Anomaly::Kind::StockWithTtl:
        return DemoPlanText::tr("stock key with a TTL");
    case Anomaly::Kind::ReceiptAboutToExpire:
        return DemoPlanText::tr("receipt about to expire");
    case Anomaly::Kind::ReceiptWithoutStock:
        return DemoPlanText::tr("receipt without stock key");
    case Anomaly::Kind::ReceiptWithoutTtl:
        return DemoPlanText::tr("receipt without TTL");
    }
    return {};
}

QByteArray skuId(int index)
{
    return "sku-" + QByteArray::number(1001 + index);
}

QByteArray stockKey(const QByteArray &sku)
{
    return "stock:{" + sku + "}:available";
}

QByteArray receiptKey(const QByteArray &sku, qint64 orderId)
{
    return "idem:{" + sku + "}:" + QByteArray::number(orderId);
}

redis::Command deductCommand(const QByteArray &sku, qint64 orderId, int quantity, qint64 ttlSeconds)
{
    return {"FCALL",
            "inventory_deduct_v1",
            "2",
            stockKey(sku),
            receiptKey(sku, orderId),
            QByteArray::number(quantity),
            QByteArray::number(ttlSeconds)};
}

SeedPlan buildSeedPlan(const SeedOptions &options)
{
    QRandomGenerator gen(options.randomSeed);
    const int skuCount = std::max(options.skuCount, kMinimumSkus);
    const qint64 window = std::max<qint64>(options.receiptWindowSeconds, 3600);
    SeedPlan plan;

    for (int i = 0; i < skuCount; ++i) {
        int stock = initialStock(gen);
        if (i == kPersistedReceiptSku || i == kExpiringReceiptSku)
            stock = std::max(stock, 100); // their planted orders must succeed
        plan.stock << redis::Command{"SET", stockKey(skuId(i)), QByteArray::number(stock)};
    }
    plan.stock << redis::Command{"SET", stockKey(kDiscontinuedSku), "40"};

    // The planted orders go first, while their SKUs certainly have stock.
    qint64 nextAnomalyOrder = options.firstOrderId + options.orderCount;
    const qint64 persistedOrder = nextAnomalyOrder++;
    const qint64 expiringOrder = nextAnomalyOrder++;
    const qint64 discontinuedOrder = nextAnomalyOrder++;
    plan.orders << deductCommand(skuId(kPersistedReceiptSku), persistedOrder, 2, window / 2)
                << deductCommand(skuId(kExpiringReceiptSku), expiringOrder, 1, kExpiringReceiptTtl)
                << deductCommand(kDiscontinuedSku, discontinuedOrder, 3, window - 7200);

    // Past orders, oldest first: an order placed t seconds ago keeps window - t of its TTL,
    // so the oldest receipts have minutes left and the newest almost the whole window.
    const qint64 step = window / (options.orderCount + 1);
    for (int i = 0; i < options.orderCount; ++i) {
        const double u = gen.generateDouble();
        const int sku = std::min(int(u * u * skuCount), skuCount - 1); // a few SKUs sell most
        const qint64 jitter = step > 2 ? qint64(gen.bounded(int(step / 2))) : 0;
        const qint64 ttl = std::max(kMinimumReceiptTtl, step * (i + 1) - jitter);
        const auto command =
            deductCommand(skuId(sku), options.firstOrderId + i, orderQuantity(gen), ttl);
        plan.orders << command;
        if (gen.bounded(100) < 3) { // the client timed out and retried: a duplicate
            plan.orders << command;
            ++plan.retries;
        }
    }

    const auto plant = [&](Anomaly::Kind kind, const QByteArray &key, const QString &text) {
        plan.planted << Anomaly{kind, key, text};
    };
    const QByteArray persisted = receiptKey(skuId(kPersistedReceiptSku), persistedOrder);
    plan.anomalies << redis::Command{"PERSIST", persisted};
    plant(Anomaly::Kind::ReceiptWithoutTtl, persisted,
          DemoPlanText::tr("PERSIST removed its TTL: it never expires and receipts pile up"));

    plant(Anomaly::Kind::ReceiptAboutToExpire,
          receiptKey(skuId(kExpiringReceiptSku), expiringOrder),
          DemoPlanText::tr("expires %1 s after seeding; a retry after that deducts again")
              .arg(kExpiringReceiptTtl));

    plan.anomalies << redis::Command{"DEL", stockKey(kDiscontinuedSku)};
    plant(Anomaly::Kind::ReceiptWithoutStock, receiptKey(kDiscontinuedSku, discontinuedOrder),
          DemoPlanText::tr("SKU discontinued: its stock key was deleted after the order"));

    const QByteArray nonCanonical = stockKey(skuId(kNonCanonicalSku));
    plan.anomalies << redis::Command{"SET", nonCanonical, "12.5"};
    plant(Anomaly::Kind::NonCanonicalStock, nonCanonical,
          DemoPlanText::tr("\"12.5\" is not a canonical integer: every FCALL fails with "
                           "ERR invalid stock"));

    const QByteArray negative = stockKey(skuId(kNegativeSku));
    plan.anomalies << redis::Command{"SET", negative, "-3"};
    plant(Anomaly::Kind::NegativeStock, negative,
          DemoPlanText::tr("\"-3\" written by hand: oversold, and FCALL refuses it"));

    const QByteArray expiringStock = stockKey(skuId(kStockTtlSku));
    plan.anomalies << redis::Command{"EXPIRE", expiringStock, QByteArray::number(kStockTtl)};
    plant(Anomaly::Kind::StockWithTtl, expiringStock,
          DemoPlanText::tr("has a %1 h TTL: when it expires, deductions return {-2, 0}")
              .arg(kStockTtl / 3600));
    return plan;
}

} // namespace demo
