// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <cstdint>

namespace reconcile {

// What the comparison of one order line (or one receipt) with the ledger found.
enum class FindingClass : uint8_t {
    InLine,           // a committed order with its receipt, the same quantity where recorded
    ReleaseCandidate, // a receipt whose order failed, was cancelled, or is absent (after grace)
    MissingReceipt,   // a committed order with no receipt: a retry would deduct again
    QuantityDiffers,  // a v2 receipt recorded another quantity than the ledger committed
    Released,         // the release key exists: the deduction was given back already
};
constexpr int FindingClasses = 5;

QString className(FindingClass c);  // "in_line", ... as --raw prints it
QString classTitle(FindingClass c); // "In line", "Release candidates", ...

struct Finding
{
    QByteArray orderId, sku;
    qint64 quantity = 0; // the units the finding is about; 0: not known (a v1 receipt alone)
    FindingClass cls = FindingClass::InLine;
    // Needs someone's attention: every class but in_line, and released for a non-committed
    // order (given back as it should be).
    bool divergent = false;
    QString sentence; // what happened and what to do, in the window's language
    // The same sentence in English when `sentence` was translated (empty otherwise), for what
    // stays English whatever the window shows: the audit record of a release quotes it.
    QString englishSentence;
};

// ORDER:SKU:QTY:CLASS, as Magento's list-inconsistencies -r prints ORDER:SKU:QTY:STOCK.
QString rawLine(const Finding &f);
QJsonObject findingJson(const Finding &f);
// The sentence as an audit record quotes it: in English.
QString recordSentence(const Finding &f);

} // namespace reconcile
