// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "redis/ClusterTopology.h"

#include <QStringList>

namespace profiles {

// A profile's announced-address map as people write it: entries "announced = reachable", one a
// line or comma separated, each side host:port or a bare host (e.g. a name set with
// cluster-announce-hostname) that keeps the port. Cluster nodes behind NAT or in containers
// announce addresses this machine cannot reach; the router connects to the mapped ones.

// The entries, normalised to "announced=reachable"; a bad entry is refused with its line and
// what to write instead, and nothing is kept; in both copies (the profile form shows `.text`,
// the CLI prints `.english`).
core::Result<QStringList, core::Sentence> parseAnnouncedEntries(const QString &text);
// For an edit box: one entry a line, "announced = reachable".
QString announcedEntriesText(const QStringList &entries);
// For the command line: "a=b,c=d".
QString announcedEntriesArgument(const QStringList &entries);
// The map the router uses (empty when an entry does not parse: validate first).
redis::AnnouncedAddressMap announcedMapOf(const QStringList &entries);

} // namespace profiles
