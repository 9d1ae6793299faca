// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ServerEvidence.h"
#include "inventory/AuditLog.h"

namespace browse {

// What the console's own audit log says about an order that has no receipt now: the one
// record that can narrow "it never ran, or its receipt is gone". "Did not happen" only when
// this console's last attempt was never sent; a deduction recorded on a server whose run_id
// no longer answers was lost in a restart or failover. `records` as pairAttempts() gives them.
QString orderAuditNote(const QList<inventory::AuditRecord> &records, const QByteArray &orderId,
                       const QList<ServerEvidence> &servers);

} // namespace browse
