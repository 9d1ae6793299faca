// SPDX-License-Identifier: GPL-3.0-or-later
#include "KeyAction.h"

#include "BrowseLog.h"
#include "Values.h"
#include "core/Bytes.h"
#include "inventory/DeductionRequest.h"
#include "overview/ServerOverview.h"
#include "redis/ResultReads.h"
#include "redis/Slot.h"

#include <QCoreApplication>
#include <QElapsedTimer>

namespace browse {

namespace {
// A key action's problem and consequence are the dialog's (the window's language; the CLI
// has no key actions). What the reply did is said both ways: the window shows it, and the
// audit record's result keeps the English.
struct KeyActionText
{
    Q_DECLARE_TR_FUNCTIONS(browse::KeyAction)
};

core::Sentence actionSaid(const char *source)
{
    return core::Sentence::translated("browse::KeyAction", source);
}
constexpr qint64 MaxTtlSeconds = 31536000;
} // namespace

KeyAction KeyAction::setTtl(QByteArray key, qint64 seconds)
{
    return KeyAction{Kind::SetTtl, std::move(key), seconds, {}, {}};
}

KeyAction KeyAction::removeTtl(QByteArray key)
{
    return KeyAction{Kind::RemoveTtl, std::move(key), 0, {}, {}};
}

KeyAction KeyAction::remove(QByteArray key)
{
    return KeyAction{Kind::Delete, std::move(key), 0, {}, {}};
}

KeyAction KeyAction::setStock(QByteArray key, QByteArray value, QString current)
{
    return KeyAction{Kind::SetStock, std::move(key), 0, std::move(value), std::move(current)};
}

QString KeyAction::problem() const
{
    if (key.isEmpty())
        return KeyActionText::tr("no key selected");
    if (kind == Kind::SetTtl && (ttlSeconds < 1 || ttlSeconds > MaxTtlSeconds))
        return KeyActionText::tr("give a TTL from 1 second to 365 days");
    // The rule the functions apply to stock (docs/contracts.md): a repair must leave a value
    // they accept, or it repairs nothing.
    if (kind == Kind::SetStock)
        if (const auto p = inventory::canonicalNumberProblem(stock, 0, MaxStock))
            return KeyActionText::tr("new stock: %1").arg(p->text);
    return {};
}

redis::Command KeyAction::command() const
{
    switch (kind) {
    case Kind::SetTtl:
        return {"EXPIRE", key, QByteArray::number(ttlSeconds)};
    case Kind::RemoveTtl:
        return {"PERSIST", key};
    case Kind::Delete:
        return {"DEL", key};
    case Kind::SetStock:
        // XX: if the key was deleted since it was read, nothing is created (stock is never
        // created by accident). A plain SET also drops a TTL, which a stock key must not have.
        return {"SET", key, stock, "XX"};
    }
    return {};
}

QString KeyAction::commandText() const
{
    QStringList parts;
    for (const QByteArray &a : command())
        parts << core::shellQuote(a);
    return parts.join(QLatin1Char(' '));
}

QString KeyAction::auditAction() const
{
    switch (kind) {
    case Kind::SetTtl:
        return QStringLiteral("expire");
    case Kind::RemoveTtl:
        return QStringLiteral("persist");
    case Kind::Delete:
        return QStringLiteral("delete");
    case Kind::SetStock:
        return QStringLiteral("set_stock");
    }
    return {};
}

QString KeyAction::consequence() const
{
    switch (kind) {
    case Kind::SetTtl:
        return KeyActionText::tr("The key will expire in %1. For a receipt, a retry of its "
                                 "order after that deducts again; a stock key that expires "
                                 "makes every deduction of the SKU answer 'no stock key'.")
            .arg(formatDuration(ttlSeconds * 1000, core::Wording::Translated));
    case Kind::RemoveTtl:
        return KeyActionText::tr("The key will never expire. Right for a stock key; a receipt "
                                 "without a TTL protects its order forever and is never "
                                 "freed.");
    case Kind::Delete:
        return KeyActionText::tr("The key is deleted now. For a receipt, the next retry of its "
                                 "order deducts stock again: do this only for a deliberate "
                                 "re-deduction.");
    case Kind::SetStock:
        return KeyActionText::tr("The stock becomes %1: every deduction of this SKU from now on "
                                 "checks against it. The key keeps its name, loses any TTL, "
                                 "and is not created if it was deleted meanwhile. Receipts are "
                                 "not touched: orders already deducted stay deducted.")
            .arg(problem().isEmpty() ? QString::fromLatin1(stock)
                                     : KeyActionText::tr("the value you enter"));
    }
    return {};
}

core::Sentence KeyAction::describeReply(const redis::Reply &reply) const
{
    const auto count = reply.integer();
    const bool changed = count && *count > 0;
    switch (kind) {
    case Kind::SetTtl:
        return changed
                   ? actionSaid(QT_TRANSLATE_NOOP("browse::KeyAction", "TTL set: expires in %1"))
                         .arg(formatDuration(ttlSeconds * 1000))
                   : actionSaid(QT_TRANSLATE_NOOP("browse::KeyAction",
                                                  "the key no longer exists: nothing changed"));
    case Kind::RemoveTtl:
        return changed ? actionSaid(
                   QT_TRANSLATE_NOOP("browse::KeyAction", "TTL removed: the key no longer expires"))
                       : actionSaid(QT_TRANSLATE_NOOP(
                           "browse::KeyAction",
                           "nothing changed: the key has no TTL or no longer exists"));
    case Kind::Delete:
        return changed ? actionSaid(QT_TRANSLATE_NOOP("browse::KeyAction", "deleted"))
                       : actionSaid(QT_TRANSLATE_NOOP("browse::KeyAction",
                                                      "nothing deleted: the key no longer exists"));
    case Kind::SetStock: // SET ... XX answers OK, or nil when the key did not exist
        return reply.isNil()
                   ? actionSaid(QT_TRANSLATE_NOOP("browse::KeyAction",
                                                  "nothing changed: the stock key no longer "
                                                  "exists"))
                   : actionSaid(QT_TRANSLATE_NOOP("browse::KeyAction", "stock set to %1"))
                         .arg(QString::fromLatin1(stock));
    }
    return {};
}

KeyActionRunner::KeyActionRunner(redis::CommandSender &writer, AuditContext audit, QObject *parent)
    : QObject(parent)
    , m_writer(writer)
    , m_audit(std::move(audit))
{}

QString AuditContext::serverFor(const QByteArray &key, const QString &senderAddress) const
{
    return inventory::serverForSlot(nodeForSlot, server.isEmpty() ? senderAddress : server,
                                    redis::keySlot(key));
}

bool KeyActionRunner::run(const KeyAction &action)
{
    if (m_busy || !action.problem().isEmpty())
        return false;
    m_busy = true;
    // The INFO carries no key: sent with a read of the key, it reaches the node the write goes
    // to (on a cluster the owner of its slot), whose address and run_id the record keeps.
    m_writer.sendBatch(
        {{"EXISTS", action.key}, {"INFO", "server"}}, this,
        [this, action](const QList<redis::ReplyResult> &r) {
            const auto info = redis::stringOf(r.value(1, redis::RedisError::notSent({})));
            send(action, m_audit.serverFor(action.key, m_writer.address()),
                 info ? QString::fromLatin1(overview::parseInfo(*info).value("run_id"))
                      : QString());
        });
    return true;
}

void KeyActionRunner::send(const KeyAction &action, const QString &server, const QString &runId)
{
    const inventory::AuditLog log(m_audit.logPath.isEmpty() ? inventory::AuditLog::defaultPath()
                                                            : m_audit.logPath);
    inventory::AuditRecord rec;
    rec.action = action.auditAction();
    rec.profile = m_audit.profile;
    rec.server = server;
    rec.runId = runId;
    rec.command = action.command();
    // Write-ahead: no record on disk, no command on the wire.
    const auto attempt = log.appendAttempt(rec);
    if (!attempt.ok()) {
        qCWarning(lcBrowse) << "key action not sent:" << attempt.error().english;
        Outcome o;
        o.action = action;
        o.result =
            actionSaid(QT_TRANSLATE_NOOP("browse::KeyAction", "not sent: %1")).arg(attempt.error());
        m_busy = false;
        emit finished(o);
        return;
    }
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    qCInfo(lcBrowse) << "key action" << action.auditAction() << core::escapeBytes(action.key, 80);
    m_writer.send(
        action.command(), this,
        [this, action, log, rec, id = attempt.value().attemptId,
         clock](const redis::ReplyResult &r) mutable {
            Outcome o;
            o.action = action;
            o.ok = r.ok();
            o.outcomeUnknown = !r.ok() && r.error().mayHaveRun();
            if (r.ok())
                o.result = action.describeReply(r.value());
            else if (o.outcomeUnknown)
                o.result = actionSaid(QT_TRANSLATE_NOOP("browse::KeyAction",
                                                        "outcome unknown: %1. Check the key "
                                                        "before trying again."))
                               .arg(r.error().message);
            else if (r.error().kind == redis::RedisError::Kind::NotSent)
                o.result = actionSaid(QT_TRANSLATE_NOOP("browse::KeyAction", "not sent: %1"))
                               .arg(r.error().message);
            else
                o.result =
                    actionSaid(QT_TRANSLATE_NOOP("browse::KeyAction", "refused by the server: %1"))
                        .arg(r.error().toString());

            // After a MOVED the map names the node that finally answered: the
            // run_id read before is another node's.
            if (const QString answered = m_audit.serverFor(action.key, m_writer.address());
                answered != rec.server) {
                rec.server = answered;
                rec.runId.clear();
            }
            rec.result = o.outcomeUnknown ? QStringLiteral("outcome unknown") : o.result.english;
            rec.outcomeUnknown = o.outcomeUnknown;
            rec.durationMs = clock->elapsed();
            const auto written = log.appendOutcome(rec, id);
            if (!written.ok()) {
                o.auditProblem = written.error();
                qCWarning(lcBrowse) << "audit record not written:" << written.error().english;
            }
            m_busy = false;
            emit finished(o);
        });
}

} // namespace browse
