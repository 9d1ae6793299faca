// SPDX-License-Identifier: GPL-3.0-or-later
#include "KeysReport.h"

#include "Cells.h"
#include "core/Csv.h"

#include <QAbstractItemModel>
#include <QJsonArray>
#include <QLocale>

namespace browse {

ScanFacts ScanFacts::of(const InventoryScan &scan)
{
    ScanFacts f;
    f.keysSeen = scan.scanner().keysSeen();
    f.dbSize = scan.scanner().dbSize();
    f.elapsedMs = scan.scanner().elapsedMs();
    f.fractionDone = scan.scanner().fractionDone();
    f.complete = scan.isComplete();
    f.error = scan.lastError();
    f.stats = scan.stats();
    return f;
}

QString summaryText(const InventorySummary &s, const ScanFacts &f)
{
    QStringList lines;
    auto line = [&](const QString &label, const QString &value) {
        lines << label.leftJustified(38) + value;
    };
    line(QStringLiteral("SKUs"), QString::number(s.skus));
    line(QStringLiteral("stock keys"), QString::number(s.stockKeys));
    line(QStringLiteral("total stock (valid values)"), QString::number(s.stockTotal));
    line(QStringLiteral("receipts"), QString::number(s.receipts));
    line(QStringLiteral("anomalies"), QString::number(s.anomalyTotal()));
    for (int i = 0; i < AnomalyKinds; ++i)
        line(QStringLiteral("  ") + anomalyName(anomalyAt(i)),
             QString::number(s.anomalies[size_t(i)]));
    line(QStringLiteral("keys scanned"),
         f.dbSize >= 0 ? QStringLiteral("%1 (DBSIZE %2)").arg(f.keysSeen).arg(f.dbSize)
                       : QString::number(f.keysSeen));
    if (f.stats.vanished)
        line(QStringLiteral("keys gone while scanning"), QString::number(f.stats.vanished));
    if (f.stats.unreadable)
        line(QStringLiteral("keys that could not be read"),
             QStringLiteral("%1 (first: %2)").arg(f.stats.unreadable).arg(f.stats.firstProblem));
    line(QStringLiteral("elapsed"), QStringLiteral("%1 s").arg(f.elapsedMs / 1000.0, 0, 'f', 3));
    if (!f.complete)
        line(QStringLiteral("INCOMPLETE"),
             f.error.isEmpty() ? QStringLiteral("cancelled") : f.error);
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QJsonObject summaryJson(const InventorySummary &s, const ScanFacts &f)
{
    QJsonObject anomalies;
    static const char *const keys[] = {"stock_not_integer",     "stock_negative",
                                       "stock_with_ttl",        "receipt_without_ttl",
                                       "receipt_stock_missing", "receipt_remaining_not_integer"};
    for (int i = 0; i < AnomalyKinds; ++i)
        anomalies.insert(QLatin1String(keys[i]), double(s.anomalies[size_t(i)]));
    QJsonObject o{{QStringLiteral("skus"), double(s.skus)},
                  {QStringLiteral("stock_keys"), double(s.stockKeys)},
                  {QStringLiteral("stock_total"), double(s.stockTotal)},
                  {QStringLiteral("receipts"), double(s.receipts)},
                  {QStringLiteral("anomalies"), anomalies},
                  {QStringLiteral("keys_scanned"), double(f.keysSeen)},
                  {QStringLiteral("dbsize"), double(f.dbSize)},
                  {QStringLiteral("keys_gone_while_scanning"), double(f.stats.vanished)},
                  {QStringLiteral("keys_unreadable"), double(f.stats.unreadable)},
                  {QStringLiteral("elapsed_ms"), double(f.elapsedMs)},
                  {QStringLiteral("complete"), f.complete}};
    if (!f.error.isEmpty())
        o.insert(QStringLiteral("error"), f.error);
    return o;
}

QByteArray summaryCsv(const InventorySummary &s, const ScanFacts &f)
{
    QByteArray out = "name,value\r\n";
    const auto row = [&out](const QString &name, const QJsonValue &v) {
        const QByteArray value = v.isBool()     ? QByteArray(v.toBool() ? "true" : "false")
                                 : v.isDouble() ? QByteArray::number(qint64(v.toDouble()))
                                                : v.toString().toUtf8();
        out += core::csvCell(name.toUtf8()) + ',' + core::csvCell(value) + "\r\n";
    };
    const QJsonObject o = summaryJson(s, f);
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it->isObject()) {
            row(it.key(), *it);
            continue;
        }
        const QJsonObject inner = it->toObject();
        for (auto j = inner.begin(); j != inner.end(); ++j)
            row(it.key() + QLatin1Char('.') + j.key(), *j);
    }
    return out;
}

void writeTable(QTextStream &out, const QAbstractItemModel &model)
{
    const int rows = model.rowCount(), cols = model.columnCount();
    QList<int> width(cols, 0);
    for (int c = 0; c < cols; ++c)
        width[c] = int(model.headerData(c, Qt::Horizontal).toString().size());
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            width[c] = qMax(width[c], int(model.index(r, c).data().toString().size()));
    auto emitLine = [&](auto cell) {
        QString line;
        for (int c = 0; c < cols; ++c) {
            const QString text = cell(c);
            line += c == cols - 1 ? text : text.leftJustified(width[c] + 2);
        }
        while (line.endsWith(QLatin1Char(' ')))
            line.chop(1);
        out << line << '\n';
    };
    emitLine([&](int c) { return model.headerData(c, Qt::Horizontal).toString(); });
    for (int r = 0; r < rows; ++r)
        emitLine([&](int c) { return model.index(r, c).data().toString(); });
}

} // namespace browse
