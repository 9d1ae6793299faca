// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace redis {
struct LibraryInfo;
}

namespace functions {

// Our release convention (docs/contracts.md, rule 6): the line right after the shebang reads
// "-- version: 1.2.0". Redis has no version field, so this is the only place a loaded
// library's release can come from. Empty when the code states none.
QString libraryVersion(const QByteArray &code);
// "1.2.0", or "unversioned" for an empty version.
QString versionLabel(const QString &version);

// Lower-case hex SHA-256 of the exact code bytes: two libraries are the same release only
// when every byte is equal, whitespace included.
QByteArray codeFingerprint(const QByteArray &code);
// What one node holds, as one fingerprint: SHA-256 hex over every library's name and code
// fingerprint, in name order (FUNCTION LIST order is hash order). Two nodes hold the same
// libraries exactly when their fingerprints are equal: the readiness audit's drift rule and
// per-node views compare nodes with it. Needs FUNCTION LIST WITHCODE; an empty list has one too.
QByteArray nodeFingerprint(const QList<redis::LibraryInfo> &libraries);
// The first 12 hex digits, for tables and headings.
QString shortFingerprint(const QByteArray &hexFingerprint);
// "1.2.0 (sha256 1a2b3c4d5e6f)": a library's release and code, as tables and reports name it.
QString versionAndFingerprint(const QByteArray &code);

// Dotted numeric comparison ("1.10.0" > "1.9.3"); a non-numeric part compares as text.
// Negative, zero or positive like strcmp.
int compareVersions(const QString &a, const QString &b);

} // namespace functions
