// SPDX-License-Identifier: GPL-3.0-or-later
#include "Subcommand.h"

#include "CompletionData.h"
#include "TerminalSafeDevice.h"
#include "core/Arguments.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <optional>

namespace cli {

namespace {
QList<Subcommand> &registry()
{
    static QList<Subcommand> list;
    return list;
}

void printOverview(QTextStream &out)
{
    out << "Usage: inventory-cli <command> [options]\n\n"
           "The Inventory Console's command line: the same core as the desktop console, no\n"
           "display needed.\n\nCommands:\n";
    int width = 0;
    for (const Subcommand &s : subcommands())
        width = std::max(width, int(s.name.size()));
    for (const Subcommand &s : subcommands())
        out << "  " << s.name.leftJustified(width + 2) << s.summary << '\n';
    out << "\nRun 'inventory-cli <command> --help' for a command's options.\n"
           "Exit codes: 0 success, 1 failed, 2 bad arguments, 3 could not connect.\n";
    out.flush();
}
} // namespace

void Context::exactBytesOnStdout()
{
    out.flush();
    if (auto *safe = qobject_cast<TerminalSafeDevice *>(out.device()))
        safe->setPassThrough(true);
}

int Context::fail(int code, const QString &message)
{
    err << commandName << ": " << message << '\n';
    err.flush();
    return code;
}

Registration::Registration(const char *name, const char *summary, RunFunction run)
{
    registry().append(Subcommand{QString::fromLatin1(name), QString::fromUtf8(summary), run});
}

QList<Subcommand> subcommands()
{
    QList<Subcommand> out = registry();
    std::sort(out.begin(), out.end(),
              [](const Subcommand &a, const Subcommand &b) { return a.name < b.name; });
    return out;
}

std::optional<int> parseArguments(QCommandLineParser &parser, Context &context)
{
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help."));
    parser.addOption(help);
    if (!parser.parse(context.arguments)) {
        QString why = parser.errorText();
        if (why.endsWith(QLatin1Char('.')))
            why.chop(1);
        return context.fail(ExitUsage,
                            QStringLiteral("%1 (see %2 --help)").arg(why, context.commandName));
    }
    if (parser.isSet(help)) {
        // QCommandLineParser names the executable alone; say which subcommand.
        QString text = parser.helpText();
        const qsizetype usage = text.indexOf(QLatin1String("Usage: "));
        if (usage >= 0) {
            const qsizetype end = text.indexOf(QLatin1Char(' '), usage + 7);
            text.replace(usage + 7, end - usage - 7, context.commandName);
        }
        if (!text.endsWith(QLatin1Char('\n')))
            text += QLatin1Char('\n');
        context.out << text;
        context.out.flush();
        return int(ExitOk);
    }
    if (const auto repeated = repeatedOption(parser))
        return context.fail(
            ExitUsage, QStringLiteral("%1 (see %2 --help)").arg(*repeated, context.commandName));
    if (!parser.positionalArguments().isEmpty())
        return context.fail(ExitUsage, QStringLiteral("unexpected argument '%1' (see %2 --help)")
                                           .arg(parser.positionalArguments().first().left(40),
                                                context.commandName));
    return std::nullopt;
}

std::optional<QString> repeatedOption(const QCommandLineParser &parser,
                                      const QStringList &repeatable)
{
    QStringList seen;
    for (const QString &name : parser.optionNames()) {
        if (seen.contains(name) && !repeatable.contains(name))
            return QStringLiteral("%1%2 is given more than once: give it once")
                .arg(name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--"), name);
        seen << name;
    }
    return std::nullopt;
}

int dispatch(const QStringList &arguments, QTextStream &out, QTextStream &err, QIODevice &in)
{
    const QString first = arguments.value(1);
    if (first.isEmpty() || first == QLatin1String("--help") || first == QLatin1String("-h")
        || (first == QLatin1String("help") && arguments.size() == 2)) {
        printOverview(out);
        return first.isEmpty() ? ExitUsage : ExitOk;
    }
    if (first == QLatin1String("--completion-data")) // hidden: the shell completion's source
        return printCompletionData(arguments.mid(2), out, err, in);
    if (first == QLatin1String("--version")) {
        out << "inventory-cli " << QCoreApplication::applicationVersion() << '\n';
        return ExitOk;
    }
    QString name = first;
    QStringList rest = arguments.mid(2);
    if (first == QLatin1String("help")) { // "help ping" is "ping --help"
        name = arguments.at(2);
        rest = {QStringLiteral("--help")};
    }
    for (const Subcommand &s : subcommands()) {
        if (s.name != name)
            continue;
        Context context{QStringList{QStringLiteral("inventory-cli ") + name} + rest, out, err, in,
                        QStringLiteral("inventory-cli ") + name};
        return s.run(context);
    }
    err << "inventory-cli: unknown command '" << name.left(40) << "' (see inventory-cli --help)\n";
    return ExitUsage;
}

int dispatch(int argc, const char *const *argv, QTextStream &out, QTextStream &err, QIODevice &in)
{
    const core::DecodedArguments decoded = core::decodeUtf8Arguments(argc, argv);
    if (!decoded.badArgument.isEmpty()) {
        err << "inventory-cli: " << decoded.badArgument
            << " is not valid UTF-8: SKUs, order ids and keys are sent byte for byte, so a "
               "byte cannot be guessed; give the text in UTF-8\n";
        err.flush();
        return ExitUsage;
    }
    return dispatch(decoded.arguments, out, err, in);
}

std::optional<qint64> wholeNumber(const QString &text, qint64 min, qint64 max)
{
    bool ok = false;
    const qint64 n = text.toLongLong(&ok);
    if (!ok || n < min || n > max)
        return std::nullopt;
    return n;
}

QString compactJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

} // namespace cli
