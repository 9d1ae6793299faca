// SPDX-License-Identifier: GPL-3.0-or-later
#include "CaseTwins.h"

#include "DumpPayload.h"

#include <QMap>

namespace functions {

namespace {

// What the case-twin guard says in the window's language; the CLI and the log keep the English.
core::Sentence twinSaid(const char *source)
{
    return core::Sentence::translated("functions::CaseTwins", source);
}

// The loaded libraries the change's command unlinks on this node.
QStringList unlinkedBy(const ChangeSpec &spec, const NodeState &node, const QStringList &dumped)
{
    switch (spec.action) {
    case ChangeAction::Load:
    case ChangeAction::Delete:
    case ChangeAction::RestoreCode:
        if (node.library(spec.library) && !spec.command(node).isEmpty())
            return {spec.library};
        return {};
    case ChangeAction::RestoreDump: {
        if (spec.policy != RestorePolicy::Replace)
            return {}; // APPEND never unlinks (it fails on a name clash); FLUSH drops all
        QStringList out;
        for (const QString &name : dumped)
            if (node.library(name))
                out << name;
        return out;
    }
    }
    return {};
}

// The libraries inside the dump a restore would send to this node, read from the dump itself;
// refusals for anything that cannot be read or that is not what the backup lists.
core::Sentences dumpRefusals(const ChangeSpec &spec, const NodeState &node, QStringList *names)
{
    const NodeBackup *saved = spec.backup ? spec.backup->node(node.address) : nullptr;
    if (spec.action != ChangeAction::RestoreDump || !saved)
        return {};
    const auto dump = readDump(saved->dump);
    if (!dump)
        return {twinSaid(QT_TRANSLATE_NOOP("functions::CaseTwins",
                                           "the dump for %1 in %2 cannot be read, so the "
                                           "libraries it would install are unknown: %3"))
                    .arg(node.address, spec.backup->path, dump.error())};
    core::Sentences out;
    QList<redis::LibraryInfo> inside;
    for (const QByteArray &code : dump->codes) {
        const Inspection i = inspectLibrary(code, spec.backup->path);
        const QString name = i.library.isEmpty() ? QStringLiteral("(unnamed)") : i.library;
        *names << name;
        inside << redis::LibraryInfo{name, QStringLiteral("LUA"), {}, code, true};
        if (i.problem && i.problem->kind == InspectionProblem::Kind::DuplicateFunction)
            out << twinSaid(QT_TRANSLATE_NOOP("functions::CaseTwins",
                                              "the dump for %1 holds library %2, whose function "
                                              "names differ only in case (%3): Redis 7.0 crashes "
                                              "(an assertion) when such a library is later "
                                              "replaced or deleted, so it is not restored"))
                       .arg(node.address, name, i.problem->message);
        else if (i.problem)
            out << (i.problem->judged()
                        ? twinSaid(QT_TRANSLATE_NOOP("functions::CaseTwins",
                                                     "library %1 inside the dump for %2 was "
                                                     "refused offline: %3"))
                        : twinSaid(QT_TRANSLATE_NOOP(
                            "functions::CaseTwins",
                            "library %1 inside the dump for %2 could not be inspected offline, "
                            "so it is not loaded (this says nothing about the code; try "
                            "again): %3")))
                       .arg(name, node.address, i.problem->sentence());
    }
    if (const QString differs = compareLibraries(saved->libraries, inside); !differs.isEmpty())
        out << twinSaid(QT_TRANSLATE_NOOP("functions::CaseTwins",
                                          "the dump for %1 does not hold what %2 lists (%3): it "
                                          "is not restored"))
                   .arg(node.address, spec.backup->path, differs);
    return out;
}

// "FUNCTION LOAD REPLACE", "FUNCTION DELETE", "FUNCTION RESTORE REPLACE": never the payload.
QString verbOf(const redis::Command &c)
{
    if (c.size() < 2)
        return {};
    QByteArray verb = c.at(0) + ' ' + c.at(1);
    if (c.at(1) == "LOAD")
        verb += " REPLACE";
    else if (c.at(1) == "RESTORE")
        verb += ' ' + c.last();
    return QString::fromUtf8(verb);
}

} // namespace

QStringList caseTwins(const redis::LibraryInfo &library)
{
    QMap<QString, QStringList> byFolded;
    for (const redis::FunctionInfo &f : library.functions)
        byFolded[f.name.toLower()] << f.name;
    QStringList out;
    for (const QStringList &names : std::as_const(byFolded))
        if (names.size() > 1)
            out << names.join(QStringLiteral(", "));
    return out;
}

core::Sentences caseTwinRefusals(const ChangeSpec &spec, const NodeState &node)
{
    QStringList dumped;
    core::Sentences out = dumpRefusals(spec, node, &dumped);
    const QString verb = verbOf(spec.command(node));
    for (const QString &name : unlinkedBy(spec, node, dumped)) {
        const redis::LibraryInfo *loaded = node.library(name);
        const QStringList twins = loaded ? caseTwins(*loaded) : QStringList{};
        if (!twins.isEmpty())
            out << twinSaid(
                       QT_TRANSLATE_NOOP(
                           "functions::CaseTwins",
                           "library %1 on %2 registers functions whose names differ only in case "
                           "(%3): Redis 7.0 crashes (an assertion) when it replaces or deletes "
                           "such a library, so %4 is not sent. Only FUNCTION FLUSH, or a restore "
                           "with the FLUSH policy, removes it safely"))
                       .arg(name, node.address, twins.join(QStringLiteral("; ")), verb);
    }
    return out;
}

} // namespace functions
