// SPDX-License-Identifier: GPL-3.0-or-later
#include "ModelRoles.h"

#include <QDateTime>

namespace browse {

namespace {
qint64 (*g_clock)() = nullptr;
}

qint64 modelNowMs()
{
    return g_clock ? g_clock() : QDateTime::currentMSecsSinceEpoch();
}

void setModelClockForTests(qint64 (*clock)())
{
    g_clock = clock;
}

} // namespace browse
