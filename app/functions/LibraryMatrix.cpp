// SPDX-License-Identifier: GPL-3.0-or-later
#include "LibraryMatrix.h"

#include <algorithm>

#include "LibraryVersion.h"
#include "redis/Blocking.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QSet>
#include <map>

namespace functions {

namespace {

// The matrix's sentences: English for `inventory-cli functions` and --json, the window's
// language for the Libraries tab's node matrix.
constexpr const char *MatrixContext = "functions::LibraryMatrix";

core::Sentence matrixSentence(const char *source)
{
    return core::Sentence::translated(MatrixContext, source);
}

} // namespace

QString MatrixNode::role() const
{
    return primary ? QStringLiteral("primary")
                   : QStringLiteral("replica of %1").arg(primaryAddress);
}

const redis::LibraryInfo *NodeLibraries::library(const QString &name) const
{
    for (const redis::LibraryInfo &l : libraries)
        if (l.name == name)
            return &l;
    return nullptr;
}

QString NodeLibraries::unreadable(core::Wording wording) const
{
    return error.isEmpty() ? QString()
                           : core::word(wording, MatrixContext,
                                        QT_TRANSLATE_NOOP("functions::LibraryMatrix",
                                                          "could not read FUNCTION LIST on %1: %2"))
                                 .arg(address, error.in(wording));
}

QString driftKindName(DriftKind kind)
{
    switch (kind) {
    case DriftKind::Missing:
        return QStringLiteral("missing");
    case DriftKind::DifferentVersion:
        return QStringLiteral("different-version");
    case DriftKind::DifferentCode:
        return QStringLiteral("different-code");
    }
    return {};
}

QString matrixStateName(LibraryMatrix::State state)
{
    switch (state) {
    case LibraryMatrix::State::InLine:
        return QStringLiteral("in-line");
    case LibraryMatrix::State::Drift:
        return QStringLiteral("drift");
    case LibraryMatrix::State::Unreadable:
        return QStringLiteral("unreadable");
    }
    return {};
}

LibraryMatrix::LibraryMatrix(QList<NodeLibraries> nodes)
    : m_nodes(std::move(nodes))
{
    QSet<QString> names;
    for (const NodeLibraries &n : m_nodes)
        for (const redis::LibraryInfo &l : n.libraries)
            names.insert(l.name);
    m_libraries = QStringList(names.begin(), names.end());
    m_libraries.sort();

    for (const QString &name : std::as_const(m_libraries)) {
        // The reference is the code most nodes hold; the first node holding it names it.
        std::map<QByteArray, QPair<int, int>> byCode; // code -> (count, first node)
        for (int i = 0; i < m_nodes.size(); ++i)
            if (const redis::LibraryInfo *l = m_nodes.at(i).library(name)) {
                auto [it, added] = byCode.try_emplace(l->code, qMakePair(0, i));
                ++it->second.first;
            }
        int reference = -1, best = 0;
        for (const auto &[code, countAndFirst] : byCode)
            if (countAndFirst.first > best
                || (countAndFirst.first == best && countAndFirst.second < reference)) {
                best = countAndFirst.first;
                reference = countAndFirst.second;
            }
        m_reference.insert(name, reference);
        const NodeLibraries &refNode = m_nodes.at(reference);
        const redis::LibraryInfo &ref = *refNode.library(name);
        const QString refVersion = libraryVersion(ref.code);
        for (const NodeLibraries &n : std::as_const(m_nodes)) {
            if (!n.error.isEmpty())
                continue; // unreadable, never "missing"
            const redis::LibraryInfo *l = n.library(name);
            if (!l) {
                m_drift << LibraryDrift{
                    name, n.address, DriftKind::Missing,
                    matrixSentence(QT_TRANSLATE_NOOP("functions::LibraryMatrix",
                                                     "%1 is missing on %2 (%3 has %4)"))
                        .arg(name, n.address, refNode.address, versionAndFingerprint(ref.code))};
                continue;
            }
            if (l->code == ref.code)
                continue;
            const bool sameVersion = libraryVersion(l->code) == refVersion;
            m_drift << LibraryDrift{
                name, n.address,
                sameVersion ? DriftKind::DifferentCode : DriftKind::DifferentVersion,
                (sameVersion ? matrixSentence(QT_TRANSLATE_NOOP(
                     "functions::LibraryMatrix",
                     "%1 on %2 has other code under the same version: %3, %4 has %5"))
                             : matrixSentence(QT_TRANSLATE_NOOP("functions::LibraryMatrix",
                                                                "%1 on %2 is %3, %4 has %5")))
                    .arg(name, n.address, versionAndFingerprint(l->code), refNode.address,
                         versionAndFingerprint(ref.code))};
        }
    }
}

int LibraryMatrix::referenceNode(const QString &library) const
{
    return m_reference.value(library, -1);
}

const redis::LibraryInfo *LibraryMatrix::reference(const QString &library) const
{
    const int i = referenceNode(library);
    return i < 0 ? nullptr : m_nodes.at(i).library(library);
}

std::optional<DriftKind> LibraryMatrix::driftAt(const QString &library, int node) const
{
    if (node < 0 || node >= m_nodes.size())
        return std::nullopt;
    for (const LibraryDrift &d : m_drift)
        if (d.library == library && d.address == m_nodes.at(node).address)
            return d.kind;
    return std::nullopt;
}

QStringList LibraryMatrix::driftedLibraries(int node) const
{
    QStringList out;
    for (const QString &name : m_libraries)
        if (driftAt(name, node))
            out << name;
    return out;
}

QStringList LibraryMatrix::replicasApartFromPrimary() const
{
    QStringList out;
    for (const NodeLibraries &replica : m_nodes) {
        if (replica.primary || !replica.error.isEmpty())
            continue;
        const auto primary =
            std::ranges::find(m_nodes, replica.primaryAddress, &NodeLibraries::address);
        if (primary == m_nodes.end() || !primary->error.isEmpty())
            continue;
        const bool apart = std::ranges::any_of(m_libraries, [&](const QString &name) {
            const redis::LibraryInfo *mine = replica.library(name);
            const redis::LibraryInfo *theirs = primary->library(name);
            return !mine != !theirs || (mine && mine->code != theirs->code);
        });
        if (apart)
            out << replica.address;
    }
    return out;
}

QString LibraryMatrix::apartFromPrimarySentence(const QStringList &replicas, core::Wording wording)
{
    const char *const one = QT_TRANSLATE_NOOP(
        "functions::LibraryMatrix",
        "%1 differs from its primary, although replication copies a primary's libraries: it was "
        "changed on its own (a writable replica) or stopped following (see master_link_status in "
        "INFO replication). Loading the primary does not reach it: resynchronise it, or load the "
        "library on it directly.");
    const char *const several = QT_TRANSLATE_NOOP(
        "functions::LibraryMatrix",
        "%1 differ from their primaries, although replication copies a primary's libraries: they "
        "were changed on their own (a writable replica) or stopped following (see "
        "master_link_status in INFO replication). Loading the primary does not reach them: "
        "resynchronise them, or load the library on them directly.");
    return core::word(wording, MatrixContext, replicas.size() == 1 ? one : several)
        .arg(replicas.join(QStringLiteral(", ")));
}

const LibraryDrift *LibraryMatrix::firstPrimaryDrift() const
{
    const auto d = std::ranges::find_if(m_drift, [this](const LibraryDrift &x) {
        return std::ranges::any_of(
            m_nodes, [&](const NodeLibraries &n) { return n.primary && n.address == x.address; });
    });
    return d == m_drift.end() ? nullptr : &*d;
}

QStringList LibraryMatrix::unreadable(core::Wording wording) const
{
    QStringList out;
    for (const NodeLibraries &n : m_nodes)
        if (!n.error.isEmpty())
            out << n.unreadable(wording);
    return out;
}

LibraryMatrix::State LibraryMatrix::state() const
{
    if (!m_drift.isEmpty())
        return State::Drift;
    return unreadable().isEmpty() ? State::InLine : State::Unreadable;
}

QJsonObject LibraryMatrix::toJson() const
{
    QJsonArray nodes;
    for (const NodeLibraries &n : m_nodes) {
        QJsonObject o{{QStringLiteral("address"), n.address},
                      {QStringLiteral("role"),
                       n.primary ? QStringLiteral("primary") : QStringLiteral("replica")}};
        if (!n.primary)
            o.insert(QStringLiteral("primary"), n.primaryAddress);
        if (!n.error.isEmpty())
            o.insert(QStringLiteral("error"), n.unreadable());
        QJsonArray libs;
        for (const redis::LibraryInfo &l : n.libraries) {
            QJsonArray fns;
            for (const redis::FunctionInfo &f : l.functions)
                fns.append(
                    QJsonObject{{QStringLiteral("name"), f.name},
                                {QStringLiteral("flags"), QJsonArray::fromStringList(f.flags)}});
            const QString version = libraryVersion(l.code);
            libs.append(QJsonObject{
                {QStringLiteral("library"), l.name},
                {QStringLiteral("version"),
                 version.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(version)},
                {QStringLiteral("sha256"), QString::fromLatin1(codeFingerprint(l.code))},
                {QStringLiteral("functions"), fns}});
        }
        o.insert(QStringLiteral("libraries"), libs);
        nodes.append(o);
    }
    QJsonArray drift;
    for (const LibraryDrift &d : m_drift)
        drift.append(QJsonObject{{QStringLiteral("library"), d.library},
                                 {QStringLiteral("node"), d.address},
                                 {QStringLiteral("kind"), driftKindName(d.kind)},
                                 {QStringLiteral("detail"), d.detail.english}});
    return {{QStringLiteral("state"), matrixStateName(state())},
            {QStringLiteral("nodes"), nodes},
            {QStringLiteral("drift"), drift},
            {QStringLiteral("unreadable"), QJsonArray::fromStringList(unreadable())}};
}

void readLibraryMatrix(const QList<MatrixNode> &nodes, QObject *context, int timeoutMs,
                       std::function<void(const LibraryMatrix &)> done)
{
    auto read = std::make_shared<QList<NodeLibraries>>();
    for (const MatrixNode &n : nodes)
        *read << NodeLibraries{n.address, n.primary, n.primaryAddress, {}, {}};
    auto pending = std::make_shared<int>(int(nodes.size()));
    if (nodes.isEmpty())
        return done(LibraryMatrix{});
    for (qsizetype i = 0; i < nodes.size(); ++i) {
        if (!nodes.at(i).reader) {
            (*read)[i].error = matrixSentence(
                QT_TRANSLATE_NOOP("functions::LibraryMatrix", "no connection to this node"));
            if (--*pending == 0)
                done(LibraryMatrix(*read));
            continue;
        }
        nodes.at(i).reader->send(
            {"FUNCTION", "LIST", "WITHCODE"}, context,
            [read, pending, i, done](const redis::ReplyResult &r) {
                NodeLibraries &n = (*read)[i];
                if (!r.ok()) {
                    n.error = r.error().readFailure();
                } else if (auto libs = redis::decodeFunctionList(*r); libs) {
                    n.libraries = libs.value();
                } else {
                    n.error = libs.error();
                }
                if (--*pending == 0)
                    done(LibraryMatrix(*read));
            },
            timeoutMs);
    }
}

LibraryMatrix readLibraryMatrixBlocking(const QList<MatrixNode> &nodes, int timeoutMs)
{
    return redis::blockUntilReply<LibraryMatrix>(
        [&](QObject *context, auto done) { readLibraryMatrix(nodes, context, timeoutMs, done); });
}

} // namespace functions
