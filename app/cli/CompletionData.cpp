// SPDX-License-Identifier: GPL-3.0-or-later
// inventory-cli --completion-data: the shell completion's source (CompletionData.h).
#include "CompletionData.h"

#include "Subcommand.h"
#include "profiles/Environment.h"
#include "profiles/ProfileStore.h"

#include <QBuffer>
#include <QRegularExpression>
#include <QSettings>

namespace cli {

namespace {

// Deeper than "functions load" nothing nests; the bound keeps a help text that listed its own
// path as a verb from recursing for ever.
constexpr int MaxCompletionDepth = 3;

// What `inventory-cli <words> --help` prints, run in this process. Nothing is read from
// standard input and nothing connects: every verb answers --help before anything else.
QString completionHelpOf(const QStringList &words)
{
    QString text, ignored;
    QTextStream out(&text), err(&ignored);
    QBuffer noInput;
    noInput.open(QIODevice::ReadOnly);
    dispatch(QStringList{QStringLiteral("inventory-cli")} + words
                 + QStringList{QStringLiteral("--help")},
             out, err, noInput);
    out.flush();
    return text;
}

void printCompletionPaths(const QStringList &words, QTextStream &out, int depth)
{
    const HelpSummary summary = summarizeHelp(completionHelpOf(words));
    QStringList options = summary.options;
    if (words.isEmpty()) // the dispatcher's own flags: it has no parser whose help lists them
        options = QStringList{QStringLiteral("--help"), QStringLiteral("-h"),
                              QStringLiteral("--version")};
    out << words.join(QLatin1Char(' ')) << '\t' << options.join(QLatin1Char(' ')) << '\t'
        << summary.verbs.join(QLatin1Char(' ')) << '\t' << summary.arguments.join(QLatin1Char(' '))
        << '\n';
    if (words.isEmpty()) // "inventory-cli help <command>" is "<command> --help"
        out << "help\t\t" << summary.verbs.join(QLatin1Char(' ')) << "\t\n";
    if (depth >= MaxCompletionDepth)
        return;
    for (const QString &verb : summary.verbs)
        printCompletionPaths(words + QStringList{verb}, out, depth + 1);
}

} // namespace

HelpSummary summarizeHelp(const QString &help)
{
    // QCommandLineParser's layout: a section title at column 0 ("Options:"), its entries
    // indented by two spaces, the names column ending at the first run of two spaces.
    static const QRegularExpression optionEntry(QStringLiteral("^  (-[^ ].*?)(?:  |$)"));
    static const QRegularExpression valueName(QStringLiteral(" <([^>]+)>$"));
    static const QRegularExpression wordEntry(
        QStringLiteral("^  ([A-Za-z][A-Za-z0-9_-]*)(?:  |$)"));
    HelpSummary summary;
    QString section;
    for (const QString &line : help.split(QLatin1Char('\n'))) {
        if (!line.isEmpty() && !line.front().isSpace()) {
            section = line.endsWith(QLatin1Char(':')) ? line.chopped(1) : QString();
            continue;
        }
        if (section == QLatin1String("Options")) {
            const auto m = optionEntry.match(line);
            if (!m.hasMatch())
                continue;
            QString names = m.captured(1);
            QString value;
            if (const auto v = valueName.match(names); v.hasMatch()) {
                value = QLatin1Char('=') + v.captured(1);
                names.chop(v.capturedLength());
            }
            for (const QString &name : names.split(QStringLiteral(", ")))
                summary.options << name + value;
        } else if (section == QLatin1String("Commands") || section == QLatin1String("Verbs")
                   || section == QLatin1String("Arguments")) {
            const auto m = wordEntry.match(line);
            if (m.hasMatch())
                (section == QLatin1String("Arguments") ? summary.arguments : summary.verbs)
                    << m.captured(1);
        }
    }
    return summary;
}

int printCompletionData(const QStringList &arguments, QTextStream &out, QTextStream &err,
                        QIODevice &in)
{
    Q_UNUSED(in);
    const QString what = arguments.value(0);
    if (arguments.size() > 1) {
        err << "inventory-cli: --completion-data takes one of: profiles, environments\n";
        return ExitUsage;
    }
    if (what.isEmpty()) {
        printCompletionPaths({}, out, 0);
    } else if (what == QLatin1String("profiles")) {
        // Where the console saves them (as ConnectionArgs' --profile reads them).
        QSettings settings(QStringLiteral("InventoryConsole"), QStringLiteral("inventory-console"));
        for (const profiles::ConnectionProfile &p : profiles::ProfileStore(&settings).list())
            out << p.name << '\n';
    } else if (what == QLatin1String("environments")) {
        for (const auto e : {profiles::Environment::Local, profiles::Environment::Test,
                             profiles::Environment::Staging, profiles::Environment::Production})
            out << profiles::environmentName(e) << '\n';
    } else {
        err << "inventory-cli: --completion-data takes one of: profiles, environments\n";
        return ExitUsage;
    }
    out.flush();
    return ExitOk;
}

} // namespace cli
