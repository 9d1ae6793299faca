// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace core {

// argv as UTF-8 text, or which argument is not UTF-8. Both front ends refuse such an argument
// instead of decoding it: QString::fromLocal8Bit would put U+FFFD in place of each bad byte,
// so two different order ids ($'o-\xfe', $'o-\xff') would become one (issue 14, item 6).
struct DecodedArguments
{
    QStringList arguments; // argv[0] included; complete only when badArgument is empty
    // "argument 3", "the value of --order (argument 3)" or "the value of --order": names the
    // argument without echoing it, since it may hold a password (--url).
    QString badArgument;
};
DecodedArguments decodeUtf8Arguments(int argc, const char *const *argv);

} // namespace core
