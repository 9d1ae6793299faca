// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace core {

// "0.1.0 (commit 1a2b3c4)" for --version: the project version and the commit it was built
// from ("0.1.0" alone when built outside a git checkout, as from a source tarball).
QString versionText();
QString projectVersion(); // "0.1.0"
QString buildCommit();    // "1a2b3c4", "1a2b3c4-dirty" or ""

} // namespace core
