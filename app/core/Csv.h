// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

namespace core {

// One CSV cell (RFC 4180), safe to open in a spreadsheet.
// OWASP "CSV Injection": a spreadsheet runs a cell that begins with =, +, -, @, a tab or a
// carriage return as a formula. Such a cell gets a leading ' (the spreadsheet then takes it as
// text), unless it is a canonical integer: a negative stock "-5" is a number, not a formula, and
// stays "-5". Every other cell keeps its exact bytes, quoted when it holds a comma, a quote, a
// line break or edge spaces.
QByteArray csvCell(QByteArray bytes);

} // namespace core
