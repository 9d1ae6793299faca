// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace core {

// Call first thing in main(), before the application object exists. Selects Qt's plain UNIX
// event dispatcher instead of the GLib one: the transport thread wakes once per burst of
// replies, and GLib's dispatcher made every wake-up several times dearer (scripts/bench
// transport: 0.55x vs 0.90x of redis-benchmark). An explicit QT_NO_GLIB in the environment wins.
// For inventory-cli (except a run that may read the keyring, which answers through GLib's
// loop) and the transport benchmark only. The console keeps GLib's (GTK themes and
// native dialogs need it): the GUI scan of 1M keys measured alike with both, 8.3-9.2 s and no
// tick over 50 ms in 3 of 4 runs (bench_browse_gui, alternating, load average 8 on 2 cores).
void preferFastEventDispatcher();

} // namespace core
