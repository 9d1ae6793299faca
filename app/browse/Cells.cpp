// SPDX-License-Identifier: GPL-3.0-or-later
#include "Cells.h"

#include "Values.h"
#include "core/Bytes.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>
#include <QStringList>

namespace browse {

namespace {
// The cells the Keys tab shows are translated there; inventory-cli keys (text and --json)
// installs no translator and prints the English.
struct CellText
{
    Q_DECLARE_TR_FUNCTIONS(browse::Cells)
};
} // namespace

QString stockText(const KeyspaceStore &store, uint32_t s)
{
    switch (store.stockState(s)) {
    case StockState::Unseen:
        return CellText::tr("(not seen yet)");
    case StockState::Missing:
        return CellText::tr("(missing)");
    case StockState::Integer:
        return QString::number(store.stockValue(s));
    case StockState::NotInteger:
        return QLatin1Char('"') + core::escapeBytes(store.stockRaw(s), DisplayBytes)
               + QLatin1Char('"');
    case StockState::WrongType:
        return CellText::tr("(a %1, not a string)").arg(QString::fromLatin1(store.stockRaw(s)));
    }
    return {};
}

QString remainingText(const KeyspaceStore &store, uint32_t r)
{
    switch (store.receiptValue(r)) {
    case ReceiptValue::Integer:
        return QString::number(store.remaining(r));
    case ReceiptValue::NotInteger:
        return QLatin1Char('"') + core::escapeBytes(store.receiptRaw(r), DisplayBytes)
               + QLatin1Char('"');
    case ReceiptValue::MissingField:
        return CellText::tr("(no remaining field)");
    case ReceiptValue::WrongType:
        return CellText::tr("(a %1)").arg(QString::fromLatin1(store.receiptRaw(r)));
    }
    return {};
}

QString ttlText(qint64 expiryMs, qint64 nowMs)
{
    if (expiryMs == NoExpiry)
        return CellText::tr("none");
    if (expiryMs <= nowMs)
        return CellText::tr("expired");
    return formatDuration(expiryMs - nowMs, core::Wording::Translated);
}

QString receiptKindText(const KeyspaceStore &store, uint32_t r)
{
    if (store.receiptValue(r) == ReceiptValue::WrongType)
        return QString::fromLatin1(store.receiptRaw(r)); // "list", "set"...
    if (!store.receiptIsHash(r))
        return QStringLiteral("string");
    QStringList parts;
    const QByteArray q = store.receiptQuantity(r), t = store.receiptTime(r);
    if (!q.isEmpty())
        parts << CellText::tr("quantity %1").arg(core::escapeBytes(q, 24));
    if (!t.isEmpty())
        parts << CellText::tr("at %1").arg(formatReceiptTime(t));
    return parts.isEmpty() ? QStringLiteral("hash")
                           : CellText::tr("hash: %1")
                                 .arg(parts.join(CellText::tr(", ", "between a hash's fields")));
}

QString countOf(qint64 n, const char *singular, const char *plural)
{
    return QLocale().toString(n) + QLatin1Char(' ') + QLatin1String(n == 1 ? singular : plural);
}

QString anomalyShortName(Anomaly a)
{
    switch (a) {
    case StockNotInteger:
        return CellText::tr("stock not integer");
    case StockNegative:
        return CellText::tr("negative stock");
    case StockHasTtl:
        return CellText::tr("stock has TTL");
    case ReceiptNoTtl:
        return CellText::tr("receipt without TTL");
    case ReceiptStockMissing:
        return CellText::tr("stock key missing");
    case ReceiptNotInteger:
        return CellText::tr("remaining not integer");
    }
    return {};
}

QString anomalyShortText(uint8_t bits)
{
    QStringList parts;
    for (int i = 0; i < AnomalyKinds; ++i)
        if (bits & anomalyAt(i))
            parts << anomalyShortName(anomalyAt(i));
    return parts.join(CellText::tr(", ", "between anomalies"));
}

QString anomalyDetail(const KeyspaceStore &store, Anomaly a, uint32_t id)
{
    switch (a) {
    case StockNotInteger:
        if (store.stockState(id) == StockState::Integer)
            return CellText::tr("%1 is above %2: the deduction function refuses it")
                .arg(store.stockValue(id))
                .arg(MaxStock);
        if (store.stockState(id) == StockState::WrongType)
            return CellText::tr("the stock key is a %1, not a string: every deduction fails")
                .arg(QString::fromLatin1(store.stockRaw(id)));
        return CellText::tr("%1 is not a canonical integer: every deduction fails with "
                            "ERR invalid stock")
            .arg(stockText(store, id));
    case StockNegative:
        return CellText::tr("%1: stock can never go negative through the function, so "
                            "someone wrote it by hand")
            .arg(store.stockValue(id));
    case StockHasTtl:
        return CellText::tr("the stock key expires in %1: the SKU would vanish and every "
                            "deduction answer 'no stock key'")
            .arg(ttlText(store.stockExpiryMs(id), QDateTime::currentMSecsSinceEpoch()));
    case ReceiptNoTtl:
        return CellText::tr("never expires: the order stays protected forever, and memory "
                            "grows with every order");
    case ReceiptStockMissing:
        return CellText::tr("its stock key %1 does not exist")
            .arg(core::escapeBytes(store.stockKey(store.skuOfReceipt(id)), DisplayBytes));
    case ReceiptNotInteger:
        return CellText::tr("recorded remaining is %1, not an integer")
            .arg(remainingText(store, id));
    }
    return {};
}

} // namespace browse
