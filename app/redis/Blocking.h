// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QEventLoop>
#include <optional>

namespace redis {

// The blocking form of any callback API, for the command line and tests: `start(context,
// done)` begins the work with a context object that lives as long as the wait (so a late
// callback is dropped, never run on a dead frame) and `done(value)` delivers its result. A
// local event loop runs only when the result did not arrive during `start` itself.
template<class T, class Start>
T blockUntilReply(Start &&start)
{
    QEventLoop loop;
    std::optional<T> out;
    start(&loop, [&](const T &value) {
        out = value;
        loop.quit();
    });
    if (!out)
        loop.exec();
    Q_ASSERT(out);
    return std::move(*out);
}

} // namespace redis
