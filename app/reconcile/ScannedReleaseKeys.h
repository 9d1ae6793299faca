// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "inventory/KeySchema.h"

#include <QList>
#include <QSet>
#include <optional>

namespace reconcile {

// The release keys (the profile's release template, rel:{<sku>}:<order> by default) the
// inventory scan passed on its walk (InventoryScan::Options::onKeys), so that the comparison
// needs no EXISTS per ledger row. What it proves is what the scan saw: a key listed existed
// when its page was read; a key not listed did not exist when the walk passed where it would
// be, provided the walk finished and its MATCH covers the key. A release written after that is
// not seen: the run reads the key again (EXISTS) before it calls anything a release candidate.
// Memory: the keys themselves (releases are few; every live release key in the worst case).
class ScannedReleaseKeys
{
public:
    // The schema the inventory scan reads with (its MATCH is InventoryLoader::matchFor's).
    explicit ScannedReleaseKeys(const inventory::KeySchema &schema);

    // A page of keys as SCAN returned them.
    void note(const QList<QByteArray> &keys);
    // The walk ran to its end on every node: from now on a key not listed is known absent.
    void setWalkComplete(bool complete) { m_complete = complete; }

    // true: listed by the scan; false: the scan walked where it would be and did not list it;
    // nullopt: not known (the walk did not finish, or its MATCH excludes the key).
    std::optional<bool> listed(const QByteArray &releaseKey) const;
    qsizetype size() const { return m_keys.size(); }

private:
    QByteArray m_prefix, m_suffix; // the release template's text around its placeholders
    QByteArray m_scanMatch;
    QSet<QByteArray> m_keys;
    bool m_complete = false;
};

} // namespace reconcile
