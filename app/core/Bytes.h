// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

namespace core {

// Shows arbitrary bytes safely: printable ASCII and valid UTF-8 as is, everything else as
// \xNN, \n, \t ... (and then a backslash as \\); cut at maxChars with an ellipsis.
// maxChars <= 0 means no limit.
QString escapeBytes(const QByteArray &bytes, int maxChars = 0);

// Quotes one argument for a POSIX shell so that redis-cli receives exactly these bytes.
QString shellQuote(const QByteArray &arg);

} // namespace core
