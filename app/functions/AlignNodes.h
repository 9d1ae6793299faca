// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ChangePlan.h"
#include "LibraryMatrix.h"
#include "core/Result.h"

namespace functions {

// "Bring nodes in line": a guarded load of the code `from` holds of `library`, for every
// primary that differs (the others are left alone: skipIdentical). The code is inspected
// offline like a file. Refused, with what to do, when `from` is not a node of the matrix,
// could not be read, or does not hold the library.
core::Result<ChangeSpec, QString> alignSpec(const LibraryMatrix &matrix, const QString &from,
                                            const QString &library);
// The primaries whose copy of `library` differs from `from`'s (missing, or other code).
QStringList primariesToAlign(const LibraryMatrix &matrix, const QString &from,
                             const QString &library);

} // namespace functions
