// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QSettings>
#include <QTemporaryDir>

namespace testsupport {

// QSettings() in this test process reads and writes under `dir`, never the user's own
// settings (a language or theme chosen by a test must not reach the desktop's console).
// False when the directory could not be made.
inline bool usePrivateSettings(const QTemporaryDir &dir)
{
    if (!dir.isValid())
        return false;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
    QCoreApplication::setOrganizationName(QStringLiteral("InventoryConsoleTest"));
    return true;
}

} // namespace testsupport
