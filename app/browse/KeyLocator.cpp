// SPDX-License-Identifier: GPL-3.0-or-later
#include "KeyLocator.h"

#include "redis/Slot.h"

#include <QCoreApplication>

namespace browse {

int KeyLocator::slotOf(const QByteArray &key)
{
    return redis::keySlot(key);
}

int KeyLocator::nodeIndexOf(int slot) const
{
    return m_topology ? m_topology->ownerOf(slot) : -1;
}

QString KeyLocator::nodeOf(int slot) const
{
    if (!m_topology)
        return {};
    const int owner = m_topology->ownerOf(slot);
    if (owner < 0 || owner >= m_topology->nodes().size())
        return QCoreApplication::translate("browse::KeyLocator", "no node");
    return m_topology->nodes().at(owner).address();
}

} // namespace browse
