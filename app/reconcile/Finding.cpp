// SPDX-License-Identifier: GPL-3.0-or-later
#include "Finding.h"

namespace reconcile {

QString className(FindingClass c)
{
    switch (c) {
    case FindingClass::InLine:
        return QStringLiteral("in_line");
    case FindingClass::ReleaseCandidate:
        return QStringLiteral("release_candidate");
    case FindingClass::MissingReceipt:
        return QStringLiteral("missing_receipt");
    case FindingClass::QuantityDiffers:
        return QStringLiteral("quantity_differs");
    case FindingClass::Released:
        return QStringLiteral("released");
    }
    return {};
}

QString classTitle(FindingClass c)
{
    switch (c) {
    case FindingClass::InLine:
        return QStringLiteral("In line");
    case FindingClass::ReleaseCandidate:
        return QStringLiteral("Release candidates");
    case FindingClass::MissingReceipt:
        return QStringLiteral("Missing receipts");
    case FindingClass::QuantityDiffers:
        return QStringLiteral("Quantities that differ");
    case FindingClass::Released:
        return QStringLiteral("Released");
    }
    return {};
}

QString rawLine(const Finding &f)
{
    // Built in one buffer: --raw prints a million of these.
    QByteArray line;
    line.reserve(f.orderId.size() + f.sku.size() + 16);
    line.append(f.orderId).append(':').append(f.sku).append(':');
    line.append(QByteArray::number(f.quantity)).append(':');
    return QString::fromUtf8(line) + className(f.cls);
}

QJsonObject findingJson(const Finding &f)
{
    return {{QStringLiteral("order"), QString::fromUtf8(f.orderId)},
            {QStringLiteral("sku"), QString::fromUtf8(f.sku)},
            {QStringLiteral("quantity"), double(f.quantity)},
            {QStringLiteral("class"), className(f.cls)},
            {QStringLiteral("divergent"), f.divergent},
            {QStringLiteral("sentence"), f.sentence}};
}

QString recordSentence(const Finding &f)
{
    return f.englishSentence.isEmpty() ? f.sentence : f.englishSentence;
}

} // namespace reconcile
