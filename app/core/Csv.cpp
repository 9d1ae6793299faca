#include "Csv.h"

#include <QByteArrayView>
#include <algorithm>

namespace core {

namespace {
bool runsAsFormula(const QByteArray &b)
{
    if (b.isEmpty() || !QByteArrayView("=+-@\t\r").contains(b.front()))
        return false;
    const QByteArrayView digits = QByteArrayView(b).sliced(1);
    const bool negativeInteger =
        b.front() == '-' && !digits.isEmpty() && digits.front() != '0'
        && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
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
