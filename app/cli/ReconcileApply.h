// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// inventory-cli reconcile --apply (issue 32): the release candidates a run found, each released
// once through inventory_release_v1 by the Repairer (the write gate, the write-ahead audit
// record with the finding it repairs, the outcome decoded at one boundary), or, in a dry run,
// the exact FCALL each would send. Only release candidates: a missing receipt or a quantity
// that differs needs a person's judgement and is never repaired here.

#include "RepairVerb.h"
#include "reconcile/Finding.h"

#include <QJsonArray>

namespace cli {

struct ReleaseStep
{
    reconcile::Finding finding;
    inventory::RepairPlan plan;
    std::optional<inventory::RepairResult> result;         // nullopt: not sent
    std::optional<inventory::RepairSettlement> settlement; // what the release key proves
    QString notSent; // why nothing was sent for it ("dry run" aside)
};

// One step per release candidate, its FCALL built from the profile's key schema; `ttl`: the
// release key's, in seconds. The finding's sentence is the audit reason.
std::vector<ReleaseStep> planReleases(const std::vector<reconcile::Finding> &candidates,
                                      const inventory::KeySchema &schema, const QByteArray &ttl,
                                      const QString &ledger);

// Sends them in order through `sender` (gated and unlocked). A contract's answer (released,
// already released, no receipt, another quantity, stock missing) goes on to the next; anything
// else (a refusal such as NOPERM, a lost reply, nothing sent) stops there, and the rest are
// not sent. A lost reply is never resent: `settle` reads the release key on another connection.
void applyReleases(
    std::vector<ReleaseStep> &steps, redis::CommandSender &sender,
    const inventory::DeductionContext &ctx,
    const std::function<inventory::RecordReading(const inventory::RepairPlan &)> &settle);

// Exit code after --apply: 3 when an outcome is unknown (or may have written, or nothing
// could be sent), 1 when divergences remain (candidates not released, and every other class,
// which --apply never repairs), else 0.
int applyExitCode(const std::vector<ReleaseStep> &steps, qint64 divergent);

QJsonArray releasesJson(const std::vector<ReleaseStep> &steps, bool applied,
                        const QString &auditPath);
void printReleasesText(QTextStream &out, const std::vector<ReleaseStep> &steps, bool applied,
                       const QString &auditPath);

} // namespace cli
