// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>
#include <QTextStream>

class QIODevice;

namespace cli {

// `inventory-cli --completion-data [profiles | environments]`: what the shell completion
// (resources/completion/inventory-cli) offers, read from the program itself so that it cannot
// drift from it. Hidden: not in --help, not a command.
//   (no argument)  one line per command path, four tab-separated fields:
//                    path       "" (inventory-cli itself), "keys", "functions load", ...
//                    options    each as --name, or --name=VALUE when it takes a value
//                    verbs      the words that may follow (commands, functions' verbs)
//                    arguments  positional arguments' names (ORDER_ID, FILE, ...)
//                  The options and verbs are read from the path's own --help, so an option
//                  added to a verb's parser is completed as soon as --help shows it.
//   profiles       the saved connection profiles' names, one a line
//   environments   the environment labels --environment takes, one a line
// `arguments` are those after --completion-data. Returns the exit code.
int printCompletionData(const QStringList &arguments, QTextStream &out, QTextStream &err,
                        QIODevice &in);

// The options, verbs and positional arguments a --help text lists (its "Options:", "Commands:"
// or "Verbs:", and "Arguments:" sections), in the format above. For the completion data.
struct HelpSummary
{
    QStringList options; // "--json", "-h", "--url=URL"
    QStringList verbs;
    QStringList arguments;
};
HelpSummary summarizeHelp(const QString &help);

} // namespace cli
