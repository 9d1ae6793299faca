// SPDX-License-Identifier: GPL-3.0-or-later
#include "Csv.h"

#include "CanonicalInteger.h"

#include <QByteArrayView>

namespace core {

namespace {
bool runsAsFormula(const QByteArray &b)
{
    if (b.isEmpty() || !QByteArrayView("=+-@\t\r").contains(b.front()))
        return false;
    const bool negativeInteger = b.front() == '-' && hasCanonicalIntegerShape(b);
    return !negativeInteger;
}
} // namespace

QByteArray csvCell(QByteArray bytes)
{
    if (runsAsFormula(bytes))
        bytes.prepend('\'');
    if (bytes.contains(',') || bytes.contains('"') || bytes.contains('\n') || bytes.contains('\r')
        || (!bytes.isEmpty() && (bytes.front() == ' ' || bytes.back() == ' ')))
        return '"' + bytes.replace("\"", "\"\"") + '"';
    return bytes;
}

} // namespace core
