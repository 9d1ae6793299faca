#pragma once

#include "KeyspaceStore.h"

#include <QString>

namespace browse {

// What a support person needs to hear about one receipt of an order, e.g. "Deducted: 3 left
// after this order. Receipt expires in 6 d 23 h (2024-06-08 14:03:22 +02:00); a retry before
// then returns the first result, after that it would deduct again. Stock now: 40."
QString orderSentence(const KeyspaceStore &store, uint32_t receipt, qint64 nowMs);

// When no SKU holds a receipt for the order.
QString orderNotFoundSentence(const QByteArray &orderId);

} // namespace browse
