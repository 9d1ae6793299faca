// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "redis/RespCodec.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace demo {

// What the demo database holds. The numbers are deterministic for a given seed, so a
// screenshot, a test and a support walkthrough all see the same SKUs and orders.
struct SeedOptions
{
    int skuCount = 240;   // stock:{sku-1001}:available ... sku-(1000+skuCount)
    int orderCount = 640; // past orders deducted through FCALL, ids from firstOrderId
    qint64 firstOrderId = 9001;
    quint32 randomSeed = 20240601;
    qint64 receiptWindowSeconds = 7 * 24 * 3600; // a receipt protects its order this long
};

// Something wrong the demo plants on purpose, so the console has something to find.
struct Anomaly
{
    enum class Kind {
        NonCanonicalStock,    // "12.5": FCALL refuses it with ERR invalid stock
        NegativeStock,        // "-3": someone wrote it by hand
        StockWithTtl,         // stock must never expire
        ReceiptAboutToExpire, // a retry after it expires would deduct again
        ReceiptWithoutStock,  // the SKU's stock key was deleted after the order
        ReceiptWithoutTtl,    // PERSISTed: never expires, memory grows forever
    };
    Kind kind;
    QByteArray key;
    QString description;
};

QString anomalyKindName(Anomaly::Kind kind);

// The commands of each round trip after the library load. Built without a connection, so the
// plan itself is testable and the seeder only sends it.
struct SeedPlan
{
    QList<redis::Command> stock;     // SET every stock key (canonical integers, no TTL)
    QList<redis::Command> orders;    // FCALL inventory_deduct_v1 per order, retries included
    QList<redis::Command> anomalies; // the damage, applied after the orders ran
    QList<Anomaly> planted;
    int retries = 0; // FCALLs that repeat an earlier order id
};

SeedPlan buildSeedPlan(const SeedOptions &options);

QByteArray skuId(int index); // 0 -> "sku-1001"
QByteArray stockKey(const QByteArray &sku);
QByteArray receiptKey(const QByteArray &sku, qint64 orderId);
redis::Command deductCommand(const QByteArray &sku, qint64 orderId, int quantity,
                             qint64 ttlSeconds);

} // namespace demo
