// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReceiptForecast.h"

#include "DeductionRequest.h"
#include "core/Bytes.h"

#include <QCoreApplication>

namespace inventory {

namespace {
// What the confirmation shows before a call is translated in the window; the CLI prints the
// English.
struct ForecastText
{
    Q_DECLARE_TR_FUNCTIONS(inventory::ReceiptForecast)
};

// Where the claim comes from, so that a person can weigh it: a receipt can expire or be
// written by another client between this read and the call.
QString evidence(const ReceiptStatus &s)
{
    const QString at = s.checkedUtc.isValid()
                           ? s.checkedUtc.toLocalTime().toString(QStringLiteral("HH:mm:ss"))
                           : QStringLiteral("?");
    // How it was read is a static made before any translator (ReceiptCheck.cpp): translated here.
    const QString via =
        QCoreApplication::translate("inventory::ReceiptStatus", s.source.toUtf8().constData());
    return ForecastText::tr("read at %1 through %2").arg(at, via);
}

QString expiry(const ReceiptStatus &s)
{
    return s.ttlSeconds < 0 ? ForecastText::tr("no TTL: it never expires")
                            : ForecastText::tr("expires in %1").arg(humanDuration(s.ttlSeconds));
}
} // namespace

ReceiptForecast receiptForecast(const ReceiptStatus &s, const QByteArray &orderId)
{
    const QString order = core::escapeBytes(orderId, 60);
    const QString function = QLatin1String(DeductFunctionName);
    if (!s.ok())
        // A failed read is no "none": the call may still meet a receipt.
        return {ReceiptForecast::Kind::Unread,
                ForecastText::tr("Could not read whether a receipt for order %1 exists (%2).")
                    .arg(order, s.error.text)};
    if (!s.exists)
        return {ReceiptForecast::Kind::None,
                ForecastText::tr("No receipt for order %1 yet (%2).").arg(order, evidence(s))};
    switch (s.form) {
    case ReceiptForm::String: {
        const QString after = s.remaining
                                  ? ForecastText::tr("remaining %1 after it").arg(*s.remaining)
                                  : ForecastText::tr("value \"%1\", not a number: an anomaly")
                                        .arg(core::escapeBytes(s.rawValue, 40));
        return {ReceiptForecast::Kind::Answers,
                ForecastText::tr("A receipt for order %1 already exists (%2, %3; %4): %5 will "
                                 "answer 'already applied' and deduct nothing.")
                    .arg(order, after, expiry(s), evidence(s), function)};
    }
    case ReceiptForm::Hash:
        // v1 reads its receipt with GET: a v2 hash makes the call fail before any write.
        return {ReceiptForecast::Kind::Refuses,
                ForecastText::tr("A v2 receipt (a hash) for order %1 already exists (remaining "
                                 "%2, %3; %4): %5 will refuse it with WRONGTYPE and deduct "
                                 "nothing.")
                    .arg(order, s.remaining ? QString::number(*s.remaining) : QStringLiteral("?"),
                         expiry(s), evidence(s), function)};
    case ReceiptForm::Invalid:
    case ReceiptForm::Missing:
        break;
    }
    return {ReceiptForecast::Kind::Refuses,
            ForecastText::tr("%1 (%2, %3)")
                .arg(invalidReceiptSentence(s.type), expiry(s), evidence(s))};
}

} // namespace inventory
