// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>
#include <QTextStream>
#include <optional>

class QCommandLineParser;
class QIODevice;
class QJsonObject;

namespace cli {

// Exit codes every subcommand uses.
enum ExitCode {
    ExitOk = 0,
    ExitFailed = 1,     // the operation ran and failed (denied, server error...)
    ExitUsage = 2,      // bad arguments
    ExitConnection = 3, // could not connect (host, port, TLS, password)
};

// What a subcommand gets: its own arguments (argv[0] is "inventory-cli <name>") and the
// three standard streams.
struct Context
{
    QStringList arguments;
    QTextStream &out;
    QTextStream &err;
    QIODevice &in;
    QString commandName; // "inventory-cli ping"

    // One line on stderr: "inventory-cli ping: <message>". Returns code.
    int fail(int code, const QString &message);
    // From here on stdout carries exact bytes (CSV of keys), not terminal-safe text.
    void exactBytesOnStdout();
};

using RunFunction = int (*)(Context &context);

struct Subcommand
{
    QString name;
    QString summary; // one line, for "inventory-cli --help"
    RunFunction run = nullptr;
};

// Each subcommand lives in a file of its own and registers itself with a static
//   static const cli::Registration nameRegistration{"name", "summary", &run};
// named after its command: a unity build puts several files in one translation unit.
// The dispatcher needs no list to edit.
struct Registration
{
    Registration(const char *name, const char *summary, RunFunction run);
};

QList<Subcommand> subcommands(); // sorted by name

// Runs "inventory-cli <subcommand> [args]", "inventory-cli --help", "inventory-cli help
// <subcommand>" and "inventory-cli --version".
int dispatch(const QStringList &arguments, QTextStream &out, QTextStream &err, QIODevice &in);
// The same from main's argv, refusing (one line, ExitUsage) an argument that is not valid
// UTF-8: decoded with U+FFFD in place of its bad bytes, `--order $'o-\xfe'` and
// `--order $'o-\xff'` would name one receipt.
int dispatch(int argc, const char *const *argv, QTextStream &out, QTextStream &err, QIODevice &in);

// Parses a subcommand's arguments with a parser that has --help; prints help on --help, and
// one line on a usage error. Returns nullopt to go on, or the exit code to return now.
std::optional<int> parseArguments(QCommandLineParser &parser, Context &context);
// The same after adding a verb's options (a struct whose addTo(parser) declares them).
template<typename Options>
std::optional<int> parseArguments(QCommandLineParser &parser, Options &options, Context &context)
{
    options.addTo(parser);
    return parseArguments(parser, context);
}

// After parsing: a sentence naming an option given more than once ("--quantity 1 --quantity
// 2" would otherwise silently take the last), or nullopt. `repeatable` names those meant to
// be given many times.
std::optional<QString> repeatedOption(const QCommandLineParser &parser,
                                      const QStringList &repeatable = {});

// `text` as a whole number from `min` to `max`, or nullopt: each verb names the option and
// its range in its own words.
std::optional<qint64> wholeNumber(const QString &text, qint64 min, qint64 max);

// One JSON object on one line (without the newline), as every verb's --json prints it.
QString compactJson(const QJsonObject &object);

} // namespace cli
