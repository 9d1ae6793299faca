// SPDX-License-Identifier: GPL-3.0-or-later
// core::Result says which side a value is on, and refuses to guess: a string literal returned
// from a Result<bool, QString> function would otherwise convert to `true`, a success.
#include "core/Result.h"

#include <QByteArray>
#include <QString>
#include <QTest>

#include <type_traits>

using core::Result;

// What must not compile: a value that converts to both sides.
static_assert(!std::is_constructible_v<Result<bool, QString>, const char *>);
static_assert(!std::is_constructible_v<Result<bool, QString>, const char (&)[4]>);
// What must: exactly one side, or said with ok()/err().
static_assert(std::is_constructible_v<Result<bool, QString>, bool>);
static_assert(std::is_constructible_v<Result<bool, QString>, QString>);
static_assert(std::is_constructible_v<Result<bool, QString>, core::Err<const char *>>);
// An exact type wins over a conversion: QByteArray converts to QString, and is still a value.
static_assert(std::is_constructible_v<Result<QByteArray, QString>, QByteArray>);

namespace {
Result<bool, QString> refuse()
{
    return core::err("no such file");
}
Result<QByteArray, QString> bytes()
{
    return QByteArray("abc");
}
Result<QString, QString> sameTypes(bool good)
{
    if (good)
        return core::ok(QStringLiteral("value"));
    return core::err(QStringLiteral("error"));
}
} // namespace

class TstResult : public QObject
{
    Q_OBJECT

private slots:
    void errIsAnError()
    {
        const auto r = refuse();
        QVERIFY(!r.ok());
        QCOMPARE(r.error(), QStringLiteral("no such file"));
    }
    void exactTypeIsAValue()
    {
        const auto r = bytes();
        QVERIFY(r.ok());
        QCOMPARE(r.value(), QByteArray("abc"));
    }
    void okAndErrWhenBothSidesAreOneType()
    {
        QCOMPARE(sameTypes(true).value(), QStringLiteral("value"));
        QCOMPARE(sameTypes(false).error(), QStringLiteral("error"));
    }
};

QTEST_GUILESS_MAIN(TstResult)
#include "tst_result.moc"
