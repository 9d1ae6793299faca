// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChangeLease.h"

#include "FunctionsLog.h"
#include "redis/ResultReads.h"
#include "redis/Slot.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSysInfo>

#include <pwd.h>
#include <unistd.h>

namespace functions {

namespace {

// The value is passed to both scripts as ARGV[1], never spliced into the script text.
constexpr const char *RenewScript = "if redis.call('GET', KEYS[1]) == ARGV[1] then "
                                    "return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0";
constexpr const char *ReleaseScript =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

QString leaseOsUser()
{
    const passwd *pw = ::getpwuid(::getuid());
    return pw ? QString::fromLocal8Bit(pw->pw_name) : QString::number(::getuid());
}

QByteArray leaseValue(const QString &library, const QString &action)
{
    const quint64 token[2] = {QRandomGenerator::system()->generate64(),
                              QRandomGenerator::system()->generate64()};
    return QJsonDocument(
               QJsonObject{
                   {QStringLiteral("holder"), QStringLiteral("%1 (pid %2 on %3, user %4)")
                                                  .arg(QCoreApplication::applicationName())
                                                  .arg(QCoreApplication::applicationPid())
                                                  .arg(QSysInfo::machineHostName(), leaseOsUser())},
                   {QStringLiteral("library"), library},
                   {QStringLiteral("action"), action},
                   {QStringLiteral("since"),
                    QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
                   {QStringLiteral("token"),
                    QString::fromLatin1(
                        QByteArray(reinterpret_cast<const char *>(token), sizeof token).toHex())}})
        .toJson(QJsonDocument::Compact);
}

core::Sentence leaseSaid(const char *source)
{
    return core::Sentence::translated("functions::ChangeLease", source);
}

// "held by inventory-cli (pid 42 on host, user ops) for a load of inventory_lib_v1 since
// 2026-12-02 10:00:01 UTC (12 s ago); it lapses in 48 s unless its holder renews it"
core::Sentence holderText(const redis::ReplyResult &valueReply, const redis::ReplyResult &pttl)
{
    const auto read = redis::stringOf(valueReply);
    const QByteArray value = read ? *read : QByteArray();
    core::Sentence who;
    const QJsonObject o = QJsonDocument::fromJson(value).object();
    const QDateTime since =
        QDateTime::fromString(o.value(QStringLiteral("since")).toString(), Qt::ISODateWithMs);
    if (o.contains(QStringLiteral("holder")) && since.isValid())
        who = leaseSaid(QT_TRANSLATE_NOOP("functions::ChangeLease",
                                          "held by %1 for a %2 of %3 since %4 UTC (%5 s ago)"))
                  .arg(o.value(QStringLiteral("holder")).toString(),
                       o.value(QStringLiteral("action")).toString(),
                       o.value(QStringLiteral("library")).toString(),
                       since.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                       qMax<qint64>(0, since.secsTo(QDateTime::currentDateTimeUtc())));
    else
        who = leaseSaid(QT_TRANSLATE_NOOP("functions::ChangeLease",
                                          "held by an unknown holder (value '%1')"))
                  .arg(QString::fromUtf8(value.left(80)).toHtmlEscaped());
    const auto ms = redis::integerOf(pttl);
    if (!ms)
        return leaseSaid(
                   QT_TRANSLATE_NOOP("functions::ChangeLease", "%1; when it lapses is unknown"))
            .arg(who);
    if (*ms < 0)
        return leaseSaid(QT_TRANSLATE_NOOP("functions::ChangeLease",
                                           "%1; it has no expiry, so it will not lapse by itself"))
            .arg(who);
    return leaseSaid(QT_TRANSLATE_NOOP("functions::ChangeLease",
                                       "%1; it lapses in %2 s unless its holder renews it"))
        .arg(who, (*ms + 999) / 1000);
}

} // namespace

QByteArray leaseKeyForSlots(const std::function<bool(int slot)> &served)
{
    for (int n = 0; n < 1000000; ++n) {
        const QByteArray tag = QByteArray::number(n);
        if (served(redis::keySlot(tag)))
            return QByteArray(ChangeLockKey) + ":{" + tag + '}';
    }
    return ChangeLockKey;
}

ChangeLease::ChangeLease(int timeoutMs, QObject *parent)
    : QObject(parent)
    , m_timeoutMs(timeoutMs)
    , m_leaseMs(std::max(MinLeaseMs, 4 * timeoutMs))
{
    m_renewal.setInterval(m_leaseMs / 3);
    connect(&m_renewal, &QTimer::timeout, this, &ChangeLease::renewAll);
}

ChangeLease::~ChangeLease()
{
    // A change dropped while holding (a wizard closed): given back without waiting for an
    // answer, through connections that still exist (a session may have closed its own
    // first); otherwise the key lapses within leaseMs().
    for (qsizetype i = 0; i < m_nodes.size(); ++i)
        if (m_alive.value(i))
            m_nodes.at(i).loadVia().sendBatch(
                {{"EVAL", ReleaseScript, "1", m_nodes.at(i).lockKey, m_value}}, nullptr,
                [](const QList<redis::ReplyResult> &) {});
}

void ChangeLease::acquire(const QList<ChangeTarget> &nodes, const QString &library,
                          const QString &action, std::function<void(const core::Sentence &)> done)
{
    if (held())
        return done({});
    m_value = leaseValue(library, action);
    const QByteArray ms = QByteArray::number(m_leaseMs);
    auto refusals = std::make_shared<core::Sentences>();
    auto taken = std::make_shared<QList<ChangeTarget>>();
    auto pending = std::make_shared<int>(int(nodes.size()));
    if (nodes.isEmpty())
        return done({});
    for (const ChangeTarget &n : nodes) {
        // One round trip: the holder and its remaining time are read with the attempt.
        n.loadVia().sendBatch(
            {{"SET", n.lockKey, m_value, "NX", "PX", ms}, {"GET", n.lockKey}, {"PTTL", n.lockKey}},
            this,
            [this, n, nodes, refusals, taken, pending, done](const QList<redis::ReplyResult> &r) {
                const redis::ReplyResult set = replyAt(r, 0);
                if (set.ok() && set->isString())
                    *taken << n;
                else if (set.ok() && set->isNil())
                    *refusals << leaseSaid(QT_TR_NOOP("the change lock on %1 (key %2) is %3"))
                                     .arg(n.address, QString::fromUtf8(n.lockKey),
                                          holderText(replyAt(r, 1), replyAt(r, 2)));
                else
                    *refusals << leaseSaid(QT_TR_NOOP("the change lock on %1 (key %2) could not "
                                                      "be taken: %3"))
                                     .arg(n.address, QString::fromUtf8(n.lockKey),
                                          set.ok() ? set->debugString(60)
                                                   : set.error().toString().english);
                if (--*pending > 0)
                    return;
                if (refusals->isEmpty()) {
                    m_nodes = *taken;
                    m_alive.clear();
                    for (const ChangeTarget &t : std::as_const(m_nodes))
                        m_alive << QPointer<QObject>(dynamic_cast<QObject *>(&t.loadVia()));
                    m_renewal.start();
                    qCInfo(lcFunctions) << "change lock taken on" << m_nodes.size() << "node(s)";
                    return done(core::Sentence{});
                }
                // None or all: what was taken is given back (on every node, since a SET whose
                // reply was lost may have taken it); the compare-and-delete spares others'.
                m_nodes = nodes;
                release([refusals, done] {
                    done(leaseSaid(QT_TR_NOOP("%1. Nothing was changed: wait for that change to "
                                              "finish and run this again; a holder that died "
                                              "leaves a lock that lapses by itself when its "
                                              "time above runs out"))
                             .arg(core::joined(*refusals, QStringLiteral("; "))));
                });
            },
            m_timeoutMs);
    }
}

void ChangeLease::release(std::function<void()> done)
{
    m_renewal.stop();
    const QList<ChangeTarget> nodes = std::exchange(m_nodes, {});
    if (nodes.isEmpty())
        return done();
    auto pending = std::make_shared<int>(int(nodes.size()));
    for (const ChangeTarget &n : nodes)
        n.loadVia().sendBatch(
            {{"EVAL", ReleaseScript, "1", n.lockKey, m_value}}, this,
            [pending, done, address = n.address](const QList<redis::ReplyResult> &r) {
                if (const redis::ReplyResult reply = replyAt(r, 0); !reply.ok())
                    qCWarning(lcFunctions) << "the change lock on" << address
                                           << "was not given back (it lapses by itself):"
                                           << reply.error().toString().english;
                if (--*pending == 0)
                    done();
            },
            m_timeoutMs);
}

redis::Command ChangeLease::renewCommand(const ChangeTarget &node) const
{
    return {"EVAL", RenewScript, "1", node.lockKey, m_value, QByteArray::number(m_leaseMs)};
}

QList<redis::Command> ChangeLease::commandsFor(const ChangeTarget &node)
{
    const QByteArray ms = QByteArray::number(MinLeaseMs); // for ACL DRYRUN: any value
    const QByteArray &k = node.lockKey;
    return {{"SET", k, "value", "NX", "PX", ms},        {"GET", k},         {"PTTL", k},
            {"EVAL", RenewScript, "1", k, "value", ms}, {"PEXPIRE", k, ms}, {"DEL", k}};
}

QList<redis::Command> ChangeLease::checkCommands(const ChangeTarget &node)
{
    return {{"GET", node.lockKey}, {"PTTL", node.lockKey}};
}

core::Sentence ChangeLease::heldBy(const QString &address, const redis::ReplyResult &value,
                                   const redis::ReplyResult &pttl) const
{
    const auto v = redis::stringOf(value);
    const auto ms = redis::integerOf(pttl);
    const auto say = [](const char *source) {
        return core::Sentence::translated("functions::ChangeLease", source);
    };
    core::Sentence why;
    if (!value.ok() || !pttl.ok())
        why = (value.ok() ? pttl : value).error().toString();
    else if (!v || *v != m_value)
        why = say(QT_TR_NOOP("it lapsed or was taken by another change"));
    else if (!ms || *ms <= m_timeoutMs)
        why = say(QT_TR_NOOP("it lapses in %1 ms, before the write could be sure to run"))
                  .arg(ms ? *ms : 0);
    if (why.isEmpty())
        return {};
    return say(QT_TR_NOOP("the change lock on %1 is no longer held by this change (%2): "
                          "nothing was sent; start the change again"))
        .arg(address, why);
}

void ChangeLease::renewAll()
{
    for (const ChangeTarget &n : std::as_const(m_nodes))
        n.loadVia().sendBatch(
            {renewCommand(n)}, this,
            [address = n.address](const QList<redis::ReplyResult> &r) {
                const redis::ReplyResult reply = replyAt(r, 0);
                const auto n = redis::integerOf(reply);
                if (!n || *n != 1)
                    qCWarning(lcFunctions)
                        << "the change lock on" << address << "could not be renewed:"
                        << (reply.ok() ? reply->debugString(60) : reply.error().toString().english);
            },
            m_timeoutMs);
}

} // namespace functions
