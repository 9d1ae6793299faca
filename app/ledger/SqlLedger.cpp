// SPDX-License-Identifier: GPL-3.0-or-later
#include "SqlLedger.h"

#include "core/RegularFile.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlRecord>
#include <QStringList>
#include <atomic>
#include <tuple>
#include <unistd.h>

namespace ledger {

namespace {

// Why a database ledger cannot be read: the Reconcile tab shows it, the CLI keeps the English.
// The server's own message goes in as it said it.
core::Sentence sqlSays(const char *source)
{
    return core::Sentence::translated("ledger::SqlLedger", source);
}

core::Sentence atRow(qint64 row, const core::Sentence &why)
{
    return sqlSays(QT_TRANSLATE_NOOP("ledger::SqlLedger", "row %1: %2")).arg(row, why);
}

constexpr auto ReadOnlyRefused = "25006"; // PostgreSQL: read_only_sql_transaction
constexpr auto SqliteReadOnly = "8";      // SQLITE_READONLY

QString driverName(LedgerSpec::Kind kind)
{
    return kind == LedgerSpec::Kind::Sqlite ? QStringLiteral("QSQLITE") : QStringLiteral("QPSQL");
}

QString packageOf(LedgerSpec::Kind kind)
{
    return kind == LedgerSpec::Kind::Sqlite ? QStringLiteral("libqt6sql6-sqlite")
                                            : QStringLiteral("libqt6sql6-psql");
}

QString said(const QSqlError &e)
{
    const QString text = e.databaseText().isEmpty() ? e.driverText() : e.databaseText();
    return text.trimmed();
}

} // namespace

SqlLedger::SqlLedger(const LedgerSpec &spec, const QString &connectionName)
    : m_spec(spec)
    , m_connection(connectionName)
{}

SqlLedger::~SqlLedger()
{
    m_query.reset();
    {
        QSqlDatabase db = QSqlDatabase::database(m_connection, false);
        if (db.isOpen() && m_spec.kind == LedgerSpec::Kind::Postgres)
            QSqlQuery(db).exec(QStringLiteral("ROLLBACK")); // nothing was written: end it
        db.close();
    }
    QSqlDatabase::removeDatabase(m_connection);
}

core::Result<std::unique_ptr<LedgerSource>, core::Sentence> SqlLedger::open(const LedgerSpec &spec,
                                                                            const QString &password)
{
    static std::atomic<int> connections{0};
    const QString what = spec.description();
    if (!QSqlDatabase::isDriverAvailable(driverName(spec.kind)))
        return core::err(
            sqlSays(QT_TRANSLATE_NOOP("ledger::SqlLedger", "cannot read %1: Qt's %2 driver is not "
                                                           "installed (%3)"))
                .arg(what, driverName(spec.kind), packageOf(spec.kind)));
    if (spec.kind == LedgerSpec::Kind::Sqlite) {
        // SQLite would wait on a FIFO and read a device: the same checks as every file input.
        const auto fd = core::openRegularFile(spec.path);
        if (!fd)
            return core::err(fd.error().message);
        ::close(fd.value());
    }
    std::unique_ptr<SqlLedger> l(
        new SqlLedger(spec, QStringLiteral("inventory-ledger-%1").arg(++connections)));
    l->m_password = password;
    QSqlDatabase db = QSqlDatabase::addDatabase(driverName(spec.kind), l->m_connection);
    if (spec.kind == LedgerSpec::Kind::Sqlite) {
        db.setDatabaseName(spec.path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
    } else {
        db.setHostName(spec.host);
        db.setPort(spec.port);
        db.setUserName(spec.user);
        db.setDatabaseName(spec.database);
        db.setPassword(password);
        // Qt turns ';' into spaces and hands the rest to libpq as conninfo: every transaction
        // of this session is read-only unless it says otherwise, and this code never does.
        db.setConnectOptions(QStringLiteral("connect_timeout=%1;"
                                            "application_name=inventory-console-ledger;"
                                            "options='-c default_transaction_read_only=on'")
                                 .arg(spec.connectTimeoutSeconds));
    }
    if (!db.open()) {
        QString why = said(db.lastError());
        if (!password.isEmpty())
            why.replace(password, QStringLiteral("***"));
        return core::err(
            sqlSays(QT_TRANSLATE_NOOP("ledger::SqlLedger", "cannot open the ledger %1: %2"))
                .arg(what, why));
    }
    QSqlQuery setup(db);
    if (spec.kind == LedgerSpec::Kind::Postgres) {
        if (!setup.exec(QStringLiteral("START TRANSACTION READ ONLY"))
            || !setup.exec(QStringLiteral("SHOW transaction_read_only")) || !setup.next())
            return core::err(sqlSays(QT_TRANSLATE_NOOP("ledger::SqlLedger",
                                                       "cannot open the ledger %1 read-only: %2"))
                                 .arg(what, said(setup.lastError())));
        if (setup.value(0).toString() != QLatin1String("on"))
            return core::err(sqlSays(QT_TRANSLATE_NOOP("ledger::SqlLedger",
                                                       "cannot open the ledger %1 read-only: the "
                                                       "server says transaction_read_only is "
                                                       "\"%2\"; nothing was read"))
                                 .arg(what, setup.value(0).toString()));
    } else if (!setup.exec(QStringLiteral("PRAGMA query_only = ON"))) {
        return core::err(sqlSays(QT_TRANSLATE_NOOP("ledger::SqlLedger", "cannot read %1: %2"))
                             .arg(what, said(setup.lastError())));
    }
    return std::unique_ptr<LedgerSource>(std::move(l));
}

QString SqlLedger::queryText() const
{
    if (!m_spec.query.isEmpty())
        return m_spec.query;
    const Columns &c = m_spec.columns;
    if (m_spec.table.isEmpty() && c.orderId == QLatin1String("order_id")
        && c.sku == QLatin1String("sku") && c.quantity == QLatin1String("quantity")
        && c.state == QLatin1String("state") && c.time.isEmpty())
        return QStringLiteral("SELECT order_id, sku, quantity, state FROM orders");
    const QSqlDriver *driver = QSqlDatabase::database(m_connection, false).driver();
    QStringList names{c.orderId, c.sku, c.quantity, c.state};
    if (!c.time.isEmpty())
        names << c.time;
    for (QString &n : names)
        n = driver->escapeIdentifier(n, QSqlDriver::FieldName);
    const QString table = m_spec.table.isEmpty() ? QStringLiteral("orders") : m_spec.table;
    return QStringLiteral("SELECT %1 FROM %2")
        .arg(names.join(QLatin1String(", ")),
             driver->escapeIdentifier(table, QSqlDriver::TableName));
}

QString SqlLedger::scrubbed(const QSqlError &e) const
{
    QString why = said(e);
    if (!m_password.isEmpty())
        why.replace(m_password, QStringLiteral("***"));
    return why;
}

LedgerSource::Status SqlLedger::fail(const core::Sentence &what, const QSqlError &e)
{
    const QString code = e.nativeErrorCode();
    const QString why = scrubbed(e);
    if (m_spec.kind == LedgerSpec::Kind::Postgres && code == QLatin1String(ReadOnlyRefused))
        m_error = sqlSays(QT_TRANSLATE_NOOP("ledger::SqlLedger",
                                            "the ledger query was refused: the session is "
                                            "read-only (this console never writes to a ledger; "
                                            "the server said: %1)"))
                      .arg(why);
    else if (m_spec.kind == LedgerSpec::Kind::Sqlite && code == QLatin1String(SqliteReadOnly))
        m_error = sqlSays(QT_TRANSLATE_NOOP("ledger::SqlLedger",
                                            "the ledger query was refused: the database is "
                                            "opened read-only (this console never writes to a "
                                            "ledger; SQLite said: %1)"))
                      .arg(why);
    else
        m_error = core::Sentence::plain(QStringLiteral("%1: %2")).arg(what, why);
    return Status::Error;
}

bool SqlLedger::declareCursor(QSqlDatabase db)
{
    QSqlQuery declare(db);
    if (!declare.exec(QStringLiteral("DECLARE inventory_ledger NO SCROLL CURSOR FOR ")
                      + queryText())) {
        const QSqlError e = declare.lastError();
        if (e.nativeErrorCode() == QLatin1String(ReadOnlyRefused)) {
            fail(sqlSays(QT_TRANSLATE_NOOP("ledger::SqlLedger", "the ledger query failed")), e);
            return false;
        }
        // An UPDATE, DDL or a WITH that deletes is not a cursor's query: refused before it runs.
        const QString why = scrubbed(e);
        m_error = sqlSays(QT_TRANSLATE_NOOP("ledger::SqlLedger",
                                            "the ledger query was refused: it must be one "
                                            "SELECT, read through a cursor (this console never "
                                            "writes to a ledger; the server said: %1)"))
                      .arg(why);
        return false;
    }
    return true;
}

bool SqlLedger::fetchBatch()
{
    m_batchRows = 0;
    m_query = std::make_unique<QSqlQuery>(QSqlDatabase::database(m_connection, false));
    m_query->setForwardOnly(true);
    const QString text = m_spec.kind == LedgerSpec::Kind::Postgres
                             ? QStringLiteral("FETCH FORWARD %1 FROM inventory_ledger").arg(Batch)
                             : queryText();
    if (!m_query->exec(text)) {
        fail(m_rows == 0
                 ? sqlSays(QT_TRANSLATE_NOOP("ledger::SqlLedger", "the ledger query failed"))
                 : sqlSays(QT_TRANSLATE_NOOP("ledger::SqlLedger", "row %1")).arg(m_rows + 1),
             m_query->lastError());
        return false;
    }
    return true;
}

bool SqlLedger::start()
{
    // PostgreSQL: a server-side cursor read a batch at a time, so memory holds one batch
    // whatever libpq's single-row mode does (psql's FETCH_COUNT works the same way). SQLite
    // steps one row at a time by itself.
    if (m_spec.kind == LedgerSpec::Kind::Postgres
        && !declareCursor(QSqlDatabase::database(m_connection, false)))
        return false;
    if (!fetchBatch())
        return false;
    const QSqlRecord record = m_query->record();
    QStringList have;
    for (int i = 0; i < record.count(); ++i)
        have << record.fieldName(i);
    const Columns &c = m_spec.columns;
    for (const auto &[name, at] : {std::pair{&c.orderId, &m_order}, std::pair{&c.sku, &m_sku},
                                   std::pair{&c.quantity, &m_quantity},
                                   std::pair{&c.state, &m_state}, std::pair{&c.time, &m_time}}) {
        if (name->isEmpty())
            continue;
        *at = int(have.indexOf(*name));
        if (*at < 0) {
            m_error = sqlSays(QT_TRANSLATE_NOOP("ledger::SqlLedger",
                                                "the query's result has no column \"%1\" (it "
                                                "has: %2; --ledger-columns maps others)"))
                          .arg(*name, have.join(QLatin1String(", ")));
            return false;
        }
    }
    return true;
}

bool SqlLedger::advance(Status *status)
{
    for (;;) {
        if (m_query->next()) {
            ++m_batchRows;
            return true;
        }
        const QSqlError e = m_query->lastError();
        if (e.type() != QSqlError::NoError) {
            *status =
                fail(sqlSays(QT_TRANSLATE_NOOP("ledger::SqlLedger", "row %1")).arg(m_rows + 1), e);
            return false;
        }
        // A short batch was the cursor's last; SQLite's one "batch" is the whole result.
        if (m_spec.kind != LedgerSpec::Kind::Postgres || m_batchRows < Batch) {
            *status = Status::End;
            return false;
        }
        if (!fetchBatch()) {
            *status = Status::Error;
            return false;
        }
    }
}

core::Result<QByteArray, core::Sentence> SqlLedger::cell(int index, const QString &name,
                                                         qint64 *timeMs) const
{
    const QVariant v = m_query->value(index);
    if (v.isNull())
        return core::err(
            sqlSays(QT_TRANSLATE_NOOP("ledger::SqlLedger", "\"%1\" is NULL")).arg(name));
    if (timeMs && v.metaType().id() == QMetaType::QDateTime) {
        *timeMs = v.toDateTime().toMSecsSinceEpoch();
        return QByteArray();
    }
    if (v.metaType().id() == QMetaType::QByteArray)
        return v.toByteArray();
    return v.toString().toUtf8();
}

LedgerSource::Status SqlLedger::next(LedgerRow *row)
{
    if (!m_started) {
        m_started = true;
        if (!start())
            return Status::Error;
    }
    if (!m_query)
        return Status::Error;
    if (Status status = Status::Error; !advance(&status))
        return status;
    const qint64 number = m_rows + 1;
    RawRow raw;
    qint64 timeMs = NoTime;
    for (const auto &[at, name, out] :
         {std::tuple{m_order, &m_spec.columns.orderId, &raw.orderId},
          std::tuple{m_sku, &m_spec.columns.sku, &raw.sku},
          std::tuple{m_quantity, &m_spec.columns.quantity, &raw.quantity},
          std::tuple{m_state, &m_spec.columns.state, &raw.state}}) {
        auto value = cell(at, *name, nullptr);
        if (!value) {
            m_error = atRow(number, value.error());
            return Status::Error;
        }
        *out = value.value();
    }
    if (m_time >= 0) {
        auto value = cell(m_time, m_spec.columns.time, &timeMs);
        if (!value) {
            m_error = atRow(number, value.error());
            return Status::Error;
        }
        if (timeMs == NoTime)
            raw.timeText = value.value();
        raw.timeMs = timeMs;
    }
    auto valid = validateRow(raw, m_spec.states);
    if (!valid) {
        m_error = atRow(number, valid.error());
        return Status::Error;
    }
    *row = std::move(valid).value();
    row->number = number;
    ++m_rows;
    return Status::Row;
}

} // namespace ledger
