// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace redis {

// Waits for a reply that is microseconds away by polling its socket instead of sleeping.
//
// A thread that sleeps until its reply arrives pays for its CPU waking up again. On the 2-core
// VM that wake-up (about 50 us) costs three times the loopback round trip itself, and a laptop
// in a deep idle state pays much the same. A caller doing one round trip after another keeps
// its CPU awake for a bounded time instead. Once a wait runs out (a remote server, a slow
// script) it does not try again for a while, so a slow server costs next to no CPU.
class QuickReplyWait
{
public:
    explicit QuickReplyWait(int budgetUs)
        : m_budgetUs(budgetUs)
    {}

    // Polls `fd` until it is readable (or closed) or the budget is spent; the event loop then
    // reads it as usual, without sleeping first. Returns whether it became readable in time.
    bool wait(int fd);

    // Waits skipped after one ran out: at most budget / SkipAfterMiss of CPU per round trip
    // with a server that never answers within the budget.
    static constexpr int SkipAfterMiss = 64;

private:
    int m_budgetUs;
    int m_skip = 0;
};

} // namespace redis
