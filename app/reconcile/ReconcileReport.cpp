// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReconcileReport.h"

#include "core/Bytes.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

namespace reconcile {

namespace {

QString compact(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QString timeText(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate);
}

QString scopeText(const ReportContext &a)
{
    QString s = a.scope.skuGlob.isEmpty()
                    ? QStringLiteral("all SKUs")
                    : QStringLiteral("SKUs matching %1").arg(core::escapeBytes(a.scope.skuGlob));
    if (a.scope.hasWindow())
        s += QStringLiteral(", ledger rows from %1 until %2")
                 .arg(a.scope.sinceMs == ledger::NoTime ? QStringLiteral("the first")
                                                        : timeText(a.scope.sinceMs),
                      a.scope.untilMs == ledger::NoTime ? QStringLiteral("the last")
                                                        : timeText(a.scope.untilMs));
    return s
           + QStringLiteral("; a receipt absent from the ledger is a release candidate once "
                            "older than %1 (the grace period, --grace)")
                 .arg(durationText(a.scope.graceMs));
}

QJsonObject summaryJson(const RunOutcome &o, const ReportContext &a)
{
    QJsonObject counts;
    for (int c = 0; c < FindingClasses; ++c)
        counts.insert(className(FindingClass(c)), double(o.tally.findings[size_t(c)]));
    const Tally &t = o.tally;
    QJsonObject s{
        {QStringLiteral("ledger"), a.ledger},
        {QStringLiteral("redis"), a.redis},
        {QStringLiteral("complete"), !o.couldNotCheck()},
        {QStringLiteral("ledger_rows"), double(o.ledger.rows)},
        {QStringLiteral("rows_compared"), double(t.rowsCompared)},
        {QStringLiteral("rows_out_of_scope"), double(t.rowsOutOfScope)},
        {QStringLiteral("rows_not_deducted"), double(t.rowsNotDeducted)},
        {QStringLiteral("pending"), double(t.rowsPending)},
        {QStringLiteral("receipts_scanned"), double(a.receiptsScanned)},
        {QStringLiteral("release_keys_listed_by_scan"),
         a.releaseKeysListed >= 0 ? QJsonValue(double(a.releaseKeysListed)) : QJsonValue()},
        {QStringLiteral("release_keys_read"), double(o.releaseReads)},
        {QStringLiteral("receipts_too_recent"), double(t.receiptsTooRecent)},
        {QStringLiteral("receipts_age_unknown"), double(t.receiptsAgeUnknown)},
        {QStringLiteral("receipts_out_of_window"), double(t.receiptsOutOfWindow)},
        {QStringLiteral("grace_s"), double(a.scope.graceMs / 1000)},
        {QStringLiteral("receipt_policy"), a.policy.sentence()},
        {QStringLiteral("counts"), counts},
        {QStringLiteral("divergent"), double(t.divergent)}};
    if (o.couldNotCheck())
        s.insert(QStringLiteral("error"), o.problem());
    return s;
}

// What "released" and "not released" rest on.
QString releaseEvidenceText(const RunOutcome &o, const ReportContext &a)
{
    if (a.releaseKeysListed < 0)
        return QStringLiteral("Release keys: %1 read with EXISTS.").arg(o.releaseReads);
    return QStringLiteral("Release keys: %1 listed by the scan, %2 read with EXISTS (a key the "
                          "scan did not list is taken as absent as of the scan, and read again "
                          "before any release candidate is named).")
        .arg(a.releaseKeysListed)
        .arg(o.releaseReads);
}

} // namespace

ReconcileReport::ReconcileReport(QTextStream &out, ReportFormat format)
    : m_out(out)
    , m_format(format)
{}

void ReconcileReport::begin()
{
    if (m_format == ReportFormat::Json)
        m_out << "{\"findings\":[";
}

void ReconcileReport::add(const Finding &f)
{
    switch (m_format) {
    case ReportFormat::Raw:
        m_out << rawLine(f) << '\n';
        break;
    case ReportFormat::Json:
        m_out << (m_written ? "," : "") << compact(findingJson(f));
        break;
    case ReportFormat::Text:
        if (f.cls != FindingClass::InLine)
            m_held.push_back(f);
        break;
    }
    ++m_written;
}

void ReconcileReport::end(const RunOutcome &outcome, const ReportContext &about)
{
    if (m_format == ReportFormat::Raw)
        return; // the exit code and stderr say the rest
    if (m_format == ReportFormat::Json) {
        m_out << "],\"skus\":[";
        bool first = true;
        for (const SkuBalance &b : outcome.skus) {
            m_out << (first ? "" : ",") << compact(b.json());
            first = false;
        }
        m_out << "],\"releases\":"
              << QString::fromUtf8(QJsonDocument(about.releases).toJson(QJsonDocument::Compact))
              << ",\"summary\":" << compact(summaryJson(outcome, about)) << "}\n";
        return;
    }
    endText(outcome, about);
}

namespace {
// What the run left unjudged, and why: nothing is counted silently.
QStringList notJudgedParts(const Tally &t)
{
    QStringList notJudged;
    if (t.rowsNotDeducted)
        notJudged << QStringLiteral("%1 failed or cancelled rows have no receipt and no release "
                                    "(nothing to give back, or the receipt is gone)")
                         .arg(t.rowsNotDeducted);
    if (t.rowsPending)
        notJudged
            << QStringLiteral("%1 pending orders (never a release candidate)").arg(t.rowsPending);
    if (t.receiptsTooRecent)
        notJudged << QStringLiteral("%1 receipts absent from the ledger are younger than the "
                                    "grace period")
                         .arg(t.receiptsTooRecent);
    if (t.receiptsAgeUnknown)
        notJudged << QStringLiteral("%1 v1 receipts absent from the ledger record no time, so "
                                    "their age is not proven")
                         .arg(t.receiptsAgeUnknown);
    if (t.receiptsOutOfWindow)
        notJudged << QStringLiteral("%1 receipts outside the window").arg(t.receiptsOutOfWindow);
    if (t.rowsOutOfScope)
        notJudged << QStringLiteral("%1 ledger rows out of scope").arg(t.rowsOutOfScope);
    return notJudged;
}
} // namespace

void ReconcileReport::skuText(const RunOutcome &o)
{
    bool header = false;
    for (const SkuBalance &b : o.skus) {
        if (b.balanced())
            continue;
        if (!header)
            m_out << QStringLiteral("\nSKUs whose receipts and ledger differ (units receipted "
                                    "in Redis against units the ledger committed):\n");
        header = true;
        m_out << QStringLiteral("  %1: stock %2; %3 receipts recording %4 units%5; the ledger "
                                "committed %6 units in %7 orders.\n")
                     .arg(core::escapeBytes(b.sku, 80),
                          b.stockKnown ? QString::number(b.stock) : b.stockProblem)
                     .arg(b.receipts)
                     .arg(b.receiptUnits)
                     .arg(b.receiptsWithoutQuantity
                              ? QStringLiteral(" (%1 v1 receipts record no quantity)")
                                    .arg(b.receiptsWithoutQuantity)
                              : QString())
                     .arg(b.committedUnits)
                     .arg(b.committedOrders);
    }
}

void ReconcileReport::endText(const RunOutcome &o, const ReportContext &a)
{
    const Tally &t = o.tally;
    m_out << QStringLiteral("Ledger %1 (%2 rows read, %3 compared) against %4 (%5 receipts).\n")
                 .arg(a.ledger)
                 .arg(o.ledger.rows)
                 .arg(t.rowsCompared)
                 .arg(a.redis)
                 .arg(a.receiptsScanned);
    m_out << QStringLiteral("Scope: %1.\n").arg(scopeText(a));
    m_out << releaseEvidenceText(o, a) << '\n';
    if (o.couldNotCheck()) {
        m_out << QStringLiteral("\nCould not check: %1. Nothing below is a verdict on the whole "
                                "ledger; the %2 findings made before the run stopped are not "
                                "listed.\n")
                     .arg(o.problem())
                     .arg(m_held.size());
        m_held.clear();
    }
    for (FindingClass c : {FindingClass::MissingReceipt, FindingClass::QuantityDiffers,
                           FindingClass::ReleaseCandidate, FindingClass::Released}) {
        qint64 n = 0;
        for (const Finding &f : m_held)
            n += f.cls == c;
        if (!n)
            continue;
        m_out << '\n' << classTitle(c) << " (" << n << "):\n";
        for (const Finding &f : m_held)
            if (f.cls == c)
                m_out << "  - " << f.sentence << '\n';
    }
    m_out << QStringLiteral("\nIn line: %1 committed orders with their receipt.\n")
                 .arg(t.findings[size_t(FindingClass::InLine)]);
    const QStringList notJudged = notJudgedParts(t);
    if (!notJudged.isEmpty())
        m_out << QStringLiteral("Not judged: %1.\n").arg(notJudged.join(QLatin1String("; ")));
    skuText(o);
    if (o.couldNotCheck())
        m_out << QStringLiteral("\nVerdict: could not check.\n");
    else if (t.divergent)
        m_out << QStringLiteral("\nVerdict: %1 divergences between Redis and the ledger.\n")
                     .arg(t.divergent);
    else
        m_out << QStringLiteral("\nVerdict: everything compared is in line.\n");
}

} // namespace reconcile
