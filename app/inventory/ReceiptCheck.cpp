// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReceiptCheck.h"

#include "DeductionRequest.h"
#include "InventoryLog.h"
#include "core/Bytes.h"
#include "redis/Blocking.h"
#include "redis/LibraryList.h"
#include "redis/ReplyShape.h"

#include <QCoreApplication>
#include <QPointer>
#include <memory>

namespace inventory {

namespace {

// The verdicts people read are translated in the window; the CLI installs no translator and
// prints the English. verdictName() is for --json, and an audit record asks ttlText() for
// English.
struct ReceiptText
{
    Q_DECLARE_TR_FUNCTIONS(inventory::ReceiptStatus)
};

const QString ViaFunction = QStringLiteral("FCALL_RO inventory_receipt_v1");
// Translated where it is shown (ReceiptForecast), not here: a static is built before the window
// installs its translator.
const QString ViaDirect = QStringLiteral(
    QT_TRANSLATE_NOOP("inventory::ReceiptStatus", "direct read (TYPE, TTL, GET/HGETALL)"));

// Why a receipt could not be read, kept in both copies: the window shows one, the CLI's
// --json and the log the other.
core::Sentence receiptSays(const char *source)
{
    return core::Sentence::translated("inventory::ReceiptStatus", source);
}

core::Sentence errorText(const redis::ReplyResult &r)
{
    return r.ok() ? core::Sentence() : r.error().readFailure();
}

bool hasReceiptFunction(const redis::ReplyResult &list)
{
    if (!list.ok())
        return false;
    const auto libraries = redis::decodeFunctionList(list.value());
    if (!libraries.ok())
        return false;
    for (const auto &lib : libraries.value())
        for (const auto &f : lib.functions)
            if (f.name.compare(QLatin1String(ReceiptFunctionName), Qt::CaseInsensitive) == 0)
                return true;
    return false;
}

void finish(ReceiptStatus s, const std::function<void(const ReceiptStatus &)> &done)
{
    s.checkedUtc = QDateTime::currentDateTimeUtc();
    qCDebug(lcInventory) << "receipt" << core::escapeBytes(s.key, 80) << s.verdictName()
                         << s.ttlSeconds << s.error.english;
    done(s);
}

void readDirectly(redis::CommandSender &sender, const QByteArray &key, QObject *context,
                  std::function<void(const ReceiptStatus &)> done, int timeoutMs)
{
    sender.sendBatch(
        {{"TYPE", key}, {"TTL", key}, {"GET", key}, {"HGETALL", key}}, context,
        [key, done](const QList<redis::ReplyResult> &r) {
            finish(decodeDirectReceipt(key, r), done);
        },
        timeoutMs);
}

} // namespace

QString humanDuration(qint64 seconds, core::Wording wording)
{
    // QT_TRANSLATE_NOOP names them for lupdate: a free function has no tr() context.
    const auto say = [wording](const char *source) {
        return core::word(wording, "inventory::ReceiptStatus", source);
    };
    if (seconds < 60)
        return say(QT_TRANSLATE_NOOP("inventory::ReceiptStatus", "%1 s")).arg(seconds);
    const qint64 d = seconds / 86400, h = seconds % 86400 / 3600, m = seconds % 3600 / 60;
    if (d > 0)
        return say(QT_TRANSLATE_NOOP("inventory::ReceiptStatus", "%1 d %2 h %3 min"))
            .arg(d)
            .arg(h)
            .arg(m);
    if (h > 0)
        return say(QT_TRANSLATE_NOOP("inventory::ReceiptStatus", "%1 h %2 min")).arg(h).arg(m);
    return say(QT_TRANSLATE_NOOP("inventory::ReceiptStatus", "%1 min %2 s"))
        .arg(m)
        .arg(seconds % 60);
}

QDateTime ReceiptStatus::expiresUtc() const
{
    if (!exists || ttlSeconds < 0 || !checkedUtc.isValid())
        return {};
    return checkedUtc.addSecs(ttlSeconds);
}

QString ReceiptStatus::ttlText(core::Wording wording) const
{
    const auto say = [wording](const char *source) {
        return core::word(wording, "inventory::ReceiptStatus", source);
    };
    if (!ok())
        return say(QT_TRANSLATE_NOOP("inventory::ReceiptStatus", "unknown"));
    if (!exists || ttlSeconds == -2)
        return say(QT_TRANSLATE_NOOP("inventory::ReceiptStatus", "missing"));
    if (ttlSeconds == -1)
        return say(QT_TRANSLATE_NOOP("inventory::ReceiptStatus", "no TTL (never expires)"));
    return say(QT_TRANSLATE_NOOP("inventory::ReceiptStatus", "%1 (%2 s)"))
        .arg(humanDuration(ttlSeconds, wording))
        .arg(ttlSeconds);
}

QString ReceiptStatus::verdictName() const
{
    if (!ok())
        return QStringLiteral("check_failed");
    if (form == ReceiptForm::Invalid)
        return QStringLiteral("anomalous");
    return exists ? QStringLiteral("happened") : QStringLiteral("not_found");
}

QString ReceiptStatus::verdict() const
{
    if (!ok())
        return ReceiptText::tr("The check failed (%1); it says nothing about the deduction. Try "
                               "again when the server answers.")
            .arg(error.text);
    if (!exists)
        // Absence is not proof: a receipt can expire, be evicted, or be lost in a restart or a
        // failover to a lagging replica. Only the console's own record of a write never sent
        // says "did not happen", and this check has no such record.
        return ReceiptText::tr("No receipt found: either this order's deduction never ran, or "
                               "its receipt expired, was evicted or was lost in a restart or "
                               "failover. A retry with the same order id would deduct now: "
                               "check the stock and the audit log first.");
    if (form == ReceiptForm::Invalid)
        return invalidReceiptSentence(type) + QLatin1Char(' ') + invalidReceiptWindow(expiryText());
    // The facts after "exists" are a list: each item carries its own comma.
    QString what = ReceiptText::tr("The deduction happened: the receipt exists");
    if (remaining)
        what += ReceiptText::tr(", recorded remaining %1").arg(*remaining);
    else if (!rawValue.isEmpty())
        what += ReceiptText::tr(", value \"%1\" (not a number: an anomaly)")
                    .arg(core::escapeBytes(rawValue, 60));
    if (quantity && *quantity >= 0)
        what += ReceiptText::tr(", quantity %1").arg(*quantity);
    what += ReceiptText::tr(".", "ends the sentence 'The deduction happened: ...'");
    return what + QLatin1Char(' ') + retryWindow();
}

// When a retry of this order would deduct again. inventory_deduct_v1 (what the console calls)
// reads a receipt with GET: a v2 hash makes it fail with WRONGTYPE, while v2 answers "already
// applied". This check reads the receipt alone, not the eviction policy, persistence or
// restarts: what it says of a retry holds while the receipt does, and no longer (the order
// lookup's "Safe to retry" weighs that evidence). Whole sentences: a translation keeps its
// own word order.
QString ReceiptStatus::retryWindow() const
{
    const bool hash = form == ReceiptForm::Hash;
    if (ttlSeconds == -1)
        return hash ? ReceiptText::tr("It has no TTL, so it never expires (the function always "
                                      "sets one: someone changed this key); a retry through "
                                      "inventory_deduct_v2 returns Already applied "
                                      "(inventory_deduct_v1 refuses a hash receipt: WRONGTYPE) "
                                      "while the receipt lasts (eviction, a DEL, or a restart or "
                                      "failover that loses it ends that sooner).")
                    : ReceiptText::tr("It has no TTL, so it never expires (the function always "
                                      "sets one: someone changed this key); a retry of this "
                                      "order returns Already applied while the receipt lasts "
                                      "(eviction, a DEL, or a restart or failover that loses it "
                                      "ends that sooner).");
    return (hash ? ReceiptText::tr("It expires in %1; until then a retry through "
                                   "inventory_deduct_v2 returns Already applied "
                                   "(inventory_deduct_v1 refuses a hash receipt: WRONGTYPE) while "
                                   "the receipt lasts (eviction, a DEL, or a restart or failover "
                                   "that loses it ends that sooner); after that it would deduct "
                                   "again.")
                 : ReceiptText::tr("It expires in %1; until then a retry of this order returns "
                                   "Already applied while the receipt lasts (eviction, a DEL, or "
                                   "a restart or failover that loses it ends that sooner); after "
                                   "that it would deduct again."))
        .arg(expiryText());
}

// "6 d 23 h, at 2026-12-10 14:00:00 UTC"; empty when the receipt has no TTL.
QString ReceiptStatus::expiryText() const
{
    if (ttlSeconds < 0)
        return {};
    return ReceiptText::tr("%1, at %2 UTC")
        .arg(humanDuration(ttlSeconds),
             expiresUtc().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
}

ReceiptStatus decodeReceiptFunctionReply(const QByteArray &key, const redis::Reply &r)
{
    // {1, remaining, ttl, quantity or -1} or {0, 0, -2, -1}: four integers, nothing else.
    ReceiptStatus s;
    s.key = key;
    s.source = ViaFunction;
    std::optional<qint64> v[4];
    for (int i = 0; r.isArray() && r.size() == 4 && i < 4; ++i)
        if (r.at(i).isInteger())
            v[i] = *r.at(i).integer();
    const bool shaped = v[0] && v[1] && v[2] && v[3];
    const bool none = shaped && *v[0] == 0 && *v[1] == 0 && *v[2] == -2 && *v[3] == -1;
    // What the function can answer for a receipt it accepts: a canonical remaining, the key's
    // TTL (-1: none), and a v2 quantity or -1 (docs/contracts.md).
    const bool found = shaped && *v[0] == 1 && *v[1] >= 0 && *v[1] <= MaxStockValue && *v[2] >= -1
                       && (*v[3] == -1 || (*v[3] >= 1 && *v[3] <= MaxQuantity));
    if (!none && !found) {
        // In words: a raw dump does not belong in the sentence verdict() builds from this. A
        // reply the contract never gives proves neither that the receipt exists nor that not.
        s.error = receiptSays(QT_TRANSLATE_NOOP("inventory::ReceiptStatus",
                                                "inventory_receipt_v1 answered %1 outside its "
                                                "contract ({1, remaining, ttl, quantity} or {0, "
                                                "0, -2, -1}): an anomaly"))
                      .arg(redis::replyShape(r));
        return s;
    }
    s.exists = found;
    s.ttlSeconds = found ? *v[2] : -2;
    s.type = found ? QByteArray() : QByteArray("none");
    // The function answers only for the two forms it accepts (else ERR invalid receipt); a
    // quantity says which.
    s.form = !found ? ReceiptForm::Missing : *v[3] >= 1 ? ReceiptForm::Hash : ReceiptForm::String;
    if (found) {
        s.remaining = v[1];
        s.rawValue = QByteArray::number(*v[1]);
        if (s.form == ReceiptForm::Hash)
            s.quantity = v[3];
    }
    return s;
}

namespace {

// A v1 receipt: GET's reply. Sets s->error when the reply is not a value.
void readStringReceipt(ReceiptStatus *s, const redis::ReplyResult &get)
{
    if (!get.ok()) {
        s->error = errorText(get);
        return;
    }
    // nil when the key expired between TYPE and GET: no value, as for a missing key. Any
    // other reply is no GET's: the check read nothing it can vouch for.
    if (!get->isString() && !get->isNil()) {
        s->error = receiptSays(QT_TRANSLATE_NOOP("inventory::ReceiptStatus",
                                                 "GET answered %1, not a value (an anomaly)"))
                       .arg(redis::replyShape(*get));
        return;
    }
    if (const auto value = get->string())
        s->rawValue = *value;
    s->remaining = get->asInteger();
}

// A v2 receipt: HGETALL's reply, fields remaining, quantity, time. Sets s->error when the
// reply is not a receipt's fields.
void readHashReceipt(ReceiptStatus *s, const redis::ReplyResult &hgetall)
{
    if (!hgetall.ok()) {
        s->error = errorText(hgetall);
        return;
    }
    const auto h = hgetall->array();
    if (!h) {
        s->error = h.error().readFailure();
        return;
    }
    // Redis never keeps an empty hash: none means the key went between TYPE and HGETALL,
    // and an odd count is no HGETALL's reply. Neither is a receipt's content.
    if (h->isEmpty() || h->size() % 2) {
        s->error = receiptSays(QT_TRANSLATE_NOOP("inventory::ReceiptStatus",
                                                 "HGETALL answered %1, not a receipt's fields "
                                                 "(the key changed while it was read, or an "
                                                 "anomaly)"))
                       .arg(redis::replyShape(*hgetall));
        return;
    }
    QList<QByteArray> shown;
    std::optional<QByteArray> remainingField, quantityField;
    for (qsizetype i = 0; i + 1 < h->size(); i += 2) {
        const auto field = h->at(i).string(), value = h->at(i + 1).string();
        if (!field || !value) {
            s->error = (field ? value.error() : field.error()).readFailure();
            return;
        }
        const auto v = h->at(i + 1).asInteger();
        if (*field == "remaining") {
            s->remaining = v;
            remainingField = *value;
        } else if (*field == "quantity") {
            s->quantity = v;
            quantityField = *value;
        } else if (*field == "time") {
            s->recordedTime = v;
        }
        shown << *field + '=' + *value;
    }
    s->rawValue = shown.join(' ');
    s->form = receiptForm(s->type, remainingField, quantityField);
}

} // namespace

ReceiptStatus decodeDirectReceipt(const QByteArray &key, const QList<redis::ReplyResult> &r)
{
    ReceiptStatus s;
    s.key = key;
    s.source = ViaDirect;
    if (r.size() != 4) {
        s.error = receiptSays(QT_TRANSLATE_NOOP("inventory::ReceiptStatus", "incomplete reply"));
        return s;
    }
    for (int i : {0, 1})
        if (!r.at(i).ok()) {
            s.error = errorText(r.at(i));
            return s;
        }
    const auto type = r.at(0)->string();
    const auto ttl = r.at(1)->integer();
    if (!type || !ttl) {
        s.error = (type ? ttl.error() : type.error()).readFailure();
        return s;
    }
    s.type = *type;
    s.ttlSeconds = *ttl;
    s.exists = s.type != "none";
    s.form = receiptForm(s.type);
    if (!s.exists) {
        s.ttlSeconds = -2;
        return s;
    }
    if (s.type == "string")
        readStringReceipt(&s, r.at(2));
    else if (s.type == "hash")
        readHashReceipt(&s, r.at(3));
    return s;
}

void checkReceipt(redis::CommandSender &sender, const QByteArray &key, QObject *context,
                  std::function<void(const ReceiptStatus &)> done, int timeoutMs)
{
    // The FUNCTION LIST is read each time: a library load may have added or removed the
    // receipt function since the last check.
    QPointer<QObject> guard(context);
    sender.send(
        {"FUNCTION", "LIST"}, context,
        [&sender, key, context, guard, done, timeoutMs](const redis::ReplyResult &list) {
            if (!guard)
                return;
            if (!hasReceiptFunction(list)) {
                readDirectly(sender, key, context, done, timeoutMs);
                return;
            }
            sender.send(
                {"FCALL_RO", ReceiptFunctionName, "1", key}, context,
                [&sender, key, context, done, timeoutMs](const redis::ReplyResult &r) {
                    if (r.ok() && !r->isError()) {
                        finish(decodeReceiptFunctionReply(key, r.value()), done);
                    } else if (r.ok() || r.error().kind == redis::RedisError::Kind::Server) {
                        // Removed or replaced since FUNCTION LIST: read the key instead.
                        readDirectly(sender, key, context, done, timeoutMs);
                    } else {
                        ReceiptStatus s;
                        s.key = key;
                        s.source = ViaFunction;
                        s.error = r.error().readFailure();
                        finish(s, done);
                    }
                },
                timeoutMs);
        },
        timeoutMs);
}

ReceiptStatus checkReceiptBlocking(redis::CommandSender &sender, const QByteArray &key,
                                   int timeoutMs)
{
    return redis::blockUntilReply<ReceiptStatus>(
        [&](QObject *context, auto done) { checkReceipt(sender, key, context, done, timeoutMs); });
}

} // namespace inventory
