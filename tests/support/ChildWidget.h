// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QtGlobal>

namespace testsupport {

// The child widget of this type and object name; the test stops, naming it, when there is
// none (a renamed widget must fail loudly, not crash on a null pointer).
template<class W>
W *child(QObject *parent, const char *name)
{
    W *w = parent->findChild<W *>(QLatin1String(name));
    if (!w)
        qFatal("no widget %s", name);
    return w;
}

} // namespace testsupport
