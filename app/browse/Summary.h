// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "KeyspaceStore.h"

namespace browse {

// The store's totals recomputed from scratch with one pass over every row. The store keeps
// the same numbers current as it changes (KeyspaceStore::totals()); this is the reference
// the tests hold it to.
InventorySummary summarize(const KeyspaceStore &store);

} // namespace browse
