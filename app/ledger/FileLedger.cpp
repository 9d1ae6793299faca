// SPDX-License-Identifier: GPL-3.0-or-later
#include "FileLedger.h"

#include "core/RegularFile.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <cmath>
#include <unistd.h>

namespace ledger {

namespace {

// Why a file ledger cannot be read: the Reconcile tab shows it, the CLI keeps the English.
core::Sentence fileSays(const char *source)
{
    return core::Sentence::translated("ledger::FileLedger", source);
}

// "line 17: <why>"
core::Sentence atLine(qint64 line, const core::Sentence &why)
{
    return fileSays(QT_TRANSLATE_NOOP("ledger::FileLedger", "line %1: %2")).arg(line, why);
}

// Opens `path` as a plain file (core/RegularFile.h: never a FIFO, a device or a directory).
std::optional<core::Sentence> openPlain(QFile &file, const QString &path)
{
    const auto fd = core::openRegularFile(path);
    if (!fd)
        return fd.error().message;
    if (!file.open(fd.value(), QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd.value());
        return fileSays(QT_TRANSLATE_NOOP("ledger::FileLedger", "cannot read %1: %2"))
            .arg(path, file.errorString());
    }
    return std::nullopt;
}

bool blank(const QList<QByteArray> &fields)
{
    return fields.size() == 1 && fields.first().isEmpty();
}

} // namespace

CsvLedger::CsvLedger(const QString &path, const StateMap &states)
    : m_path(path)
    , m_states(states)
{}

core::Result<std::unique_ptr<LedgerSource>, core::Sentence>
CsvLedger::open(const QString &path, const Columns &columns, const StateMap &states)
{
    std::unique_ptr<CsvLedger> l(new CsvLedger(path, states));
    if (auto problem = openPlain(l->m_file, path))
        return core::err(*problem);
    l->m_reader = std::make_unique<core::CsvReader>(l->m_file);
    QList<QByteArray> header;
    const auto status = l->m_reader->next(&header);
    if (status == core::CsvReader::Status::Error)
        return core::err(
            core::Sentence::plain(QStringLiteral("%1: %2")).arg(path, l->m_reader->error()));
    if (status == core::CsvReader::Status::End)
        return core::err(fileSays(QT_TRANSLATE_NOOP("ledger::FileLedger",
                                                    "%1: the file is empty (it needs a header "
                                                    "line: order_id,sku,quantity,state)"))
                             .arg(path));
    if (!header.isEmpty() && header.first().startsWith("\xEF\xBB\xBF"))
        header.first().remove(0, 3); // a spreadsheet's UTF-8 byte order mark
    const auto find = [&](const QString &name, qsizetype *at) -> std::optional<core::Sentence> {
        const QByteArray n = name.toUtf8();
        *at = header.indexOf(n);
        if (*at < 0)
            return fileSays(QT_TRANSLATE_NOOP("ledger::FileLedger",
                                              "%1: the header has no column \"%2\" (it has: %3; "
                                              "--ledger-columns maps others)"))
                .arg(path, name, QString::fromUtf8(header.join(", ")));
        if (header.lastIndexOf(n) != *at)
            return fileSays(QT_TRANSLATE_NOOP("ledger::FileLedger",
                                              "%1: the header names the column \"%2\" twice"))
                .arg(path, name);
        l->m_width = std::max(l->m_width, *at + 1);
        return std::nullopt;
    };
    for (const auto &[name, at] :
         {std::pair{&columns.orderId, &l->m_order}, std::pair{&columns.sku, &l->m_sku},
          std::pair{&columns.quantity, &l->m_quantity}, std::pair{&columns.state, &l->m_state}})
        if (auto problem = find(*name, at))
            return core::err(*problem);
    if (!columns.time.isEmpty())
        if (auto problem = find(columns.time, &l->m_time))
            return core::err(*problem);
    return std::unique_ptr<LedgerSource>(std::move(l));
}

LedgerSource::Status CsvLedger::next(LedgerRow *row)
{
    QList<QByteArray> fields;
    for (;;) {
        const auto status = m_reader->next(&fields);
        if (status == core::CsvReader::Status::End)
            return Status::End;
        if (status == core::CsvReader::Status::Error) {
            m_error = m_reader->error();
            return Status::Error;
        }
        if (!blank(fields))
            break;
    }
    const qint64 line = m_reader->recordLine();
    if (fields.size() < m_width) {
        m_error = fileSays(QT_TRANSLATE_NOOP("ledger::FileLedger",
                                             "line %1: %2 fields where the header has at least "
                                             "%3"))
                      .arg(line, fields.size(), m_width);
        return Status::Error;
    }
    RawRow raw{fields.at(m_order), fields.at(m_sku), fields.at(m_quantity), fields.at(m_state),
               m_time >= 0 ? std::optional<QByteArray>(fields.at(m_time)) : std::nullopt};
    auto valid = validateRow(raw, m_states);
    if (!valid) {
        m_error = atLine(line, valid.error());
        return Status::Error;
    }
    *row = std::move(valid).value();
    row->number = line;
    ++m_rows;
    return Status::Row;
}

JsonLinesLedger::JsonLinesLedger(const QString &path, const Columns &columns,
                                 const StateMap &states)
    : m_path(path)
    , m_columns(columns)
    , m_states(states)
{}

core::Result<std::unique_ptr<LedgerSource>, core::Sentence>
JsonLinesLedger::open(const QString &path, const Columns &columns, const StateMap &states)
{
    std::unique_ptr<JsonLinesLedger> l(new JsonLinesLedger(path, columns, states));
    if (auto problem = openPlain(l->m_file, path))
        return core::err(*problem);
    return std::unique_ptr<LedgerSource>(std::move(l));
}

namespace {

// A JSON value as the text a CSV cell would hold: strings as they are, whole numbers in
// decimal; nullopt for anything else (null, a fraction, an object).
std::optional<QByteArray> cell(const QJsonValue &v)
{
    if (v.isString())
        return v.toString().toUtf8();
    if (v.isDouble()) {
        const double d = v.toDouble();
        if (std::trunc(d) != d || std::fabs(d) > 9007199254740991.0) // 2^53 - 1: exact
            return std::nullopt;
        return QByteArray::number(qint64(d));
    }
    return std::nullopt;
}

} // namespace

LedgerSource::Status JsonLinesLedger::next(LedgerRow *row)
{
    constexpr qint64 MaxLine = 1 << 20;
    QByteArray line;
    do {
        if (m_file.atEnd()) {
            if (m_file.error() != QFileDevice::NoError) {
                m_error = atLine(m_line + 1, core::Sentence::plain(m_file.errorString()));
                return Status::Error;
            }
            return Status::End;
        }
        line = m_file.readLine(MaxLine + 1);
        ++m_line;
        if (line.size() > MaxLine) {
            m_error =
                fileSays(QT_TRANSLATE_NOOP("ledger::FileLedger", "line %1: longer than %2 bytes"))
                    .arg(m_line, MaxLine);
            return Status::Error;
        }
    } while (line.trimmed().isEmpty());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
    if (!doc.isObject()) {
        m_error = parseError.error != QJsonParseError::NoError
                      ? fileSays(QT_TRANSLATE_NOOP("ledger::FileLedger",
                                                   "line %1: not a JSON object (%2)"))
                            .arg(m_line, parseError.errorString())
                      : fileSays(QT_TRANSLATE_NOOP("ledger::FileLedger",
                                                   "line %1: not a JSON object (another JSON "
                                                   "value)"))
                            .arg(m_line);
        return Status::Error;
    }
    const QJsonObject o = doc.object();
    RawRow raw;
    for (const auto &[name, out] :
         {std::pair{&m_columns.orderId, &raw.orderId}, std::pair{&m_columns.sku, &raw.sku},
          std::pair{&m_columns.quantity, &raw.quantity}, std::pair{&m_columns.state, &raw.state}}) {
        const auto value = o.contains(*name) ? cell(o.value(*name)) : std::nullopt;
        if (!value) {
            m_error = o.contains(*name)
                          ? fileSays(QT_TRANSLATE_NOOP("ledger::FileLedger",
                                                       "line %1: \"%2\" is neither a string nor "
                                                       "a whole number"))
                                .arg(m_line, *name)
                          : fileSays(QT_TRANSLATE_NOOP("ledger::FileLedger",
                                                       "line %1: \"%2\" is missing"))
                                .arg(m_line, *name);
            return Status::Error;
        }
        *out = *value;
    }
    if (!m_columns.time.isEmpty()) {
        const auto value = cell(o.value(m_columns.time));
        if (!value) {
            m_error = fileSays(QT_TRANSLATE_NOOP("ledger::FileLedger",
                                                 "line %1: \"%2\" is missing or not a time"))
                          .arg(m_line, m_columns.time);
            return Status::Error;
        }
        raw.timeText = *value;
    }
    auto valid = validateRow(raw, m_states);
    if (!valid) {
        m_error = atLine(m_line, valid.error());
        return Status::Error;
    }
    *row = std::move(valid).value();
    row->number = m_line;
    ++m_rows;
    return Status::Row;
}

} // namespace ledger
