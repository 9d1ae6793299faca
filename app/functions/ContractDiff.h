// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Inspection.h"

#include "core/Wording.h"

#include <QJsonObject>

namespace functions {

// How much a change matters to callers. Ordered: a change is as bad as its worst part. The
// numbers are the exit codes of `inventory-cli functions diff`.
enum class Verdict { NoChange = 0, Compatible = 1, Breaking = 2, Refused = 3 };
QString verdictName(Verdict v); // no-change | compatible | breaking | refused
// The same word in `wording`: the window's language or verdictName's English.
QString verdictWord(Verdict v, core::Wording wording);

// What happens to one function (matched by name ignoring case, as FCALL looks them up).
struct FunctionDiff
{
    QString name;
    std::optional<redis::FunctionInfo> before; // nullopt: added
    std::optional<redis::FunctionInfo> after;  // nullopt: removed
    bool flagsChanged = false;
    bool descriptionChanged = false;
    bool bodyChanged = false;
    bool bodyUnknown = false; // the loaded code could not be inspected: bodies not compared
    bool renamedCase = false; // "f" became "F": FCALL finds it either way
    Verdict verdict = Verdict::NoChange;
    QStringList notes;     // one sentence each, for people; English (the CLI, --json)
    QStringList notesText; // the same in the window's language

    bool added() const { return !before && after; }
    bool removed() const { return before && !after; }
};

// A function of the incoming library that another library already registers: Redis would
// refuse the load ("Function f already exists").
struct Collision
{
    QString function;
    QString otherLibrary;
    QString otherFunction;
};

// The contract difference between what a server has loaded and what a change would leave.
struct ContractDiff
{
    QString library;
    bool existsBefore = false;
    // Set when the node's libraries could not be read ("could not read FUNCTION LIST on
    // host:port: why"): then existsBefore says nothing, and nothing was compared.
    core::Sentence beforeUnreadable;
    bool existsAfter = true;
    QString versionBefore; // empty: unversioned (or absent)
    QString versionAfter;
    QByteArray fingerprintBefore; // empty when absent
    QByteArray fingerprintAfter;
    bool codeIdentical = false;
    QList<FunctionDiff> functions; // sorted by name; unchanged functions included
    QList<Collision> collisions;
    // Version not bumped, in-place contract change, loaded code unreadable: the English for
    // the CLI and --json, the window's language for the wizard.
    core::Sentences warnings;
    // Both versions are stated and the new one is lower: an older release goes back in, which
    // is what a rollback does (versionDownWarning() is then among the warnings).
    bool versionDown = false;
    core::Sentences refusals; // why the change cannot be made at all
    Verdict verdict = Verdict::NoChange;

    // English by default: the CLI, --json and the change's confirmation refusal quote them.
    QStringList breakingReasons(core::Wording wording = core::Wording::English) const;
    QString summary(core::Wording wording = core::Wording::English)
        const; // one line: "inventory_lib_v1 1.0.0 → 1.1.0: compatible (2 added)"
    QJsonObject toJson() const;
};

// Loading `incoming` on a server whose libraries are `loaded` (with code, from FUNCTION LIST
// WITHCODE). The loaded code of the same library is inspected offline to compare function
// bodies; collisions are checked against every other library of `neighbours` (default:
// `loaded`; a restore that replaces several libraries at once passes what will remain).
ContractDiff diffContract(const Inspection &incoming, const QList<redis::LibraryInfo> &loaded,
                          const QList<redis::LibraryInfo> *neighbours = nullptr);
// Deleting `library` (every function removed: breaking).
ContractDiff diffRemoval(const redis::LibraryInfo &library);

// The warning a version going down gets, in words: "the version goes down, 1.2.0 → 1.0.0: an
// older release replaces a newer one". A rollback leaves it out (its title says so).
core::Sentence versionDownWarning(const ContractDiff &diff);

// "inventory_deduct_v2" -> true: the name carries its contract version.
bool hasContractVersion(const QString &functionName);

} // namespace functions
