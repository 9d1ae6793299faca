#include "DataPaths.h"

#include <QStandardPaths>

namespace core {

QString sharedDataDirectory()
{
    const QString overridden = qEnvironmentVariable("INVENTORY_DATA_DIR");
    if (!overridden.isEmpty())
        return overridden;
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
           + QStringLiteral("/inventory-console");
}

} // namespace core
