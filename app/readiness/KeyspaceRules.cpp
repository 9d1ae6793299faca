// SPDX-License-Identifier: GPL-3.0-or-later
// The rules read from the last key scan: receipt TTLs against the retry window, receipts
// that never expire, stock values the deduct function would refuse.
#include "Rules.h"

#include <QCoreApplication>

namespace readiness {

namespace {
// The sentences the Readiness tab shows are translated there; the CLI installs no translator
// and prints the English (its report and --json).
struct KeyspaceRulesText
{
    Q_DECLARE_TR_FUNCTIONS(readiness::Rules)
};

// The scan's facts, or "could not check" saying what to do to get them.
const KeyspaceFacts *scanned(const AuditInput &in, Finding &out)
{
    const KeyspaceFacts &k = *in.keyspace;
    if (!k.scanned) {
        conclude(
            out, Verdict::CouldNotCheck,
            KeyspaceRulesText::tr("the keys have not been scanned yet: scan them (Keys tab), then "
                                  "check again."));
        return nullptr;
    }
    if (!k.complete) {
        conclude(
            out, Verdict::CouldNotCheck,
            KeyspaceRulesText::tr("the last key scan did not finish (%1): scan again, then check "
                                  "again.")
                .arg(k.error.isEmpty() ? KeyspaceRulesText::tr("cancelled") : k.error));
        return nullptr;
    }
    if (!k.scope.isEmpty())
        out.evidence << qMakePair(KeyspaceRulesText::tr("scan limited to"), k.scope);
    return &k;
}

QString seconds(qint64 ms)
{
    return KeyspaceRulesText::tr("%1 s").arg(ms / 1000);
}

QString examples(const QStringList &keys, qint64 count)
{
    return keys.join(QStringLiteral(", "))
           + (count > keys.size() ? QStringLiteral(", …") : QString());
}

} // namespace

void checkReceiptTtl(const AuditInput &in, Finding &out)
{
    const KeyspaceFacts *k = scanned(in, out);
    if (!k)
        return;
    const qint64 windowMs = in.settings.retryWindowSeconds * 1000;
    const qint64 ttl = in.settings.receiptTtlSeconds;
    out.evidence << qMakePair(KeyspaceRulesText::tr("retry window"), seconds(windowMs))
                 << qMakePair(KeyspaceRulesText::tr("receipt TTL written by the console"),
                              QStringLiteral("%1 s").arg(ttl))
                 << qMakePair(KeyspaceRulesText::tr("receipts"), QString::number(k->receipts))
                 << qMakePair(KeyspaceRulesText::tr("shortest remaining TTL"),
                              k->shortestTtlMs < 0 ? KeyspaceRulesText::tr("none")
                                                   : seconds(k->shortestTtlMs))
                 << qMakePair(KeyspaceRulesText::tr("expiring within the window"),
                              QString::number(k->receiptsWithinWindow));
    if (ttl * 1000 < windowMs)
        return conclude(
            out, Verdict::Fail,
            KeyspaceRulesText::tr("the console writes receipts that live %1 s, less than "
                                  "the %2 s retry window, so a late retry deducts again: "
                                  "raise the profile's receipt TTL above the window.")
                .arg(ttl)
                .arg(windowMs / 1000));
    if (k->receiptsWithinWindow > 0)
        return conclude(
            out, Verdict::Warn,
            KeyspaceRulesText::tr("%1 receipt(s) expire within the %2 retry window (soonest "
                                  "in %3: %4): a retry of those orders after that deducts "
                                  "again; if they may still be retried, write receipts with "
                                  "a longer TTL.")
                .arg(k->receiptsWithinWindow)
                .arg(seconds(windowMs), seconds(k->shortestTtlMs),
                     examples(k->withinWindowExamples, k->receiptsWithinWindow)));
    if (k->receipts == 0)
        return conclude(out, Verdict::Pass,
                        KeyspaceRulesText::tr("no receipts in the last scan, so none can expire "
                                              "early."));
    if (k->shortestTtlMs < 0)
        return conclude(
            out, Verdict::Pass,
            KeyspaceRulesText::tr("no receipt has a TTL, so none expires early (receipts "
                                  "without a TTL are the next rule)."));
    conclude(
        out, Verdict::Pass,
        KeyspaceRulesText::tr("every receipt outlives the %1 retry window (the soonest expires in "
                              "%2).")
            .arg(seconds(windowMs), seconds(k->shortestTtlMs)));
}

void checkReceiptsWithoutTtl(const AuditInput &in, Finding &out)
{
    const KeyspaceFacts *k = scanned(in, out);
    if (!k)
        return;
    out.evidence << qMakePair(KeyspaceRulesText::tr("receipts"), QString::number(k->receipts))
                 << qMakePair(KeyspaceRulesText::tr("without a TTL"),
                              QString::number(k->receiptsWithoutTtl));
    if (k->receiptsWithoutTtl == 0)
        return conclude(out, Verdict::Pass, KeyspaceRulesText::tr("every receipt has a TTL."));
    conclude(
        out, Verdict::Warn,
        KeyspaceRulesText::tr("%1 receipt(s) never expire (%2): the deduct function always writes "
                              "a TTL, so something else wrote them; they hold memory forever: find "
                              "the writer, then give them a TTL (EXPIRE).")
            .arg(k->receiptsWithoutTtl)
            .arg(examples(k->withoutTtlExamples, k->receiptsWithoutTtl)));
}

void checkStockValues(const AuditInput &in, Finding &out)
{
    const KeyspaceFacts *k = scanned(in, out);
    if (!k)
        return;
    out.evidence << qMakePair(KeyspaceRulesText::tr("stock keys"), QString::number(k->stockKeys))
                 << qMakePair(KeyspaceRulesText::tr("not canonical"),
                              QString::number(k->stockNotCanonical))
                 << qMakePair(KeyspaceRulesText::tr("negative"), QString::number(k->stockNegative));
    QStringList problems;
    if (k->stockNotCanonical > 0)
        problems << KeyspaceRulesText::tr(
                        "%1 not a canonical integer (%2), which the deduct function "
                        "refuses with an error")
                        .arg(k->stockNotCanonical)
                        .arg(examples(k->notCanonicalExamples, k->stockNotCanonical));
    if (k->stockNegative > 0)
        problems << KeyspaceRulesText::tr("%1 negative (%2), stock that was oversold")
                        .arg(k->stockNegative)
                        .arg(examples(k->negativeExamples, k->stockNegative));
    if (problems.isEmpty())
        return conclude(
            out, Verdict::Pass,
            KeyspaceRulesText::tr("every stock value is a canonical integer of 0 or more."));
    conclude(
        out, Verdict::Fail,
        KeyspaceRulesText::tr("stock values: %1: correct them (SET the key to the counted stock) "
                              "before the release.")
            .arg(problems.join(QStringLiteral("; "))));
}

} // namespace readiness
