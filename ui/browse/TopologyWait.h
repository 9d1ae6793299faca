// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <utility>

namespace ui {

// Holds a scan back until the session knows whether the server is a cluster: started before
// discovery, it would walk the seed node alone and present a part of the keyspace as the
// whole. The last action asked for runs once the topology is known.
class TopologyWait
{
public:
    bool known() const { return m_known; }
    // Runs `action` now and returns true, or keeps it (replacing one kept before) and
    // returns false.
    bool runOrKeep(std::function<void()> action);
    void setKnown(bool known);

private:
    bool m_known = true;
    std::function<void()> m_kept;
};

} // namespace ui
