// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "browse/ServerEvidence.h"
#include "core/Wording.h"

#include <QCoreApplication>
#include <QList>

namespace reconcile {

// What explains a committed order without a receipt: how long receipts are written to live
// (the profile's receipt TTL) and what each node's eviction policy may remove sooner, read
// from the servers (INFO maxmemory_policy). A node whose read failed makes the sentence say
// "could not read the eviction policy", never a default.
struct ReceiptPolicy
{
    qint64 ttlSeconds = 0;
    QList<browse::ServerEvidence> nodes;

    // "Receipts are written to live 7 days (the profile's receipt TTL); the eviction policy is
    // noeviction on every primary, which never removes one sooner."
    QString sentence(core::Wording wording = core::Wording::Translated) const;
    bool evictionKnown() const;

    Q_DECLARE_TR_FUNCTIONS(reconcile::ReceiptPolicy)
};

// Reads every primary's evidence (one INFO each) through the scan nodes of `sender`.
ReceiptPolicy readReceiptPolicy(redis::CommandSender &sender, qint64 ttlSeconds, int timeoutMs);

// "7 days", "36 h", "15 min", "40 s".
QString durationText(qint64 ms, core::Wording wording = core::Wording::Translated);

} // namespace reconcile
