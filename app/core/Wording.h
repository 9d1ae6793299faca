// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace core {

// Whose words a sentence is in. The window installs a translator and the CLI none, so
// QCoreApplication::translate gives each its own language; but a sentence the window shows may
// also be quoted in a record that stays English (an audit record's reason), and that copy must
// not follow the translator.
enum class Wording {
    Translated, // the installed translator's language (English when none is installed)
    English,    // the source text, whatever is installed
};

// QCoreApplication::translate(context, source), or the source itself for Wording::English.
// A class that builds sentences both ways names a local lambda `tr` that calls this, so that
// lupdate still finds each tr("...") in the class's context.
QString word(Wording wording, const char *context, const char *source);

} // namespace core
