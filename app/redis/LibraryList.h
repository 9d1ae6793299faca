// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Reply.h"
#include "core/Result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace redis {

struct FunctionInfo
{
    QString name;
    std::optional<QString> description; // FUNCTION LIST may return nil
    QStringList flags;                  // sorted
};

struct LibraryInfo
{
    QString name;
    QString engine;
    QList<FunctionInfo> functions; // sorted by name
    QByteArray code;               // only with WITHCODE
    bool hasCode = false;
};

// Decodes a FUNCTION LIST [WITHCODE] reply. Redis returns libraries and functions in hash
// order; the result is sorted so that views and comparisons are stable. A reply of the wrong
// shape is an error, not a partial list: "unexpected FUNCTION LIST reply: expected a string, got
// nil", in both copies (the window shows `.text`, the CLI and logs `.english`).
core::Result<QList<LibraryInfo>, core::Sentence> decodeFunctionList(const Reply &reply);

} // namespace redis
