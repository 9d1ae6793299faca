// SPDX-License-Identifier: GPL-3.0-or-later
#include "FunctionsLog.h"
#include "Inspection.h"
#include "IsolatedLoad.h"
#include "LibraryVersion.h"

#include "core/RegularFile.h"

#include <algorithm>
#include <cctype>

namespace functions {

namespace {

using Kind = InspectionProblem::Kind;

// What the inspection says in the window's language (the CLI and the log keep the English).
const char *const InspectionContext = "functions::Inspection";

core::Sentence inspectionSaid(const char *source)
{
    return core::Sentence::translated(InspectionContext, source);
}

// sdssplitargs, the splitter Redis applies to the shebang line: blanks separate, quotes
// group. nullopt for unbalanced quotes (Redis then says "Invalid library metadata").
std::optional<QList<QByteArray>> splitArgs(const QByteArray &line)
{
    QList<QByteArray> out;
    qsizetype i = 0;
    while (true) {
        while (i < line.size() && std::isspace(uchar(line.at(i))))
            ++i;
        if (i >= line.size())
            return out;
        QByteArray current;
        char quote = 0;
        for (; i < line.size(); ++i) {
            const char c = line.at(i);
            if (quote) {
                if (c == quote) {
                    quote = 0;
                    if (i + 1 < line.size() && !std::isspace(uchar(line.at(i + 1))))
                        return std::nullopt; // closing quote must be followed by a blank
                } else {
                    current += c;
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (std::isspace(uchar(c))) {
                break;
            } else {
                current += c;
            }
        }
        if (quote)
            return std::nullopt;
        out << current;
    }
}

// Redis's functionExtractLibMetaData, same order of checks and same texts.
std::optional<InspectionProblem> readMetadata(const QByteArray &code, Inspection &out)
{
    const auto problem = [](Kind kind, const core::Sentence &message) {
        return InspectionProblem{kind, message, 1};
    };
    if (!code.startsWith("#!"))
        return problem(
            Kind::MissingMetadata,
            inspectionSaid(QT_TRANSLATE_NOOP("functions::Inspection", "Missing library metadata")));
    const qsizetype end = code.indexOf('\n');
    if (end < 0)
        return problem(Kind::InvalidMetadata, inspectionSaid(QT_TRANSLATE_NOOP(
                                                  "functions::Inspection",
                                                  "Invalid library metadata: the first line has no "
                                                  "end")));
    const auto parts = splitArgs(code.left(end));
    if (!parts || parts->isEmpty())
        return problem(
            Kind::InvalidMetadata,
            inspectionSaid(QT_TRANSLATE_NOOP("functions::Inspection", "Invalid library metadata")));
    out.engine = QString::fromUtf8(parts->first().mid(2));
    std::optional<QString> name;
    for (qsizetype i = 1; i < parts->size(); ++i) {
        const QByteArray &part = parts->at(i);
        if (part.left(5).toLower() == "name=") {
            if (name)
                return problem(
                    Kind::InvalidMetadata,
                    inspectionSaid(QT_TRANSLATE_NOOP("functions::Inspection",
                                                     "Invalid metadata value, name argument was "
                                                     "given multiple times")));
            name = QString::fromUtf8(part.mid(5));
            continue;
        }
        return problem(Kind::UnknownMetadata,
                       inspectionSaid(QT_TRANSLATE_NOOP("functions::Inspection",
                                                        "Invalid metadata value given: %1"))
                           .arg(QString::fromUtf8(part)));
    }
    if (!name)
        return problem(Kind::MissingName,
                       inspectionSaid(QT_TRANSLATE_NOOP("functions::Inspection",
                                                        "Library name was not given")));
    out.library = *name;
    if (!isValidName(out.library))
        return problem(Kind::BadLibraryName, inspectionSaid(QT_TRANSLATE_NOOP(
                                                 "functions::Inspection",
                                                 "Library names can only contain letters, numbers, "
                                                 "or underscores(_) and must be at least one "
                                                 "character long")));
    if (out.engine.compare(QLatin1String("lua"), Qt::CaseInsensitive) != 0)
        return problem(
            Kind::UnknownEngine,
            inspectionSaid(QT_TRANSLATE_NOOP("functions::Inspection", "Engine '%1' not found"))
                .arg(out.engine));
    out.engine = QStringLiteral("LUA");
    return std::nullopt;
}

std::optional<InspectionProblem> checkText(const QByteArray &code, const InspectOptions &options)
{
    if (code.size() > options.maxLibrarySize)
        return InspectionProblem{
            Kind::TooLarge,
            inspectionSaid(QT_TRANSLATE_NOOP("functions::Inspection",
                                             "the library is %1 bytes, above the "
                                             "limit of %2 bytes"))
                .arg(code.size(), options.maxLibrarySize),
            0};
    if (const qsizetype nul = code.indexOf('\0'); nul >= 0)
        return InspectionProblem{
            Kind::NotText,
            inspectionSaid(QT_TRANSLATE_NOOP("functions::Inspection",
                                             "not a text file: a NUL byte at offset "
                                             "%1"))
                .arg(nul),
            int(code.left(nul).count('\n') + 1)};
    // fromUtf8 drops a byte order mark, so the round trip below would call such a file "not
    // UTF-8"; what is wrong is that Redis wants "#!lua" as the very first bytes.
    if (code.startsWith("\xEF\xBB\xBF"))
        return InspectionProblem{
            Kind::MissingMetadata,
            inspectionSaid(QT_TRANSLATE_NOOP("functions::Inspection",
                                             "the file starts with a UTF-8 byte order "
                                             "mark: Redis needs '#!lua' as its very "
                                             "first bytes (Missing library metadata); "
                                             "save it without the mark")),
            1};
    // A round trip through UTF-16 changes exactly the bytes that are not UTF-8.
    const auto isUtf8 = [](const QByteArray &b) {
        return QString::fromUtf8(b).toUtf8() == b;
    };
    if (!isUtf8(code)) {
        int line = 1;
        for (const QByteArray &l : code.split('\n')) {
            if (!isUtf8(l))
                break;
            ++line;
        }
        return InspectionProblem{
            Kind::NotText,
            inspectionSaid(QT_TRANSLATE_NOOP("functions::Inspection", "not UTF-8 text")), line};
    }
    return std::nullopt;
}

} // namespace

QString InspectionProblem::toString() const
{
    return sentence().english;
}

core::Sentence InspectionProblem::sentence() const
{
    if (line <= 0)
        return message;
    return inspectionSaid(QT_TRANSLATE_NOOP("functions::Inspection", "line %1: %2"))
        .arg(QString::number(line), message);
}

QString InspectionProblem::refusal() const
{
    if (kind == Kind::NotInspected)
        return QStringLiteral("could not be inspected offline, so it is not loaded (this says "
                              "nothing about the code; try again): %1")
            .arg(toString());
    return QStringLiteral("was refused offline: %1").arg(toString());
}

QString problemKindName(InspectionProblem::Kind kind)
{
    switch (kind) {
    case Kind::NotText:
        return QStringLiteral("not-text");
    case Kind::TooLarge:
        return QStringLiteral("too-large");
    case Kind::MissingMetadata:
        return QStringLiteral("missing-metadata");
    case Kind::InvalidMetadata:
        return QStringLiteral("invalid-metadata");
    case Kind::UnknownMetadata:
        return QStringLiteral("unknown-metadata");
    case Kind::MissingName:
        return QStringLiteral("missing-name");
    case Kind::BadLibraryName:
        return QStringLiteral("bad-library-name");
    case Kind::UnknownEngine:
        return QStringLiteral("unknown-engine");
    case Kind::CompileError:
        return QStringLiteral("compile-error");
    case Kind::NonexistentGlobal:
        return QStringLiteral("nonexistent-global");
    case Kind::ReadOnlyGlobal:
        return QStringLiteral("read-only-global");
    case Kind::BadArguments:
        return QStringLiteral("bad-arguments");
    case Kind::BadFunctionName:
        return QStringLiteral("bad-function-name");
    case Kind::UnknownFlag:
        return QStringLiteral("unknown-flag");
    case Kind::DuplicateFunction:
        return QStringLiteral("duplicate-function");
    case Kind::NoFunctions:
        return QStringLiteral("no-functions");
    case Kind::RuntimeError:
        return QStringLiteral("runtime-error");
    case Kind::TimeBudget:
        return QStringLiteral("time-budget");
    case Kind::MemoryBudget:
        return QStringLiteral("memory-budget");
    case Kind::NotInspected:
        return QStringLiteral("not-inspected");
    }
    return {};
}

bool isValidName(const QString &name)
{
    if (name.isEmpty())
        return false;
    return std::all_of(name.begin(), name.end(), [](QChar c) {
        return (c >= QLatin1Char('a') && c <= QLatin1Char('z'))
               || (c >= QLatin1Char('A') && c <= QLatin1Char('Z'))
               || (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('_');
    });
}

redis::LibraryInfo Inspection::toLibraryInfo() const
{
    redis::LibraryInfo info;
    info.name = library;
    info.engine = engine;
    for (const InspectedFunction &f : functions)
        info.functions << f.info;
    return info;
}

const InspectedFunction *Inspection::function(const QString &name) const
{
    for (const InspectedFunction &f : functions)
        if (f.info.name.compare(name, Qt::CaseInsensitive) == 0)
            return &f;
    return nullptr;
}

namespace {

// "4, 9": the lines a warning names (the sentence says "line" or "lines").
QString lineNumbers(const QList<int> &lines)
{
    QStringList numbers;
    for (int l : lines)
        numbers << QString::number(l);
    return numbers.join(QStringLiteral(", "));
}

// Said whatever the target: a library is loaded on one server today and on another tomorrow.
core::Sentences serverAliasWarnings(const ServerAliasUse &use)
{
    const auto said = [](const QList<int> &lines, const char *one, const char *several) {
        return core::Sentence::translated(InspectionContext, lines.size() == 1 ? one : several)
            .arg(lineNumbers(lines));
    };
    core::Sentences out;
    if (!use.topLevelLines.isEmpty())
        out << said(use.topLevelLines,
                    QT_TRANSLATE_NOOP("functions::Inspection",
                                      "line %1: `server` is Valkey's name for `redis`; Redis has "
                                      "no such global, so this library will not load on Redis"),
                    QT_TRANSLATE_NOOP("functions::Inspection",
                                      "lines %1: `server` is Valkey's name for `redis`; Redis has "
                                      "no such global, so this library will not load on Redis"));
    if (!use.functionLines.isEmpty())
        out << said(use.functionLines,
                    QT_TRANSLATE_NOOP("functions::Inspection",
                                      "line %1: `server` is Valkey's name for `redis`; on Redis "
                                      "the library loads but its functions fail when they reach "
                                      "these lines"),
                    QT_TRANSLATE_NOOP("functions::Inspection",
                                      "lines %1: `server` is Valkey's name for `redis`; on Redis "
                                      "the library loads but its functions fail when they reach "
                                      "these lines"));
    return out;
}

} // namespace

Inspection inspectLibrary(const QByteArray &code, const QString &fileName,
                          const InspectOptions &options)
{
    Inspection out;
    out.fileName = fileName;
    out.code = code;
    out.fingerprint = codeFingerprint(code);
    if ((out.problem = checkText(code, options)))
        return out;
    out.version = libraryVersion(code);
    if ((out.problem = readMetadata(code, out)))
        return out;

    out.serverAlias = findServerAlias(code);
    out.warnings = serverAliasWarnings(out.serverAlias);
    const detail::LoadRun run = detail::runLoadIsolated(code, options);
    out.log = run.log;
    if (run.problem)
        out.problem = run.problem->problem(); // translated here, whatever process ran it
    else if (run.functions.isEmpty())
        out.problem = InspectionProblem{
            Kind::NoFunctions,
            inspectionSaid(QT_TRANSLATE_NOOP("functions::Inspection", "No functions registered")),
            0};
    if (!out.problem) {
        out.functions = run.functions;
        std::sort(out.functions.begin(), out.functions.end(),
                  [](const InspectedFunction &a, const InspectedFunction &b) {
                      return a.info.name < b.info.name;
                  });
    }
    if (out.problem)
        qCInfo(lcFunctions) << "inspection refused" << (fileName.isEmpty() ? out.library : fileName)
                            << problemKindName(out.problem->kind) << out.problem->toString();
    return out;
}

InspectedFile inspectFile(const QString &path, const InspectOptions &options)
{
    // A library is a regular file: a FIFO, /dev/zero or a huge sparse file is refused before
    // it is read (core/RegularFile.h); one over the size policy is an inspection problem.
    const auto code = core::readRegularFile(path, options.maxLibrarySize);
    if (!code && code.error().kind == core::FileReadError::Kind::TooLarge) {
        Inspection out;
        out.fileName = path;
        out.problem =
            InspectionProblem{Kind::TooLarge,
                              inspectionSaid(QT_TRANSLATE_NOOP("functions::Inspection",
                                                               "the file is %1 bytes, above the "
                                                               "limit of %2 bytes"))
                                  .arg(code.error().size, options.maxLibrarySize),
                              0};
        return out;
    }
    if (!code)
        return code.error().message;
    return inspectLibrary(code.value(), path, options);
}

} // namespace functions
