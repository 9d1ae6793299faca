// SPDX-License-Identifier: GPL-3.0-or-later
#include "LedgerSpec.h"

#include "FileLedger.h"
#include "SqlLedger.h"

#include <QUrl>

namespace ledger {

namespace {

// Why a ledger's settings are refused: the Reconcile tab's form shows it, the CLI the English.
core::Sentence specSays(const char *source)
{
    return core::Sentence::translated("ledger::LedgerSpec", source);
}

} // namespace

core::Result<LedgerSpec, core::Sentence> LedgerSpec::parse(const QString &text)
{
    LedgerSpec s;
    if (text.startsWith(QLatin1String("sqlite://"))) {
        s.kind = Kind::Sqlite;
        s.path = text.mid(9);
        if (!s.path.startsWith(QLatin1Char('/')))
            return core::err(
                specSays(QT_TRANSLATE_NOOP("ledger::LedgerSpec", "a SQLite ledger is "
                                                                 "sqlite:///absolute/path/file.db "
                                                                 "(three slashes)")));
        return s;
    }
    if (text.startsWith(QLatin1String("postgresql://"))
        || text.startsWith(QLatin1String("postgres://"))) {
        const QUrl url(text, QUrl::StrictMode);
        // Said before anything else, and without repeating the URL: it holds a secret.
        const qsizetype at = text.indexOf(QLatin1Char('@'));
        if (!url.password().isEmpty() || (at >= 0 && text.left(at).count(QLatin1Char(':')) > 1))
            return core::err(specSays(QT_TRANSLATE_NOOP("ledger::LedgerSpec",
                                                        "the ledger URL holds a password: give "
                                                        "it with --ledger-password-stdin, never "
                                                        "in the URL")));
        if (!url.isValid() || url.host().isEmpty() || url.userName().isEmpty()
            || url.path().size() < 2 || url.hasQuery() || url.hasFragment())
            return core::err(specSays(QT_TRANSLATE_NOOP("ledger::LedgerSpec",
                                                        "a PostgreSQL ledger is "
                                                        "postgresql://user@host[:port]/database")));
        s.kind = Kind::Postgres;
        s.host = url.host();
        s.user = url.userName();
        s.port = url.port(5432);
        s.database = url.path().mid(1);
        return s;
    }
    if (text.contains(QLatin1String("://")))
        return core::err(
            specSays(QT_TRANSLATE_NOOP("ledger::LedgerSpec", "a ledger is a .csv or .jsonl file, "
                                                             "sqlite:///path or "
                                                             "postgresql://user@host:port/db")));
    s.path = text;
    if (text.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive))
        s.kind = Kind::Csv;
    else if (text.endsWith(QLatin1String(".jsonl"), Qt::CaseInsensitive)
             || text.endsWith(QLatin1String(".ndjson"), Qt::CaseInsensitive))
        s.kind = Kind::JsonLines;
    else
        return core::err(specSays(QT_TRANSLATE_NOOP("ledger::LedgerSpec",
                                                    "%1: a ledger file ends in .csv or .jsonl "
                                                    "(.ndjson); a database is sqlite:///path "
                                                    "or postgresql://user@host:port/db"))
                             .arg(text));
    return s;
}

QString LedgerSpec::description() const
{
    switch (kind) {
    case Kind::Csv:
    case Kind::JsonLines:
        return path;
    case Kind::Sqlite:
        return QStringLiteral("sqlite://") + path;
    case Kind::Postgres:
        return QStringLiteral("postgresql://%1@%2:%3/%4").arg(user, host).arg(port).arg(database);
    }
    return {};
}

std::optional<core::Sentence> LedgerSpec::problem() const
{
    if (!isSql() && (!query.isEmpty() || !table.isEmpty()))
        return specSays(QT_TRANSLATE_NOOP("ledger::LedgerSpec",
                                          "a query or a table applies to a SQLite or "
                                          "PostgreSQL ledger, not to a file"));
    if (!query.isEmpty() && !table.isEmpty())
        return specSays(
            QT_TRANSLATE_NOOP("ledger::LedgerSpec", "give a query or a table, not both"));
    return std::nullopt;
}

core::Result<std::unique_ptr<LedgerSource>, core::Sentence> openLedger(const LedgerSpec &spec,
                                                                       const QString &password)
{
    if (auto p = spec.problem())
        return core::err(*p); // settings the form checked before
    switch (spec.kind) {
    case LedgerSpec::Kind::Csv:
        return CsvLedger::open(spec.path, spec.columns, spec.states);
    case LedgerSpec::Kind::JsonLines:
        return JsonLinesLedger::open(spec.path, spec.columns, spec.states);
    case LedgerSpec::Kind::Sqlite:
    case LedgerSpec::Kind::Postgres:
        return SqlLedger::open(spec, password);
    }
    return core::err(core::Sentence::plain(QStringLiteral("unknown ledger kind")));
}

} // namespace ledger
