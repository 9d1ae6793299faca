// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReconcileExport.h"

#include "ReconcileFindingsModel.h"
#include "SkuBalanceModel.h"
#include "core/Csv.h"

#include <QStringList>

namespace ui {

namespace {
// A Markdown table cell: pipes and line breaks would end the cell or the row.
QString cell(QString text)
{
    return text.replace(QLatin1Char('|'), QStringLiteral("\\|"))
        .replace(QLatin1Char('\n'), QLatin1Char(' '));
}

QString quantityText(const reconcile::Finding &f)
{
    return f.quantity > 0 ? QString::number(f.quantity) : QStringLiteral("not recorded");
}
} // namespace

QByteArray findingsCsv(const ReconcileFindingsModel &findings)
{
    QByteArray out = "order_id,sku,quantity,class,divergent,since_run,sentence\r\n";
    for (int row = 0; row < findings.rowCount(); ++row) {
        const reconcile::Finding &f = findings.finding(row);
        const QList<QByteArray> cells{f.orderId,
                                      f.sku,
                                      QByteArray::number(f.quantity),
                                      reconcile::className(f.cls).toUtf8(),
                                      f.divergent ? "yes" : "no",
                                      findings.status(row).toUtf8(),
                                      f.sentence.toUtf8()};
        QList<QByteArray> safe;
        for (const QByteArray &c : cells)
            safe << core::csvCell(c);
        out += safe.join(',') + "\r\n";
    }
    return out;
}

QByteArray reconcileMarkdown(const QString &summary, const ReconcileFindingsModel &findings,
                             const SkuBalanceModel &skus)
{
    QStringList out{QStringLiteral("# Reconciliation of Redis receipts with the order ledger"),
                    QString(), summary, QString()};
    for (int rank = 0; rank < 5; ++rank) { // every rank but in line's (5)
        QStringList rows;
        QString title;
        for (int row = 0; row < findings.rowCount(); ++row) {
            const reconcile::Finding &f = findings.finding(row);
            if (findingRank(f) != rank)
                continue;
            title = reconcile::classTitle(f.cls);
            if (rank == 3)
                title += QStringLiteral(" for committed orders");
            rows << QStringLiteral("| %1 | %2 | %3 | %4 | %5 |")
                        .arg(cell(QString::fromUtf8(f.orderId)), cell(QString::fromUtf8(f.sku)),
                             quantityText(f), cell(findings.status(row)), cell(f.sentence));
        }
        if (rows.isEmpty())
            continue;
        out << QStringLiteral("## %1 (%2)").arg(title).arg(rows.size()) << QString()
            << QStringLiteral("| Order | SKU | Quantity | Since the run | What happened, and what "
                              "to do |")
            << QStringLiteral("|---|---|---:|---|---|") << rows << QString();
    }
    out << QStringLiteral("## Per SKU") << QString()
        << QStringLiteral("| SKU | Stock | Receipts | Receipted units | Committed orders | "
                          "Committed units | Receipts against ledger |")
        << QStringLiteral("|---|---:|---:|---:|---:|---:|---|");
    for (const reconcile::SkuBalance &b : skus.balances())
        out << QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 |")
                   .arg(cell(QString::fromUtf8(b.sku)), cell(stockText(b)))
                   .arg(b.receipts)
                   .arg(b.receiptUnits)
                   .arg(b.committedOrders)
                   .arg(b.committedUnits)
                   .arg(cell(balanceText(b)));
    out << QString();
    return out.join(QLatin1Char('\n')).toUtf8();
}

} // namespace ui
