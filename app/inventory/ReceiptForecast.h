// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ReceiptCheck.h"

#include <QString>

namespace inventory {

// What the receipt read just before a Function-mode call says that call will do.
// inventory_deduct_v1 reads the order's receipt before the stock, so a receipt already there
// decides the answer in advance; the confirmation says so before anything is sent.
struct ReceiptForecast
{
    enum class Kind {
        Unread,  // the read failed or was refused: nothing is known, not even "none"
        None,    // read, and there is no receipt: the stock decides
        Answers, // a v1 receipt: the call answers "already applied" and deducts nothing
        Refuses, // a receipt v1 cannot read (a v2 hash, an anomaly): an error, nothing deducted
    };
    Kind kind = Kind::Unread;
    QString text; // one sentence with what it rests on (when and how it was read)
};

// From checkReceipt()'s status of the plan's receipt key, for order `orderId`.
ReceiptForecast receiptForecast(const ReceiptStatus &status, const QByteArray &orderId);

} // namespace inventory
