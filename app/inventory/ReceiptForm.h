// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <optional>

namespace inventory {

// What the deduction functions of functions/inventory_lib_v1.lua make of the key at an order's
// receipt name, and so what a retry of that order does. `order`, the key browser and
// `deduct --check` explain a receipt from this one judgement.
enum class ReceiptForm {
    Missing, // no key: a retry deducts
    String,  // what v1 writes: v1 and v2 answer "already applied" with the text it holds
    Hash,    // what v2 writes (canonical remaining and quantity): v2 answers "already applied"
             // (or a quantity conflict); v1 refuses it with WRONGTYPE
    Invalid, // any other type, or a hash without a valid remaining and quantity: v1 answers
             // WRONGTYPE, v2 "ERR invalid receipt", and neither writes anything
};

// From TYPE's answer and, for a hash, its "remaining" and "quantity" fields (nullopt: absent).
ReceiptForm receiptForm(QByteArrayView type, const std::optional<QByteArray> &remaining = {},
                        const std::optional<QByteArray> &quantity = {});

// For an Invalid receipt of that TYPE: that it is an anomaly, that the order's deduction cannot
// be read from it, and what a retry does.
QString invalidReceiptSentence(QByteArrayView type);

// What a retry does once an Invalid receipt expires, or that it never does (expiresIn empty:
// no TTL).
QString invalidReceiptWindow(const QString &expiresIn);

} // namespace inventory
