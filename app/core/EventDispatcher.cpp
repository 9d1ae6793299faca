#include "EventDispatcher.h"

#include <QtGlobal>

namespace core {

void preferFastEventDispatcher()
{
    if (!qEnvironmentVariableIsSet("QT_NO_GLIB"))
        qputenv("QT_NO_GLIB", QByteArrayLiteral("1"));
}

} // namespace core
