// The rules read from FUNCTION LIST WITHCODE: which release is loaded, its flags, and whether
// every primary holds the same libraries.
#include "Rules.h"

#include "functions/LibraryVersion.h"
#include "functions/LocalCatalog.h"

namespace readiness {

namespace {

bool isShipped(const functions::LocalFile &f)
{
    return f.path.startsWith(functions::LocalCatalog::shippedDirectory() + QLatin1Char('/'));
}

// The libraries of the connected node, or "could not check" with the reason.
const QList<redis::LibraryInfo> *connectedLibraries(const AuditInput &in, Finding &out)
{
    if (in.nodes.isEmpty() || !in.nodes.first().libraries.ok()) {
        conclude(out, Verdict::CouldNotCheck,
                 in.nodes.isEmpty() ? QStringLiteral("no node was read")
                                    : in.nodes.first().libraries.missing);
        return nullptr;
    }
    return &*in.nodes.first().libraries.value;
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

void checkLibraryRelease(const AuditInput &in, Finding &out)
{
    const auto *libs = connectedLibraries(in, out);
    if (!libs)
        return;
    if (!in.catalog)
        return conclude(out, Verdict::CouldNotCheck, QStringLiteral("no release catalogue"));
    // One verdict per shipped library; the worst one is the finding's.
    QStringList shippedNames;
    for (const functions::LocalFile &f : in.catalog->files())
        if (isShipped(f) && !shippedNames.contains(f.inspection.library))
            shippedNames << f.inspection.library;
    QList<QPair<Verdict, QString>> notes;
    auto note = [&](Verdict v, const QString &sentence) {
        notes << qMakePair(v, sentence);
    };
    for (const QString &name : shippedNames) {
        const functions::LocalFile *shipped = in.catalog->filesFor(name).value(0);
        for (const functions::LocalFile *f : in.catalog->filesFor(name))
            if (isShipped(*f)) {
                shipped = f;
                break;
            }
        const QString shippedVersion = functions::versionLabel(shipped->inspection.version);
        const redis::LibraryInfo *loaded = loadedNamed(*libs, name);
        if (!loaded) {
            out.evidence << qMakePair(name, QStringLiteral("not loaded"));
            note(Verdict::Fail,
                 QStringLiteral("%1 is not loaded, so every deduction fails with 'Function not "
                                "found': load the shipped %2 (inventory-cli functions load).")
                     .arg(name, shippedVersion));
            continue;
        }
        const functions::LibraryMatch match = in.catalog->match(*loaded);
        out.evidence << qMakePair(name,
                                  QStringLiteral("%1 (%2)").arg(describe(*loaded), match.text()));
        const bool identical = match.kind == functions::LibraryMatch::Kind::Identical;
        if (identical && match.file == shipped->displayName)
            note(Verdict::Pass, QStringLiteral("%1 is byte for byte the shipped release %2.")
                                    .arg(name, shippedVersion));
        else if (identical)
            note(Verdict::Warn,
                 QStringLiteral("%1 is the older release %2, not the shipped %3: "
                                "load the shipped release before relying on what "
                                "%3 fixed.")
                     .arg(name, functions::versionLabel(match.fileVersion), shippedVersion));
        else
            note(Verdict::Fail,
                 QStringLiteral("%1 matches no release (%2): code nobody shipped deducts stock; "
                                "load the shipped %3 (inventory-cli functions load).")
                     .arg(name, describe(*loaded), shippedVersion));
    }
    if (shippedNames.isEmpty())
        return conclude(out, Verdict::CouldNotCheck,
                        QStringLiteral("the console ships no library to compare with"));
    // The worst first: it is the one to act on, and the finding's verdict.
    std::stable_sort(notes.begin(), notes.end(),
                     [](const auto &a, const auto &b) { return int(a.first) > int(b.first); });
    out.verdict = notes.first().first;
    QStringList sentences;
    for (const auto &n : notes)
        sentences << n.second;
    out.why = sentences.join(QLatin1Char(' '));
}

void checkDeductWrites(const AuditInput &in, Finding &out)
{
    const auto *libs = connectedLibraries(in, out);
    if (!libs)
        return;
    QStringList flagged, fine;
    for (const redis::LibraryInfo &l : *libs)
        for (const redis::FunctionInfo &f : l.functions) {
            if (!isDeduct(f))
                continue;
            out.evidence << qMakePair(f.name, f.flags.isEmpty() ? QStringLiteral("no flags")
                                                                : f.flags.join(QLatin1Char(',')));
            (f.flags.contains(QLatin1String("no-writes")) ? flagged : fine) << f.name;
        }
    if (!flagged.isEmpty())
        return conclude(out, Verdict::Fail,
                        QStringLiteral("%1 carries the no-writes flag, so Redis refuses its "
                                       "DECRBY and SET and every deduction fails: remove the flag "
                                       "and load the library again.")
                            .arg(flagged.join(QStringLiteral(", "))));
    if (fine.isEmpty())
        return conclude(out, Verdict::CouldNotCheck,
                        QStringLiteral("no deduct function is loaded (see the library rule)."));
    conclude(
        out, Verdict::Pass,
        QStringLiteral("%1 may write (no no-writes flag).").arg(fine.join(QStringLiteral(", "))));
}

void checkLibraryDrift(const AuditInput &in, Finding &out)
{
    out.evidence << qMakePair(QStringLiteral("primaries"), QString::number(in.nodes.size()));
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
        out.evidence << qMakePair(n.node, libs.isEmpty() ? QStringLiteral("no libraries")
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
            QStringLiteral("%1 hold(s) different libraries from %2, so a deduction "
                           "runs different code depending on its SKU's slot: load "
                           "the same release on every primary.")
                .arg(others.join(QStringLiteral(", ")), majority.join(QStringLiteral(", "))));
    }
    if (!unread.isEmpty())
        return conclude(out, Verdict::CouldNotCheck, unread.join(QStringLiteral("; ")));
    if (in.nodes.size() == 1)
        return conclude(out, Verdict::Pass,
                        QStringLiteral("a single primary: there is one copy of the library, "
                                       "nothing can drift."));
    conclude(out, Verdict::Pass,
             QStringLiteral("all %1 primaries hold the same libraries, byte for byte.")
                 .arg(in.nodes.size()));
}

} // namespace readiness
