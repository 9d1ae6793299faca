// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RedisFixture.h"

#include <QObject>
#include <QTest>

// Nothing observable changed since `before` (TTLs may only have run down). For use in a
// ContractTest, whose snap() takes the snapshot to compare with.
#define VERIFY_NOTHING_WRITTEN(before)                                                             \
    do {                                                                                           \
        const QString diff_ = testsupport::snapshotDifference(before, snap());                     \
        QVERIFY2(diff_.isEmpty(), qPrintable(QStringLiteral("written: ") + diff_));                \
    } while (false)

namespace testsupport {

// What the contract tests of functions/ share: one standalone redis-server and one client for
// the whole test, the keys each test watches to prove that a call wrote nothing, and the
// checks of a refused call. A test derives from it and keeps its own private slots.
class ContractTest : public QObject
{
    Q_OBJECT

protected:
    // One SKU's stock and two of its orders' receipts: one hash tag, so one cluster slot.
    static inline const QByteArray Stock = "stock:{42}:available";
    static inline const QByteArray Receipt = "idem:{42}:9001";
    static inline const QByteArray OtherReceipt = "idem:{42}:9002";

    explicit ContractTest(QList<QByteArray> watchedKeys, QObject *parent = nullptr);

    // initTestCase: starts the server and connects. Go on only if !QTest::currentTestFailed().
    void startServer();
    // initTestCase: startServer(), then FUNCTION LOAD REPLACE functions/inventory_lib_v1.lua.
    void startWithLibrary();
    // init: an empty database (FLUSHALL SYNC).
    void flushAll();

    QString run(const redis::Command &command) { return render(m_c->call(command)); }
    QString set(const QByteArray &key, const QByteArray &value) { return run({"SET", key, value}); }
    // The watched keys and the whole database.
    Snapshot snap() { return snapshot(*m_c, m_watched); }

    // The command replies exactly `reply` (as render() writes it) and writes nothing.
    void expectUnchanged(const redis::Command &command, const QString &reply);
    // A server error reply (not a transport failure, so not an outcome unknown) with exactly
    // this message; its code is the message's first word.
    void expectServerError(const redis::ReplyResult &r, const QString &message);
    // The command is refused with this message, and nothing is written.
    void expectRefused(const redis::Command &command, const QString &message);
    // A client of the ACL user "partial", set afresh to `rules` (e.g. "+@all", "-set").
    std::unique_ptr<redis::RedisClient> connectAs(const QList<QByteArray> &rules);

    StandaloneRedis m_redis;
    std::unique_ptr<redis::RedisClient> m_c;

private:
    QList<QByteArray> m_watched;
};

// The contract test of a deduction function of inventory_lib_v1 (inventory_deduct_v1, _v2):
// FCALL <function> 2 <stock key> <receipt key> <quantity> <ttl seconds>.
class DeductionContractTest : public ContractTest
{
    Q_OBJECT

protected:
    explicit DeductionContractTest(QByteArray function, QObject *parent = nullptr);

    redis::Command deductCommand(const QByteArray &quantity, const QByteArray &ttl,
                                 const QByteArray &receipt = Receipt) const;
    redis::ReplyResult deduct(const QByteArray &quantity, const QByteArray &ttl,
                              const QByteArray &receipt = Receipt)
    {
        return m_c->call(deductCommand(quantity, ttl, receipt));
    }
    // The current row of addPartialPermissionRows(): with stock 100, a deduction by such a user
    // is refused with the row's error before any write; the same call by the default user
    // then deducts, so the permission was the only reason.
    void checkPartialPermissionRow();

    const QByteArray m_function;
};

// Rows the contracts share: each adds its columns and rows to the current _data function.

// Column "quantity" (or the one named): every class of text that is not a canonical unsigned
// decimal within the contracts' bounds for a quantity or a ttl (sign, space, point,
// exponent, leading zero, zero, too many digits, above every bound, ...).
void addInvalidNumberRows(const char *column = "quantity");
// Columns quantity, ttl, error: the arguments a deduction function refuses, checked in
// order (quantity first): each invalid number as the quantity and as the ttl, and the values
// just above each bound.
void addInvalidArgumentRows();
// Columns args (after FCALL <function>), error: the key and argument counts a deduction
// function (2 keys, 2 arguments) refuses.
void addDeductionCountRows(const QByteArray &stock, const QByteArray &receipt,
                           const QByteArray &otherReceipt);
// Column setup: commands that leave `stock` holding what no deduction accepts as stock (a
// non-canonical string, one above 1,000,000,000, another type): "ERR invalid stock".
void addInvalidStockRows(const QByteArray &stock);
// Column setup: commands that leave `receipt` holding what no reader accepts as an order
// receipt (a hash without canonical remaining and quantity, a type other than string and
// hash): "ERR invalid receipt".
void addInvalidReceiptRows(const QByteArray &receipt);
// Columns stock, quantity, ttl, remaining: deductions {1, remaining}.
void addDeductionRows();
// The current row of addDeductionRows(), in a test function.
struct DeductionRow
{
    QByteArray stock;
    QByteArray quantity;
    QByteArray ttl;
    qint64 remaining;
};
DeductionRow deductionRow();
// Columns stock, quantity: a stock below the quantity, {0, stock}.
void addInsufficientRows();
// Columns rules (ACL SETUSER rules of the calling user), error (the reply starts with it):
// a user denied one of `writes` (the function's writes, in order), a user who may write the
// stock key but not the receipt key, a user denied a read the function makes.
void addPartialPermissionRows(const QList<QByteArray> &writes);

} // namespace testsupport
