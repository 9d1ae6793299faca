// SPDX-License-Identifier: GPL-3.0-or-later
#include "EventDispatcher.h"

#include <QByteArray>

namespace core {

void preferFastEventDispatcher()
{
    if (!qEnvironmentVariableIsSet("QT_NO_GLIB"))
        qputenv("QT_NO_GLIB", QByteArray("1"));
}

} // namespace core
