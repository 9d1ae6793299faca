// SPDX-License-Identifier: GPL-3.0-or-later
#include "RetryProtection.h"

#include "Deducer.h"

#include <QCoreApplication>

namespace inventory {

namespace {
// Translated in the window; the CLI installs no translator and prints the English.
struct RetryProtectionText
{
    Q_DECLARE_TR_FUNCTIONS(inventory::RetryProtection)
};
} // namespace

RetryProtection retryProtection(const DeductionResult &r)
{
    const OutcomeKind k = r.outcome.kind;
    // Both outcomes rest on a receipt: the one just written, or the one found.
    const bool claimed = r.plan.request.mode == DeductionMode::Function
                         && (k == OutcomeKind::Deducted || k == OutcomeKind::AlreadyApplied);
    if (!claimed)
        return RetryProtection::NotClaimed;
    if (!r.receiptAfter || !r.receiptAfter->ok())
        return RetryProtection::Unread;
    return r.receiptAfter->exists ? RetryProtection::Held : RetryProtection::Lost;
}

QString retryProtectionName(RetryProtection protection)
{
    switch (protection) {
    case RetryProtection::NotClaimed:
        return QStringLiteral("not_claimed");
    case RetryProtection::Held:
        return QStringLiteral("held");
    case RetryProtection::Lost:
        return QStringLiteral("lost");
    case RetryProtection::Unread:
        return QStringLiteral("not_read");
    }
    return {};
}

QString retryProtectionWarning(const DeductionResult &r)
{
    if (retryProtection(r) != RetryProtection::Lost)
        return {};
    return RetryProtectionText::tr(
        "But the receipt read back just after the call is missing (evicted "
        "under maxmemory, expired or deleted): the retry protection is already "
        "gone, and a retry of this order now would deduct again.");
}

QString resultMeaning(const DeductionResult &r)
{
    const QString meaning = r.outcome.meaning(r.plan.request.mode);
    const QString warning = retryProtectionWarning(r);
    return warning.isEmpty() ? meaning : meaning + QLatin1Char(' ') + warning;
}

QString resultNextStep(const DeductionResult &r)
{
    if (retryProtection(r) == RetryProtection::Lost)
        return RetryProtectionText::tr(
            "Do not retry this order: without its receipt a retry deducts "
            "again. Record that it was deducted in the order system, and check "
            "the server's maxmemory-policy (allkeys-* and volatile-* evict "
            "receipts).");
    return r.outcome.nextStep(r.plan.request.mode);
}

} // namespace inventory
