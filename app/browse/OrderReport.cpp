#include "OrderReport.h"

#include "Cells.h"
#include "CsvExport.h"
#include "OrderSentence.h"
#include "ReceiptTableModel.h"
#include "core/Bytes.h"

#include <QJsonArray>
#include <QLocale>

namespace browse {

namespace {

QString searched(const ScanFacts &f)
{
    // SCAN MATCH returns only the hits; the keyspace searched is what DBSIZE said.
    QString s =
        f.complete
            ? QStringLiteral("searched all %1 keys in %2 s")
                  .arg(QLocale().toString(qMax<qint64>(0, f.dbSize)))
                  .arg(f.elapsedMs / 1000.0, 0, 'f', 2)
            : QStringLiteral("searched about %1 % of the keyspace").arg(int(f.fractionDone * 100));
    if (!f.complete)
        s += QStringLiteral("; INCOMPLETE: %1")
                 .arg(f.error.isEmpty() ? QStringLiteral("cancelled") : f.error);
    return s;
}

} // namespace

QString orderReportText(const KeyspaceStore &st, const QByteArray &orderId, const ScanFacts &f,
                        qint64 nowMs, qint64 warnWithinMs)
{
    ReceiptTableModel model(st);
    model.showAll(); // sorted by SKU, naturally
    model.sort(ReceiptTableModel::Sku);
    QString out = QStringLiteral("Order %1: %2 (%3)\n")
                      .arg(core::escapeBytes(orderId, DisplayBytes),
                           countOf(model.rowCount(), "receipt", "receipts"), searched(f));
    if (model.rowCount() == 0)
        return out + QLatin1Char('\n') + orderNotFoundSentence(orderId) + QLatin1Char('\n');
    for (int row = 0; row < model.rowCount(); ++row) {
        const uint32_t r = model.receiptAt(row);
        const OrderExplanation e = explainOrder(st, r, nowMs, warnWithinMs);
        out +=
            QStringLiteral("\nSKU %1  %2\n")
                .arg(core::escapeBytes(st.skuName(st.skuOfReceipt(r)).toByteArray(), DisplayBytes),
                     core::escapeBytes(st.receiptKey(r), DisplayBytes));
        // One line per question; the retry line is the one that can be urgent.
        out += QStringLiteral("  %1\n  %2%3\n  %4\n")
                   .arg(e.deducted, e.expiringSoon ? QStringLiteral("WARNING: ") : QString(),
                        e.retry, e.stockNow);
    }
    return out;
}

QJsonObject orderReportJson(const KeyspaceStore &st, const QByteArray &orderId, const ScanFacts &f,
                            qint64 nowMs, qint64 warnWithinMs)
{
    ReceiptTableModel model(st);
    model.showAll();
    model.sort(ReceiptTableModel::Sku);
    QJsonArray receipts;
    for (int row = 0; row < model.rowCount(); ++row) {
        const uint32_t r = model.receiptAt(row);
        const uint32_t s = st.skuOfReceipt(r);
        QJsonObject o = jsonRow(model, row);
        // The key escaped for reading; sku and order carry exact bytes (base64 when needed).
        o.insert(QStringLiteral("key"), core::escapeBytes(st.receiptKey(r)));
        o.insert(QStringLiteral("stock"), st.stockState(s) == StockState::Integer
                                              ? QJsonValue(double(st.stockValue(s)))
                                              : QJsonValue(stockText(st, s)));
        const OrderExplanation e = explainOrder(st, r, nowMs, warnWithinMs);
        o.insert(QStringLiteral("sentence"), e.text());
        o.insert(QStringLiteral("deducted"), e.deducted);
        o.insert(QStringLiteral("retry"), e.retry);
        o.insert(QStringLiteral("stock_now"), e.stockNow);
        o.insert(QStringLiteral("expiring_soon"), e.expiringSoon);
        receipts.append(o);
    }
    QJsonObject out{{QStringLiteral("order"), core::escapeBytes(orderId)},
                    {QStringLiteral("receipts"), receipts},
                    {QStringLiteral("keys_searched"), double(f.complete ? f.dbSize : -1)},
                    {QStringLiteral("elapsed_ms"), double(f.elapsedMs)},
                    {QStringLiteral("complete"), f.complete}};
    if (receipts.isEmpty())
        out.insert(QStringLiteral("sentence"), orderNotFoundSentence(orderId));
    if (!f.error.isEmpty())
        out.insert(QStringLiteral("error"), f.error);
    return out;
}

} // namespace browse
