// SPDX-License-Identifier: GPL-3.0-or-later
#include "Wording.h"

#include <QCoreApplication>

namespace core {

QString word(Wording wording, const char *context, const char *source)
{
    return wording == Wording::English ? QString::fromUtf8(source)
                                       : QCoreApplication::translate(context, source);
}

} // namespace core
