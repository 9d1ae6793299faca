#include "EventDispatcher.h"

#include <QtGlobal>

namespace core {

void preferFastEventDispatcher()
{
    if (!qEnvironmentVariableIsSet("QT_NO_GLIB"))
        qputenv("QT_NO_GLIB", "1");
}

} // namespace core
