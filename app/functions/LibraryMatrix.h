// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Wording.h"
#include "redis/CommandSender.h"
#include "redis/LibraryList.h"

#include <QJsonObject>
#include <QObject>
#include <functional>
#include <optional>

namespace functions {

// One node of the matrix: every primary and every replica of the topology, each read over
// its own connection (FUNCTION LOAD is not propagated between shards, so each primary can
// drift; a replica inherits from its primary, and can still lag behind or be re-pointed).
struct MatrixNode
{
    QString address; // host:port
    bool primary = true;
    QString primaryAddress;                 // a replica's primary; empty for a primary
    redis::CommandSender *reader = nullptr; // not owned
    QString role() const;                   // "primary" | "replica of host:port"
};

// What one node holds, or why that could not be read.
struct NodeLibraries
{
    QString address;
    bool primary = true;
    QString primaryAddress;
    core::Sentence error;                // non-empty: FUNCTION LIST could not be read
    QList<redis::LibraryInfo> libraries; // with code, sorted
    const redis::LibraryInfo *library(const QString &name) const;
    // "could not read FUNCTION LIST on host:port: why"; empty when read. English by default
    // (the CLI, --json); the node matrix shows the window's language.
    QString unreadable(core::Wording wording = core::Wording::English) const;
};

// How one node differs from the rest for one library. A node that could not be read has no
// drift entry: it is unreadable, never "missing".
enum class DriftKind {
    Missing,          // loaded on other nodes, not on this one
    DifferentVersion, // another "-- version:" line than the reference
    DifferentCode,    // the same version label, other code bytes
};
QString driftKindName(DriftKind kind); // missing | different-version | different-code

struct LibraryDrift
{
    QString library;
    QString address;
    DriftKind kind = DriftKind::Missing;
    // One sentence naming both sides: English for the CLI and --json, the window's language
    // for the node matrix.
    core::Sentence detail;
};

// Libraries by node, with drift classified per library against a reference: the code most
// readable nodes hold (a tie goes to the node listed first).
class LibraryMatrix
{
public:
    enum class State { InLine, Drift, Unreadable };

    LibraryMatrix() = default;
    explicit LibraryMatrix(QList<NodeLibraries> nodes);

    const QList<NodeLibraries> &nodes() const { return m_nodes; }
    QStringList libraries() const { return m_libraries; } // every name on any node, sorted
    // The node index holding the reference code of `library`, -1 when no node has it.
    int referenceNode(const QString &library) const;
    const redis::LibraryInfo *reference(const QString &library) const;
    const QList<LibraryDrift> &drift() const { return m_drift; }
    std::optional<DriftKind> driftAt(const QString &library, int node) const;
    // A node with a drifted library: the libraries on it that differ.
    QStringList driftedLibraries(int node) const;
    // One sentence per node that could not be read.
    QStringList unreadable(core::Wording wording = core::Wording::English) const;
    // Replicas that hold another copy of a library than their own primary (read, and listed):
    // replication copies FUNCTION LOAD, so such a replica was changed on its own (a writable
    // replica) or stopped following, and bringing the primaries in line does not reach it.
    QStringList replicasApartFromPrimary() const;
    // What to say of them, and what to do (for the CLI and the Libraries tab alike).
    static QString apartFromPrimarySentence(const QStringList &replicas,
                                            core::Wording wording = core::Wording::English);
    // The first drift on a primary (what `align` can mend), or null when only replicas drift.
    const LibraryDrift *firstPrimaryDrift() const;
    // Drift found among the nodes read wins over an unreadable node: the drift is a fact,
    // the unreadable node only leaves the check incomplete.
    State state() const;
    QJsonObject toJson() const;

private:
    QList<NodeLibraries> m_nodes;
    QStringList m_libraries;
    QHash<QString, int> m_reference;
    QList<LibraryDrift> m_drift;
};
QString matrixStateName(LibraryMatrix::State state); // in-line | drift | unreadable

// Reads FUNCTION LIST WITHCODE from every node (in parallel, each on its reader) and builds
// the matrix; `done` runs on `context`'s thread once every node answered or failed.
void readLibraryMatrix(const QList<MatrixNode> &nodes, QObject *context, int timeoutMs,
                       std::function<void(const LibraryMatrix &)> done);
LibraryMatrix readLibraryMatrixBlocking(const QList<MatrixNode> &nodes, int timeoutMs);

} // namespace functions
