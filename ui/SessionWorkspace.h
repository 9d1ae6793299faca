// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "browse/InventoryScan.h"

#include <QObject>

namespace ui {

// What the window's panels share about one session's keys, so that no panel owns state
// another one reads: the keyspace image that the Keys tab scans and that the Deductions tab
// (SKU completion), the Charts tab (receipt expiry) and the Readiness tab (key rules) read.
// Owned by the window; it outlives every panel and goes before the session.
class SessionWorkspace : public QObject
{
    Q_OBJECT
public:
    // `reads` (not owned, must outlive this object) is what the scan sends through: give it
    // a sender that cannot write (session::ConsoleSession::scanReader()).
    SessionWorkspace(redis::CommandSender &reads, inventory::KeySchema schema,
                     QObject *parent = nullptr);

    browse::InventoryScan &inventoryScan() { return m_scan; }
    const inventory::SkuDirectory &skuDirectory() const { return m_scan.skuDirectory(); }

private:
    browse::InventoryScan m_scan;
};

} // namespace ui
