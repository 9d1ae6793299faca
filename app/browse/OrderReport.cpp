// SPDX-License-Identifier: GPL-3.0-or-later
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

const ServerEvidence *evidenceOf(const OrderEvidence &ev, uint32_t r)
{
    const auto it = ev.byReceipt.constFind(r);
    return it == ev.byReceipt.constEnd() ? nullptr : &*it;
}

} // namespace

OrderEvidence readOrderEvidence(redis::CommandSender &sender, const KeyspaceStore &st,
                                int timeoutMs)
{
    OrderEvidence ev;
    for (uint32_t r = 0; r < st.receiptRows(); ++r)
        if (st.receiptAlive(r))
            ev.byReceipt.insert(r, readEvidence(sender, st.receiptKey(r), timeoutMs));
    if (ev.byReceipt.isEmpty())
        for (const redis::ScanNode &node : sender.scanNodes())
            ev.nodes << readEvidence(*node.sender, {}, timeoutMs);
    return ev;
}

QJsonObject evidenceJson(const ServerEvidence &e)
{
    if (!e.known())
        return {{QStringLiteral("error"), e.readError}};
    QJsonObject o{{QStringLiteral("run_id"), e.runId},
                  {QStringLiteral("tcp_port"), double(e.tcpPort)},
                  {QStringLiteral("uptime_s"), double(e.uptimeSeconds)},
                  {QStringLiteral("eviction_policy"), e.evictionPolicy},
                  {QStringLiteral("maxmemory"), double(e.maxMemory)},
                  {QStringLiteral("used_memory"), double(e.usedMemory)},
                  {QStringLiteral("evicted_keys"), double(e.evictedKeys)},
                  {QStringLiteral("last_save_ms"), double(e.lastSaveMs)}};
    o.insert(QStringLiteral("aof_enabled"),
             e.aofEnabled ? QJsonValue(*e.aofEnabled) : QJsonValue(QJsonValue::Null));
    return o;
}

QString orderReportText(const KeyspaceStore &st, const QByteArray &orderId, const ScanFacts &f,
                        const OrderEvidence &ev, qint64 nowMs, qint64 warnWithinMs)
{
    ReceiptTableModel model(st);
    model.showAll(); // sorted by SKU, naturally
    model.sort(ReceiptTableModel::Sku);
    QString out = QStringLiteral("Order %1: %2 (%3)\n")
                      .arg(core::escapeBytes(orderId, DisplayBytes),
                           countOf(model.rowCount(), "receipt", "receipts"), searched(f));
    if (model.rowCount() == 0)
        return out + QLatin1Char('\n') + orderNotFoundSentence(orderId, ev.nodes, f.complete)
               + QLatin1Char('\n')
               + (ev.auditNote.isEmpty() ? QString() : ev.auditNote + QLatin1Char('\n'));
    for (int row = 0; row < model.rowCount(); ++row) {
        const uint32_t r = model.receiptAt(row);
        const OrderExplanation e = explainOrder(st, r, nowMs, evidenceOf(ev, r), warnWithinMs);
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
                            const OrderEvidence &ev, qint64 nowMs, qint64 warnWithinMs)
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
        const ServerEvidence *server = evidenceOf(ev, r);
        const OrderExplanation e = explainOrder(st, r, nowMs, server, warnWithinMs);
        o.insert(QStringLiteral("sentence"), e.text());
        o.insert(QStringLiteral("deducted"), e.deducted);
        o.insert(QStringLiteral("retry"), e.retry);
        o.insert(QStringLiteral("stock_now"), e.stockNow);
        o.insert(QStringLiteral("expiring_soon"), e.expiringSoon);
        const qint64 expiry = st.receiptExpiryMs(r);
        QJsonObject safety{{QStringLiteral("verdict"), retryVerdictName(e.verdict)},
                           {QStringLiteral("until_ms"), expiry == NoExpiry
                                                            ? QJsonValue(QJsonValue::Null)
                                                            : QJsonValue(double(expiry))},
                           {QStringLiteral("reasons"), QJsonArray::fromStringList(e.retryReasons)}};
        if (server)
            safety.insert(QStringLiteral("server"), evidenceJson(*server));
        o.insert(QStringLiteral("retry_safety"), safety);
        receipts.append(o);
    }
    QJsonObject out{{QStringLiteral("order"), core::escapeBytes(orderId)},
                    {QStringLiteral("receipts"), receipts},
                    {QStringLiteral("keys_searched"), double(f.complete ? f.dbSize : -1)},
                    {QStringLiteral("elapsed_ms"), double(f.elapsedMs)},
                    {QStringLiteral("complete"), f.complete}};
    if (receipts.isEmpty()) {
        out.insert(QStringLiteral("sentence"),
                   orderNotFoundSentence(orderId, ev.nodes, f.complete));
        QJsonArray servers;
        for (const ServerEvidence &node : ev.nodes)
            servers.append(evidenceJson(node));
        out.insert(QStringLiteral("servers"), servers);
        if (!ev.auditNote.isEmpty())
            out.insert(QStringLiteral("audit_note"), ev.auditNote);
    }
    if (!f.error.isEmpty())
        out.insert(QStringLiteral("error"), f.error);
    return out;
}

} // namespace browse
