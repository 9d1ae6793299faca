// SPDX-License-Identifier: GPL-3.0-or-later
#include "DemoLedger.h"

#include "redis/ResultReads.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>
#include <map>

namespace demo {

namespace {

const QByteArray LedgerSku = "sku-2001"; // the ledger's own SKU, outside the seeded range

// Why the demo's ledger was not planted: the Reconcile tab shows it, the log the English. The
// server's and SQLite's words go in as they are.
core::Sentence ledgerSays(const char *source)
{
    return core::Sentence::translated("demo::DemoLedger", source);
}

struct Line
{
    QByteArray orderId, sku;
    int quantity = 0;
    QString state = QStringLiteral("committed");
};

// The seeded orders that left a receipt, once each (a retried order is one order), with the
// quantity their FCALL asked for.
core::Result<QList<Line>, core::Sentence> receiptedOrders(redis::CommandSender &sender,
                                                          const SeedOptions &options)
{
    std::map<QByteArray, Line> byKey; // sorted: the same lines in the same order every time
    for (const redis::Command &c : buildSeedPlan(options).orders) {
        const QByteArray receipt = c.at(4);
        const QByteArray sku = c.at(3).mid(7, c.at(3).size() - 7 - 11); // stock:{<sku>}:available
        byKey[receipt] = Line{receipt.mid(receipt.lastIndexOf(':') + 1), sku, c.at(5).toInt()};
    }
    QList<redis::Command> exists;
    for (const auto &[key, line] : byKey)
        exists << redis::Command{"EXISTS", key};
    const QList<redis::ReplyResult> replies = sender.callBatch(exists, 30000);
    QList<Line> out;
    qsizetype i = 0;
    for (const auto &[key, line] : byKey) {
        const auto n = i < replies.size() ? redis::integerOf(replies.at(i))
                                          : redis::Decoded<qint64>(redis::RedisError::unexpected(
                                              redis::RedisError::noReply()));
        ++i;
        if (!n)
            return core::err(core::Sentence::plain(QStringLiteral("EXISTS %1: %2"))
                                 .arg(QString::fromUtf8(key), n.error().toString()));
        if (n.value() == 1)
            out << line;
    }
    return out;
}

std::optional<QString> writeLedger(const QString &path, const QList<Line> &lines, qint64 nowMs)
{
    const QString name = QStringLiteral("demo-ledger-%1").arg(quintptr(&lines));
    std::optional<QString> problem;
    {
        // Created empty, 0600, before SQLite opens it: the console's files are its owner's
        // only, and SQLite gives its journal the database's mode.
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly,
                       QFileDevice::ReadOwner | QFileDevice::WriteOwner))
            return file.errorString();
    }
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        if (!db.open())
            problem = db.lastError().text();
        QSqlQuery q(db);
        if (!problem
            && (!q.exec(QStringLiteral("CREATE TABLE orders (order_id TEXT NOT NULL, "
                                       "sku TEXT NOT NULL, quantity INTEGER NOT NULL, "
                                       "state TEXT NOT NULL, created_at TEXT NOT NULL)"))
                || !db.transaction()
                || !q.prepare(QStringLiteral("INSERT INTO orders VALUES (?, ?, ?, ?, ?)"))))
            problem = q.lastError().text();
        for (qsizetype i = 0; !problem && i < lines.size(); ++i) {
            const Line &l = lines.at(i);
            // Spread over the last day, oldest first, as the seed's receipts are.
            const qint64 at = nowMs - (lines.size() - i) * 60000;
            q.addBindValue(QString::fromUtf8(l.orderId));
            q.addBindValue(QString::fromUtf8(l.sku));
            q.addBindValue(l.quantity);
            q.addBindValue(l.state);
            q.addBindValue(QDateTime::fromMSecsSinceEpoch(at, Qt::UTC).toString(Qt::ISODate));
            if (!q.exec())
                problem = q.lastError().text();
        }
        if (!problem && !db.commit())
            problem = db.lastError().text();
    }
    QSqlDatabase::removeDatabase(name);
    return problem;
}

} // namespace

core::Result<DemoLedgerReport, core::Sentence>
plantDemoLedger(redis::CommandSender &sender, const SeedOptions &options, const QString &path)
{
    if (QFileInfo::exists(path))
        return core::err(ledgerSays(QT_TRANSLATE_NOOP("demo::DemoLedger",
                                                      "%1 exists already: the demo ledger is "
                                                      "never written over"))
                             .arg(path));
    auto seeded = receiptedOrders(sender, options);
    if (!seeded)
        return core::err(seeded.error());
    QList<Line> lines = seeded.value();
    if (lines.size() < 3)
        return core::err(ledgerSays(QT_TRANSLATE_NOOP("demo::DemoLedger",
                                                      "the demo database has %1 receipts; seed "
                                                      "it first"))
                             .arg(lines.size()));
    DemoLedgerReport report;
    lines[0].state = QStringLiteral("failed");
    lines[1].state = QStringLiteral("cancelled");
    lines[2].state = QStringLiteral("pending");
    report.expected[QStringLiteral("in_line")] = int(lines.size()) - 3;
    report.expected[QStringLiteral("release_candidate")] = 3; // failed, cancelled, absent

    const qint64 id = options.firstOrderId + options.orderCount + 1000;
    const auto order = [&](int n) {
        return QByteArray::number(id + n);
    };
    const auto receipt = [&](int n) {
        return "idem:{" + LedgerSku + "}:" + order(n);
    };
    const auto release = [&](int n) {
        return "rel:{" + LedgerSku + "}:" + order(n);
    };
    const QByteArray ttl = QByteArray::number(options.receiptWindowSeconds);
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const auto time = [](qint64 s) {
        return QByteArray::number(s) + ".000000";
    };
    // The demo loads the 1.0.0 library, which has no inventory_deduct_v2: its two receipts are
    // written here as v2 writes them (stock decremented, a hash of remaining, quantity and the
    // time), one of them two hours old.
    const QList<redis::Command> plant{
        {"SET", stockKey(LedgerSku), "47"},
        // Recorded as 2; the ledger says 3.
        {"HSET", receipt(0), "remaining", "48", "quantity", "2", "time", time(now - 600)},
        {"EXPIRE", receipt(0), ttl},
        // An order the ledger never heard of.
        {"HSET", receipt(1), "remaining", "47", "quantity", "1", "time", time(now - 7200)},
        {"EXPIRE", receipt(1), ttl},
        {"SET", release(2), "1", "EX", ttl}, // a failed order, given back already
        {"SET", release(3), "1", "EX", ttl}, // a committed order, given back by mistake
    };
    const QList<redis::ReplyResult> replies = sender.callBatch(plant, 30000);
    for (qsizetype i = 0; i < plant.size(); ++i)
        if (i >= replies.size() || !replies.at(i).ok() || replies.at(i)->isError())
            return core::err(ledgerSays(QT_TRANSLATE_NOOP("demo::DemoLedger", "%1 failed: %2"))
                                 .arg(QString::fromUtf8(plant.at(i).mid(0, 2).join(' ')),
                                      i < replies.size() && !replies.at(i).ok()
                                          ? replies.at(i).error().toString()
                                          : ledgerSays(QT_TRANSLATE_NOOP("demo::DemoLedger",
                                                                         "an error reply"))));
    lines << Line{order(0), LedgerSku, 3, QStringLiteral("committed")}
          << Line{order(2), LedgerSku, 1, QStringLiteral("failed")}
          << Line{order(3), LedgerSku, 1, QStringLiteral("committed")}
          << Line{order(4), LedgerSku, 4, QStringLiteral("committed")}
          << Line{order(5), LedgerSku, 1, QStringLiteral("committed")};
    report.expected[QStringLiteral("quantity_differs")] = 1;
    report.expected[QStringLiteral("released")] = 2;
    report.expected[QStringLiteral("missing_receipt")] = 2;
    if (auto problem = writeLedger(path, lines, QDateTime::currentMSecsSinceEpoch()))
        return core::err(
            ledgerSays(QT_TRANSLATE_NOOP("demo::DemoLedger", "cannot write the demo ledger %1: %2"))
                .arg(path, *problem));
    report.rows = int(lines.size());
    return report;
}

} // namespace demo
