// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <concepts>

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

// A sentence made once and kept in both copies, for code that passes it through several
// layers before anyone shows it: `english` for the CLI, logs, records and comparisons in code,
// `text` for the window. Words that are not ours (an address, a server's error) go in as
// plain(), the same in both.
struct Sentence
{
    QString english;
    QString text;

    // Source text marked with QT_TRANSLATE_NOOP(context, "...") at the call site, so that
    // lupdate finds it.
    static Sentence translated(const char *context, const char *source);
    static Sentence plain(const QString &s) { return {s, s}; }

    // QString::arg on both copies: a QString or number fills both alike, a Sentence its own
    // copy in each.
    template<typename... Args>
    Sentence arg(const Args &...args) const
    {
        return {english.arg(copyOf(args, Wording::English)...),
                text.arg(copyOf(args, Wording::Translated)...)};
    }

    QString in(Wording wording) const { return wording == Wording::English ? english : text; }
    bool isEmpty() const { return english.isEmpty(); }
    // Two sentences say the same when their English does: the window's copy may differ only
    // by the translator installed.
    bool operator==(const Sentence &other) const { return english == other.english; }

private:
    static QString copyOf(const QString &s, Wording) { return s; }
    static QString copyOf(const Sentence &s, Wording w) { return s.in(w); }
    static QString copyOf(std::integral auto n, Wording) { return QString::number(n); }
};
using Sentences = QList<Sentence>;

QStringList copies(const Sentences &sentences, Wording wording);
// The sentences joined by `separator` in each copy.
Sentence joined(const Sentences &sentences, const QString &separator);

} // namespace core
