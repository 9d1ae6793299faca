#pragma once

#include <QString>

namespace core {

// The folder the console and inventory-cli share for what they write: the audit log and
// library backups. One folder for both front ends, so that a deduction made from the command
// line shows up in the GUI's audit viewer. INVENTORY_DATA_DIR overrides it (tests, kiosks).
QString sharedDataDirectory();

} // namespace core
