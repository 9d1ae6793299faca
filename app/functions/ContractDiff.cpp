// SPDX-License-Identifier: GPL-3.0-or-later
#include "ContractDiff.h"

#include "LibraryVersion.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>

namespace functions {

namespace {

// A diff's notes, breaking reasons and summary are shown in the window's language (the
// wizard's contract page, the diff preview); the CLI, --json and the log keep the English.
const char *const DiffContext = "functions::ContractDiff";

QString diffWord(core::Wording wording, const char *source)
{
    return core::word(wording, DiffContext, source);
}

// A warning or refusal of the diff, in both copies.
core::Sentence diffSaid(const char *source)
{
    return core::Sentence::translated(DiffContext, source);
}

QString describeFlags(const QStringList &flags, core::Wording wording = core::Wording::English)
{
    return flags.isEmpty()
               ? diffWord(wording, QT_TRANSLATE_NOOP("functions::ContractDiff", "(none)"))
               : flags.join(QStringLiteral(", "));
}

// One note, in English (notes) and in the window's language (notesText).
void note(FunctionDiff &f, const char *source, const QString &a = {}, const QString &b = {})
{
    const auto fill = [&](QString s) {
        return a.isNull() ? s : b.isNull() ? s.arg(a) : s.arg(a, b);
    };
    f.notes << fill(QString::fromUtf8(source));
    f.notesText << fill(QCoreApplication::translate(DiffContext, source));
}

QJsonValue optionalText(const std::optional<QString> &s)
{
    return s ? QJsonValue(*s) : QJsonValue(QJsonValue::Null);
}

QJsonObject functionJson(const redis::FunctionInfo &f)
{
    return {{QStringLiteral("name"), f.name},
            {QStringLiteral("description"), optionalText(f.description)},
            {QStringLiteral("flags"), QJsonArray::fromStringList(f.flags)}};
}

const redis::LibraryInfo *findLibrary(const QList<redis::LibraryInfo> &libs, const QString &name)
{
    for (const redis::LibraryInfo &l : libs)
        if (l.name == name)
            return &l;
    return nullptr;
}

void addVersionWarnings(ContractDiff &d)
{
    if (d.codeIdentical || !d.existsAfter)
        return;
    if (d.versionAfter.isEmpty())
        d.warnings << diffSaid(QT_TRANSLATE_NOOP("functions::ContractDiff",
                                                 "the new code states no version (a \"-- "
                                                 "version:\" line right after the shebang)"));
    if (!d.existsBefore)
        return;
    if (d.versionBefore == d.versionAfter)
        d.warnings << diffSaid(QT_TRANSLATE_NOOP("functions::ContractDiff",
                                                 "the code changed but the version did not (%1)"))
                          .arg(versionLabel(d.versionAfter));
    else if (!d.versionBefore.isEmpty() && !d.versionAfter.isEmpty()
             && compareVersions(d.versionAfter, d.versionBefore) < 0) {
        d.versionDown = true;
        d.warnings << versionDownWarning(d);
    }
}

void finish(ContractDiff &d)
{
    std::sort(d.functions.begin(), d.functions.end(),
              [](const FunctionDiff &a, const FunctionDiff &b) { return a.name < b.name; });
    Verdict v = d.codeIdentical ? Verdict::NoChange : Verdict::Compatible;
    for (const FunctionDiff &f : d.functions)
        v = std::max(v, f.verdict);
    if (!d.refusals.isEmpty())
        v = Verdict::Refused;
    d.verdict = v;
}

} // namespace

QString verdictWord(Verdict v, core::Wording wording)
{
    switch (v) {
    case Verdict::NoChange:
        return diffWord(wording, QT_TRANSLATE_NOOP("functions::ContractDiff", "no-change"));
    case Verdict::Compatible:
        return diffWord(wording, QT_TRANSLATE_NOOP("functions::ContractDiff", "compatible"));
    case Verdict::Breaking:
        return diffWord(wording, QT_TRANSLATE_NOOP("functions::ContractDiff", "breaking"));
    case Verdict::Refused:
        return diffWord(wording, QT_TRANSLATE_NOOP("functions::ContractDiff", "refused"));
    }
    return {};
}

QString verdictName(Verdict v)
{
    switch (v) {
    case Verdict::NoChange:
        return QStringLiteral("no-change");
    case Verdict::Compatible:
        return QStringLiteral("compatible");
    case Verdict::Breaking:
        return QStringLiteral("breaking");
    case Verdict::Refused:
        return QStringLiteral("refused");
    }
    return {};
}

bool hasContractVersion(const QString &functionName)
{
    static const QRegularExpression re(QStringLiteral("_v[0-9]+$"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re.match(functionName).hasMatch();
}

namespace {

// What the server holds before: version, fingerprint and, when the code differs, the loaded
// code inspected offline (nullopt when there is nothing to inspect).
std::optional<Inspection> describeBefore(ContractDiff &d, const redis::LibraryInfo *current,
                                         const Inspection &incoming)
{
    if (!current)
        return std::nullopt;
    d.existsBefore = true;
    d.versionBefore = libraryVersion(current->code);
    d.fingerprintBefore = codeFingerprint(current->code);
    d.codeIdentical = current->hasCode && current->code == incoming.code;
    if (!current->hasCode || d.codeIdentical)
        return std::nullopt;
    std::optional<Inspection> inspected = inspectLibrary(current->code);
    if (!inspected->ok())
        d.warnings << diffSaid(QT_TRANSLATE_NOOP("functions::ContractDiff",
                                                 "the loaded code could not be inspected "
                                                 "offline (%1): function bodies were not "
                                                 "compared"))
                          .arg(inspected->problem->sentence());
    return inspected;
}

// A function in both: did its body (and what it uses) change? `bodies`: the loaded code
// inspected, or nullptr when it could not be.
void compareBody(FunctionDiff &f, ContractDiff &d, const redis::FunctionInfo &before,
                 const InspectedFunction &after, const Inspection *bodies)
{
    if (d.codeIdentical)
        return; // nothing else to compare
    if (!bodies) {
        f.bodyUnknown = true;
        return;
    }
    if (const InspectedFunction *old = bodies->function(before.name);
        old && old->behaviour == after.behaviour) {
        if (f.notes.isEmpty())
            note(f, QT_TRANSLATE_NOOP("functions::ContractDiff",
                                      "unchanged: its code and everything it uses are identical"));
        return;
    }
    f.bodyChanged = true;
    f.verdict = std::max(f.verdict, Verdict::Compatible);
    if (!hasContractVersion(after.info.name)) {
        note(f, QT_TRANSLATE_NOOP("functions::ContractDiff", "code changed"));
        return;
    }
    note(f,
         QT_TRANSLATE_NOOP(
             "functions::ContractDiff",
             "in-place contract change: the code of %1 changed under the same contract name"),
         after.info.name);
    d.warnings << diffSaid(QT_TRANSLATE_NOOP("functions::ContractDiff",
                                             "in-place contract change: %1's code changed; an "
                                             "incompatible change needs a new name (_v%2)"))
                      .arg(after.info.name)
                      .arg(after.info.name.section(QLatin1String("_v"), -1).toInt() + 1);
}

// A function the server has, against the incoming code: removed, or its name, flags,
// description and body compared (the server's flags and descriptions are the truth).
FunctionDiff diffFunction(ContractDiff &d, const redis::FunctionInfo &before,
                          const Inspection &incoming, const Inspection *bodies)
{
    FunctionDiff f;
    f.name = before.name;
    f.before = before;
    const InspectedFunction *after = incoming.function(before.name);
    if (!after) {
        f.verdict = Verdict::Breaking;
        note(f,
             QT_TRANSLATE_NOOP("functions::ContractDiff",
                               "removed: callers of %1 will get an error"),
             before.name);
        return f;
    }
    f.after = after->info;
    f.name = after->info.name;
    f.renamedCase = after->info.name != before.name;
    if (f.renamedCase)
        note(f,
             QT_TRANSLATE_NOOP("functions::ContractDiff",
                               "renamed %1 → %2 (case only; FCALL finds either)"),
             before.name, after->info.name);
    if (after->info.flags != before.flags) {
        f.flagsChanged = true;
        f.verdict = Verdict::Breaking;
        const char *flagsChange =
            QT_TRANSLATE_NOOP("functions::ContractDiff", "flags change: %1 → %2");
        f.notes << QString::fromUtf8(flagsChange)
                       .arg(describeFlags(before.flags), describeFlags(after->info.flags));
        f.notesText << QCoreApplication::translate(DiffContext, flagsChange)
                           .arg(describeFlags(before.flags, core::Wording::Translated),
                                describeFlags(after->info.flags, core::Wording::Translated));
    }
    if (after->info.description != before.description) {
        f.descriptionChanged = true;
        f.verdict = std::max(f.verdict, Verdict::Compatible);
        note(f, QT_TRANSLATE_NOOP("functions::ContractDiff", "description changed"));
    }
    compareBody(f, d, before, *after, bodies);
    return f;
}

QList<FunctionDiff> addedFunctions(const Inspection &incoming, const redis::LibraryInfo *current)
{
    QList<FunctionDiff> added;
    for (const InspectedFunction &after : incoming.functions) {
        const bool known =
            current
            && std::any_of(current->functions.begin(), current->functions.end(),
                           [&](const redis::FunctionInfo &b) {
                               return b.name.compare(after.info.name, Qt::CaseInsensitive) == 0;
                           });
        if (known)
            continue;
        FunctionDiff f;
        f.name = after.info.name;
        f.after = after.info;
        f.verdict = Verdict::Compatible;
        note(f, QT_TRANSLATE_NOOP("functions::ContractDiff", "added"));
        added << f;
    }
    return added;
}

// The incoming functions other libraries already have (Redis compares them ignoring case).
QList<Collision> collisionsWith(const Inspection &incoming, const QList<redis::LibraryInfo> &others)
{
    QList<Collision> found;
    for (const redis::LibraryInfo &other : others) {
        if (other.name == incoming.library)
            continue;
        for (const redis::FunctionInfo &theirs : other.functions)
            if (incoming.function(theirs.name))
                found << Collision{incoming.function(theirs.name)->info.name, other.name,
                                   theirs.name};
    }
    return found;
}

} // namespace

ContractDiff diffContract(const Inspection &incoming, const QList<redis::LibraryInfo> &loaded,
                          const QList<redis::LibraryInfo> *neighbours)
{
    ContractDiff d;
    d.library = incoming.library;
    d.versionAfter = incoming.version;
    d.fingerprintAfter = incoming.fingerprint;
    if (!incoming.ok()) {
        d.refusals << (incoming.problem->judged()
                           ? diffSaid(QT_TRANSLATE_NOOP("functions::ContractDiff",
                                                        "the file was refused offline: %1"))
                           : diffSaid(QT_TRANSLATE_NOOP(
                               "functions::ContractDiff",
                               "the file could not be inspected offline, so it is not loaded "
                               "(this says nothing about the code; try again): %1")))
                          .arg(incoming.problem->sentence());
        d.verdict = Verdict::Refused;
        return d;
    }
    const redis::LibraryInfo *current = findLibrary(loaded, incoming.library);
    const std::optional<Inspection> currentInspected = describeBefore(d, current, incoming);
    const Inspection *bodies =
        currentInspected && currentInspected->ok() ? &*currentInspected : nullptr;
    if (current)
        for (const redis::FunctionInfo &before : current->functions)
            d.functions << diffFunction(d, before, incoming, bodies);
    d.functions << addedFunctions(incoming, current);
    d.collisions << collisionsWith(incoming, neighbours ? *neighbours : loaded);
    for (const Collision &c : d.collisions)
        d.refusals << diffSaid(QT_TRANSLATE_NOOP("functions::ContractDiff",
                                                 "Function %1 already exists in library %2 "
                                                 "(as %3)"))
                          .arg(c.function, c.otherLibrary, c.otherFunction);
    addVersionWarnings(d);
    finish(d);
    return d;
}

ContractDiff diffRemoval(const redis::LibraryInfo &library)
{
    ContractDiff d;
    d.library = library.name;
    d.existsBefore = true;
    d.existsAfter = false;
    d.versionBefore = libraryVersion(library.code);
    d.fingerprintBefore = library.hasCode ? codeFingerprint(library.code) : QByteArray();
    for (const redis::FunctionInfo &before : library.functions) {
        FunctionDiff f;
        f.name = before.name;
        f.before = before;
        f.verdict = Verdict::Breaking;
        note(f,
             QT_TRANSLATE_NOOP("functions::ContractDiff",
                               "removed: callers of %1 will get an error"),
             before.name);
        d.functions << f;
    }
    finish(d);
    d.verdict = std::max(d.verdict, Verdict::Breaking); // a library with no functions: still
    return d;
}

QStringList ContractDiff::breakingReasons(core::Wording wording) const
{
    const auto say = [wording](const char *source) {
        return diffWord(wording, source);
    };
    QStringList out;
    for (const FunctionDiff &f : functions) {
        if (f.removed())
            out << say(QT_TRANSLATE_NOOP("functions::ContractDiff", "%1 is removed")).arg(f.name);
        else if (f.flagsChanged)
            out << say(QT_TRANSLATE_NOOP("functions::ContractDiff", "%1 changes flags: %2 → %3"))
                       .arg(f.name, describeFlags(f.before->flags, wording),
                            describeFlags(f.after->flags, wording));
    }
    if (!existsAfter && out.isEmpty())
        out << say(QT_TRANSLATE_NOOP("functions::ContractDiff", "library %1 is deleted"))
                   .arg(library);
    return out;
}

QString ContractDiff::summary(core::Wording wording) const
{
    const auto say = [wording](const char *source) {
        return diffWord(wording, source);
    };
    int added = 0;
    int removed = 0;
    int changed = 0;
    for (const FunctionDiff &f : functions) {
        if (f.added())
            ++added;
        else if (f.removed())
            ++removed;
        else if (f.flagsChanged || f.descriptionChanged || f.bodyChanged || f.renamedCase)
            ++changed;
    }
    QStringList parts;
    if (added)
        parts << say(QT_TRANSLATE_NOOP("functions::ContractDiff", "%1 added")).arg(added);
    if (removed)
        parts << say(QT_TRANSLATE_NOOP("functions::ContractDiff", "%1 removed")).arg(removed);
    if (changed)
        parts << say(QT_TRANSLATE_NOOP("functions::ContractDiff", "%1 changed")).arg(changed);
    if (!collisions.isEmpty())
        parts << say(QT_TRANSLATE_NOOP("functions::ContractDiff", "%1 collisions"))
                     .arg(collisions.size());
    if (!beforeUnreadable.isEmpty())
        return say(QT_TRANSLATE_NOOP("functions::ContractDiff", "%1: %2; nothing was compared"))
            .arg(library, beforeUnreadable.in(wording));
    const QString from = existsBefore
                             ? versionLabel(versionBefore)
                             : say(QT_TRANSLATE_NOOP("functions::ContractDiff", "not loaded"));
    const QString to = existsAfter ? versionLabel(versionAfter)
                                   : say(QT_TRANSLATE_NOOP("functions::ContractDiff", "deleted"));
    if (parts.isEmpty())
        return say(QT_TRANSLATE_NOOP("functions::ContractDiff", "%1 %2 → %3: %4"))
            .arg(library, from, to, verdictWord(verdict, wording));
    return say(QT_TRANSLATE_NOOP("functions::ContractDiff", "%1 %2 → %3: %4 (%5)"))
        .arg(library, from, to, verdictWord(verdict, wording),
             parts.join(say(QT_TRANSLATE_NOOP("functions::ContractDiff", ", "))));
}

QJsonObject ContractDiff::toJson() const
{
    QJsonArray fns;
    for (const FunctionDiff &f : functions) {
        QJsonObject o{{QStringLiteral("name"), f.name},
                      {QStringLiteral("verdict"), verdictName(f.verdict)},
                      {QStringLiteral("added"), f.added()},
                      {QStringLiteral("removed"), f.removed()},
                      {QStringLiteral("flags_changed"), f.flagsChanged},
                      {QStringLiteral("description_changed"), f.descriptionChanged},
                      {QStringLiteral("body_changed"), f.bodyChanged},
                      {QStringLiteral("body_unknown"), f.bodyUnknown},
                      {QStringLiteral("notes"), QJsonArray::fromStringList(f.notes)}};
        if (f.before)
            o.insert(QStringLiteral("before"), functionJson(*f.before));
        if (f.after)
            o.insert(QStringLiteral("after"), functionJson(*f.after));
        fns.append(o);
    }
    QJsonArray cols;
    for (const Collision &c : collisions)
        cols.append(QJsonObject{{QStringLiteral("function"), c.function},
                                {QStringLiteral("other_library"), c.otherLibrary},
                                {QStringLiteral("other_function"), c.otherFunction}});
    QJsonObject o{{QStringLiteral("library"), library},
                  {QStringLiteral("exists_before"),
                   beforeUnreadable.isEmpty() ? QJsonValue(existsBefore) : QJsonValue()},
                  {QStringLiteral("exists_after"), existsAfter},
                  {QStringLiteral("version_before"), versionBefore},
                  {QStringLiteral("version_after"), versionAfter},
                  {QStringLiteral("sha256_before"), QString::fromLatin1(fingerprintBefore)},
                  {QStringLiteral("sha256_after"), QString::fromLatin1(fingerprintAfter)},
                  {QStringLiteral("code_identical"), codeIdentical},
                  {QStringLiteral("verdict"), verdictName(verdict)},
                  {QStringLiteral("functions"), fns},
                  {QStringLiteral("collisions"), cols},
                  {QStringLiteral("breaking"), QJsonArray::fromStringList(breakingReasons())},
                  {QStringLiteral("warnings"),
                   QJsonArray::fromStringList(core::copies(warnings, core::Wording::English))},
                  {QStringLiteral("refusals"),
                   QJsonArray::fromStringList(core::copies(refusals, core::Wording::English))}};
    if (!beforeUnreadable.isEmpty())
        o.insert(QStringLiteral("before_error"), beforeUnreadable.english);
    return o;
}

core::Sentence versionDownWarning(const ContractDiff &d)
{
    return diffSaid(QT_TRANSLATE_NOOP("functions::ContractDiff",
                                      "the version goes down, %1 → %2: an older release "
                                      "replaces a newer one"))
        .arg(d.versionBefore, d.versionAfter);
}

} // namespace functions
