// SPDX-License-Identifier: GPL-3.0-or-later
// The rules read from FUNCTION LIST WITHCODE: which release is loaded, its flags, and whether
// every primary holds the same libraries.
#include "Rules.h"

#include "functions/LibraryVersion.h"
#include "functions/LocalCatalog.h"

#include <QCoreApplication>

namespace readiness {

namespace {
// The sentences the Readiness tab shows are translated there; the CLI installs no translator
// and prints the English (its report and --json).
struct LibraryRulesText
{
    Q_DECLARE_TR_FUNCTIONS(readiness::Rules)
};

bool isShipped(const functions::LocalFile &f)
{
    return f.path.startsWith(functions::LocalCatalog::shippedDirectory() + QLatin1Char('/'));
}

const redis::LibraryInfo *loadedNamed(const QList<redis::LibraryInfo> &libs, const QString &name)
{
    for (const redis::LibraryInfo &l : libs)
        if (l.name == name)
            return &l;
    return nullptr;
}

QString describe(const redis::LibraryInfo &l)
{
    return QStringLiteral("%1, sha256 %2")
        .arg(functions::versionLabel(functions::libraryVersion(l.code)),
             functions::shortFingerprint(functions::codeFingerprint(l.code)));
}

bool isDeduct(const redis::FunctionInfo &f)
{
    return f.name.contains(QLatin1String("deduct"), Qt::CaseInsensitive);
}

} // namespace

namespace {

// One sentence of a finding and the primaries it holds for: on a cluster every primary is
// checked, and a sentence names the nodes it is about (the library missing on one primary
// of three is that primary's problem, not "the" server's).
struct Note
{
    Verdict verdict;
    QString text;
    QStringList nodes;
};

void addNote(QList<Note> &notes, Verdict v, const QString &text, const QString &node)
{
    for (Note &n : notes)
        if (n.verdict == v && n.text == text) {
            n.nodes << node;
            return;
        }
    notes << Note{v, text, {node}};
}

// The worst note is the finding's verdict; the sentences, worst first, name their nodes when
// the audit read more than one.
void concludeNotes(Finding &out, QList<Note> notes, int nodeCount)
{
    std::stable_sort(notes.begin(), notes.end(), [](const Note &a, const Note &b) {
        return severity(a.verdict) > severity(b.verdict);
    });
    out.verdict = notes.first().verdict;
    QStringList sentences;
    for (const Note &n : notes)
        sentences << (nodeCount > 1 ? LibraryRulesText::tr("On %1: %2")
                                          .arg(n.nodes.join(QStringLiteral(", ")), n.text)
                                    : n.text);
    out.why = sentences.join(QLatin1Char(' '));
}

// A finding made node by node: a node whose libraries could not be read could not be checked,
// `check` adds the notes of each of the others, and the notes conclude.
template<typename Check>
void concludeEachNode(const AuditInput &in, Finding &out, Check check)
{
    QList<Note> notes;
    for (const NodeLibraries &node : in.nodes) {
        if (node.libraries.ok())
            check(node, *node.libraries.value, notes);
        else
            addNote(notes, Verdict::CouldNotCheck, node.libraries.missing, node.node);
    }
    concludeNotes(out, notes, int(in.nodes.size()));
}

QString evidenceName(const QString &name, const NodeLibraries &node, int nodeCount)
{
    return nodeCount > 1 ? LibraryRulesText::tr("%1 on %2").arg(name, node.node) : name;
}

} // namespace

void checkLibraryRelease(const AuditInput &in, Finding &out)
{
    if (in.nodes.isEmpty())
        return conclude(out, Verdict::CouldNotCheck, LibraryRulesText::tr("no node was read"));
    if (!in.catalog)
        return conclude(out, Verdict::CouldNotCheck, LibraryRulesText::tr("no release catalogue"));
    QStringList shippedNames;
    for (const functions::LocalFile &f : in.catalog->files())
        if (isShipped(f) && !shippedNames.contains(f.inspection.library))
            shippedNames << f.inspection.library;
    if (shippedNames.isEmpty())
        return conclude(out, Verdict::CouldNotCheck,
                        LibraryRulesText::tr("the console ships no library to compare with"));
    const int count = int(in.nodes.size());
    concludeEachNode(
        in, out,
        [&](const NodeLibraries &node, const QList<redis::LibraryInfo> &libs, QList<Note> &notes) {
            for (const QString &name : shippedNames) {
                const functions::LocalFile *shipped = in.catalog->filesFor(name).value(0);
                for (const functions::LocalFile *f : in.catalog->filesFor(name))
                    if (isShipped(*f)) {
                        shipped = f;
                        break;
                    }
                const QString shippedVersion = functions::versionLabel(shipped->inspection.version);
                const redis::LibraryInfo *loaded = loadedNamed(libs, name);
                if (!loaded) {
                    out.evidence << qMakePair(evidenceName(name, node, count),
                                              LibraryRulesText::tr("not loaded"));
                    addNote(notes, Verdict::Fail,
                            LibraryRulesText::tr(
                                "%1 is not loaded, so every deduction there fails with "
                                "'Function not found': load the shipped %2 "
                                "(inventory-cli functions load).")
                                .arg(name, shippedVersion),
                            node.node);
                    continue;
                }
                const functions::LibraryMatch match = in.catalog->match(*loaded);
                out.evidence << qMakePair(
                    evidenceName(name, node, count),
                    QStringLiteral("%1 (%2)").arg(describe(*loaded), match.text()));
                const bool identical = match.kind == functions::LibraryMatch::Kind::Identical;
                if (identical && match.path == shipped->path)
                    addNote(notes, Verdict::Pass,
                            LibraryRulesText::tr("%1 is byte for byte the shipped release %2.")
                                .arg(name, shippedVersion),
                            node.node);
                else if (identical)
                    addNote(
                        notes, Verdict::Warn,
                        LibraryRulesText::tr(
                            "%1 is the older release %2, not the shipped %3: load the "
                            "shipped release before relying on what %3 fixed.")
                            .arg(name, functions::versionLabel(match.fileVersion), shippedVersion),
                        node.node);
                else
                    addNote(notes, Verdict::Fail,
                            LibraryRulesText::tr(
                                "%1 matches no release (%2): code nobody shipped deducts "
                                "stock; load the shipped %3 (inventory-cli functions "
                                "load).")
                                .arg(name, describe(*loaded), shippedVersion),
                            node.node);
            }
        });
}

void checkDeductWrites(const AuditInput &in, Finding &out)
{
    if (in.nodes.isEmpty())
        return conclude(out, Verdict::CouldNotCheck, LibraryRulesText::tr("no node was read"));
    const int count = int(in.nodes.size());
    concludeEachNode(
        in, out,
        [&](const NodeLibraries &node, const QList<redis::LibraryInfo> &libs, QList<Note> &notes) {
            QStringList flagged, fine;
            for (const redis::LibraryInfo &l : libs)
                for (const redis::FunctionInfo &f : l.functions) {
                    if (!isDeduct(f))
                        continue;
                    out.evidence << qMakePair(evidenceName(f.name, node, count),
                                              f.flags.isEmpty() ? LibraryRulesText::tr("no flags")
                                                                : f.flags.join(QLatin1Char(',')));
                    (f.flags.contains(QLatin1String("no-writes")) ? flagged : fine) << f.name;
                }
            if (!flagged.isEmpty())
                addNote(notes, Verdict::Fail,
                        LibraryRulesText::tr(
                            "%1 carries the no-writes flag, so Redis refuses its DECRBY "
                            "and SET and every deduction fails: remove the flag and load "
                            "the library again.")
                            .arg(flagged.join(QStringLiteral(", "))),
                        node.node);
            else if (fine.isEmpty())
                addNote(
                    notes, Verdict::CouldNotCheck,
                    LibraryRulesText::tr("no deduct function is loaded (see the library rule)."),
                    node.node);
            else
                addNote(notes, Verdict::Pass,
                        LibraryRulesText::tr("%1 may write (no no-writes flag).")
                            .arg(fine.join(QStringLiteral(", "))),
                        node.node);
        });
}

void checkLibraryDrift(const AuditInput &in, Finding &out)
{
    out.evidence << qMakePair(LibraryRulesText::tr("primaries"), QString::number(in.nodes.size()));
    QStringList unread;
    QMap<QByteArray, QStringList> byFingerprint;
    for (const NodeLibraries &n : in.nodes) {
        if (!n.libraries.ok()) {
            unread << n.libraries.missing;
            continue;
        }
        const QByteArray fp = functions::nodeFingerprint(*n.libraries.value);
        byFingerprint[fp] << n.node;
        QStringList libs;
        for (const redis::LibraryInfo &l : *n.libraries.value)
            libs << QStringLiteral("%1 %2").arg(l.name, describe(l));
        out.evidence << qMakePair(n.node, libs.isEmpty() ? LibraryRulesText::tr("no libraries")
                                                         : libs.join(QStringLiteral("; ")));
    }
    if (byFingerprint.size() > 1) {
        // The nodes that differ from the largest group are the ones to fix.
        QStringList majority, others;
        for (auto it = byFingerprint.cbegin(); it != byFingerprint.cend(); ++it)
            if (it->size() > majority.size())
                majority = *it;
        for (const QStringList &group : byFingerprint)
            if (group != majority)
                others << group;
        return conclude(
            out, Verdict::Fail,
            LibraryRulesText::tr("%1 hold(s) different libraries from %2, so a deduction "
                                 "runs different code depending on its SKU's slot: load "
                                 "the same release on every primary.")
                .arg(others.join(QStringLiteral(", ")), majority.join(QStringLiteral(", "))));
    }
    if (!unread.isEmpty())
        return conclude(out, Verdict::CouldNotCheck, unread.join(QStringLiteral("; ")));
    if (in.nodes.size() == 1)
        return conclude(out, Verdict::Pass,
                        LibraryRulesText::tr("a single primary: there is one copy of the library, "
                                             "nothing can drift."));
    conclude(out, Verdict::Pass,
             LibraryRulesText::tr("all %1 primaries hold the same libraries, byte for byte.")
                 .arg(in.nodes.size()));
}

} // namespace readiness
