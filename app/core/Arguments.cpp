// SPDX-License-Identifier: GPL-3.0-or-later
#include "Arguments.h"

#include <QByteArrayView>
#include <QFile>

namespace core {

DecodedArguments decodeUtf8Arguments(int argc, const char *const *argv)
{
    // The program's own path is a file name, decoded as the file system does.
    DecodedArguments d{QStringList{argc > 0 ? QFile::decodeName(argv[0]) : QString()}, {}};
    for (int i = 1; i < argc; ++i) {
        const QByteArrayView raw(argv[i]);
        if (raw.isValidUtf8()) {
            d.arguments << QString::fromUtf8(raw);
            continue;
        }
        const QByteArrayView previous(i > 1 ? argv[i - 1] : "");
        d.badArgument = QStringLiteral("argument %1").arg(i);
        if (raw.startsWith("--") && raw.contains('='))
            d.badArgument = QStringLiteral("the value of %1")
                                .arg(QString::fromUtf8(raw.first(raw.indexOf('='))));
        else if (previous.startsWith("--") && previous.isValidUtf8() && !previous.contains('='))
            d.badArgument = QStringLiteral("the value of %1 (argument %2)")
                                .arg(QString::fromUtf8(previous))
                                .arg(i);
        return d;
    }
    return d;
}

} // namespace core
