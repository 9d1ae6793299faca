// SPDX-License-Identifier: GPL-3.0-or-later
#include "AlignNodes.h"

#include "LibraryChange.h"

#include <QCoreApplication>

namespace functions {

namespace {

// Why a node cannot be copied from, in the window's language (the Libraries tab's warning);
// the CLI loads no translator and prints the English.
struct AlignNodesText
{
    Q_DECLARE_TR_FUNCTIONS(functions::AlignNodes)
};

const NodeLibraries *findNode(const LibraryMatrix &matrix, const QString &address)
{
    for (const NodeLibraries &n : matrix.nodes())
        if (n.address == address)
            return &n;
    return nullptr;
}

} // namespace

QStringList primariesToAlign(const LibraryMatrix &matrix, const QString &from,
                             const QString &library)
{
    QStringList out;
    const NodeLibraries *source = findNode(matrix, from);
    const redis::LibraryInfo *wanted = source ? source->library(library) : nullptr;
    if (!wanted)
        return out;
    for (const NodeLibraries &n : matrix.nodes()) {
        if (!n.primary || !n.error.isEmpty())
            continue;
        const redis::LibraryInfo *l = n.library(library);
        if (!l || l->code != wanted->code)
            out << n.address;
    }
    return out;
}

core::Result<ChangeSpec, QString> alignSpec(const LibraryMatrix &matrix, const QString &from,
                                            const QString &library)
{
    QStringList known;
    for (const NodeLibraries &n : matrix.nodes())
        known << n.address;
    const NodeLibraries *source = findNode(matrix, from);
    if (!source)
        return AlignNodesText::tr("%1 is not a node of this cluster (nodes: %2)")
            .arg(from, known.join(QStringLiteral(", ")));
    if (!source->error.isEmpty())
        return AlignNodesText::tr("%1: nothing can be copied from it")
            .arg(source->unreadable(core::Wording::Translated));
    const redis::LibraryInfo *lib = source->library(library);
    if (!lib)
        return AlignNodesText::tr("%1 holds no library %2: pick a node that has it (see "
                                  "'functions status')")
            .arg(from, library);
    Inspection inspected =
        inspectLibrary(lib->code, QStringLiteral("the copy on %1").arg(source->address));
    ChangeSpec spec = LibraryChange::loadSpec(inspected);
    spec.skipIdentical = true;
    return spec;
}

} // namespace functions
