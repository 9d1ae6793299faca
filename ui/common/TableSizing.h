// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QTableView;

namespace ui {

// Fixes a table's height to its rows (at least minRows, at most maxRows, then it scrolls), so
// a short list does not leave an empty pane under it.
void fitHeightToRows(QTableView *view, int minRows, int maxRows);

} // namespace ui
