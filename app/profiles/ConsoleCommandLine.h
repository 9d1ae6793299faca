// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ConnectionProfile.h"
#include "core/Wording.h"

#include <QCommandLineParser>
#include <QStringList>

namespace profiles {

// What inventory-console was asked to open.
struct ConsoleStartup
{
    enum class Target { Demo, Server, ConnectDialog };
    Target target = Target::Demo;
    ConnectionProfile profile; // Server: named after its host, environment always set
    QString password;          // Server: from the URL, never stored
    QString tab;               // "" or one of consoleTabNames()
};

// The tab names --tab accepts, in the window's order.
QStringList consoleTabNames();

// The console's command line, interpreted without a display so that it can be tested:
//   inventory-console [--demo | --connect | --url URL | URL] [--env LABEL] [--tab NAME]
// A positional redis:// or rediss:// URL (what a desktop launcher passes for Exec=... %U)
// means the same as --url. The label comes from labelForUrl (profiles/SavedLabel.h): a saved
// profile for the same server lends its label and --env may not lower it; else the host's
// rule (defaultEnvironmentForHost), whose Local still has to be proven by the WriteGate.
class ConsoleCommandLine
{
public:
    enum class Action { Run, ShowHelp, ShowVersion, Refuse };

    ConsoleCommandLine();
    // The saved profiles a URL's server is matched against (before parse()).
    void setSavedProfiles(const QList<ConnectionProfile> &saved) { m_saved = saved; }
    Action parse(const QStringList &arguments); // arguments[0] is the program
    // main()'s argv: an argument that is not UTF-8 is refused (never decoded with U+FFFD in
    // place of its bad bytes), then parse().
    Action parse(int argc, const char *const *argv);

    const ConsoleStartup &startup() const { return m_startup; } // Action::Run
    // Action::Refuse: why, made in the language of the translator installed when parse() ran
    // (main parses before QApplication exists, so it parses once more for the window).
    const core::Sentence &error() const { return m_error; }
    QString helpText() const; // usable before QCoreApplication exists

private:
    Action refuse(const core::Sentence &why);

    QCommandLineParser m_parser;
    ConsoleStartup m_startup;
    core::Sentence m_error;
    QList<ConnectionProfile> m_saved;
};

} // namespace profiles
