#pragma once

namespace core {

// Call first thing in main(), before the application object exists. Selects Qt's plain UNIX
// event dispatcher instead of the GLib one: the transport thread wakes once per burst of
// replies, and GLib's dispatcher made every wake-up several times dearer (scripts/bench
// transport: 0.55x vs 0.90x of redis-benchmark). An explicit QT_NO_GLIB in the environment wins.
void preferFastEventDispatcher();

} // namespace core
