// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace inventory {

struct DeductionResult;

// What the receipt read back just after a Function-mode call says about the promise "a retry
// of this order returns Already applied". The reply proves the receipt was there when the
// function ran; only the read-back says whether it still is (maxmemory eviction under
// allkeys-* or volatile-*, an expiry, a DEL can remove it right after).
enum class RetryProtection {
    NotClaimed, // the outcome promises nothing about a retry (script mode, errors, not sent)
    Held,       // the receipt was read back: a retry returns Already applied until it expires
    Lost,       // the receipt was read back missing: a retry now would deduct again
    Unread,     // the read-back failed or did not run: the promise rests on the reply alone
};

RetryProtection retryProtection(const DeductionResult &result);
// "not_claimed", "held", "lost", "not_read": for --json.
QString retryProtectionName(RetryProtection protection);
// Lost: the sentence the result adds to the outcome's meaning; empty otherwise.
QString retryProtectionWarning(const DeductionResult &result);
// The outcome's meaning, with the warning after it when the read-back contradicts it.
QString resultMeaning(const DeductionResult &result);
// The outcome's next step, unless the read-back contradicts it.
QString resultNextStep(const DeductionResult &result);

} // namespace inventory
