// SPDX-License-Identifier: GPL-3.0-or-later
#include "TopologyWait.h"

namespace ui {

bool TopologyWait::runOrKeep(std::function<void()> action)
{
    if (!m_known) {
        m_kept = std::move(action);
        return false;
    }
    action();
    return true;
}

void TopologyWait::setKnown(bool known)
{
    m_known = known;
    if (known && m_kept)
        std::exchange(m_kept, {})();
}

} // namespace ui
