// SPDX-License-Identifier: GPL-3.0-or-later
#include "BuildInfo.h"

namespace core {

extern const char *const buildCommitText; // BuildCommit.cpp, generated at build time

QString projectVersion()
{
    return QStringLiteral(INVENTORY_VERSION);
}

QString buildCommit()
{
    return QString::fromLatin1(buildCommitText);
}

QString versionText()
{
    const QString commit = buildCommit();
    return commit.isEmpty() ? projectVersion()
                            : QStringLiteral("%1 (commit %2)").arg(projectVersion(), commit);
}

} // namespace core
