// SPDX-License-Identifier: GPL-3.0-or-later
#include "ScannedReleaseKeys.h"

#include "browse/Glob.h"
#include "browse/InventoryLoader.h"

namespace reconcile {

ScannedReleaseKeys::ScannedReleaseKeys(const inventory::KeySchema &schema)
    : m_scanMatch(browse::InventoryLoader::matchFor(schema))
{
    // The template is valid (KeySchema::withRepairTemplates): <sku> first, <order> once, and
    // text of its own before <sku>, which no receipt key starts with.
    const QByteArray t = schema.releaseTemplate().toUtf8();
    m_prefix = t.left(t.indexOf("<sku>"));
    m_suffix = t.mid(t.indexOf("<order>") + 7);
}

void ScannedReleaseKeys::note(const QList<QByteArray> &keys)
{
    // A key of another family that happens to fit costs memory, never a verdict: lookups ask
    // for exact release keys.
    for (const QByteArray &k : keys)
        if (k.startsWith(m_prefix) && k.endsWith(m_suffix))
            m_keys.insert(k);
}

std::optional<bool> ScannedReleaseKeys::listed(const QByteArray &releaseKey) const
{
    if (m_keys.contains(releaseKey))
        return true;
    if (!m_complete || (!m_scanMatch.isEmpty() && !browse::globMatch(m_scanMatch, releaseKey)))
        return std::nullopt;
    return false;
}

} // namespace reconcile
