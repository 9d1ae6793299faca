// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <memory>

// A private PostgreSQL 15 server for tests: initdb into a temp dir owned by an unprivileged
// user (postgres refuses to run as root: the `postgres` system user, else `nobody`, through
// setpriv), then `postgres -k <dir> -p <free port> -c listen_addresses=127.0.0.1`, waited on
// with pg_isready. A role with a password and a database owned by it are created through psql
// over the unix socket (SQL on stdin, never in an argv). Torn down by the destructor (fast
// shutdown, then SIGKILL) and killed with the test process (setpriv --pdeathsig).
namespace testsupport {

class Postgres
{
public:
    Postgres();
    ~Postgres();
    Postgres(const Postgres &) = delete;
    Postgres &operator=(const Postgres &) = delete;

    bool start();
    void stop();
    QString errorString() const { return m_error; }

    quint16 port() const { return m_port; }
    static QString user() { return QStringLiteral("ledger_reader"); }
    static QString database() { return QStringLiteral("shop"); }
    QString password() const { return m_password; }
    // postgresql://ledger_reader@127.0.0.1:<port>/shop (no password: the caller gives it).
    QString url() const;

    // Runs SQL as the superuser in the test database (psql over the unix socket, ON_ERROR_STOP).
    // Empty on success, else psql's output.
    QString admin(const QString &sql, QString *output = nullptr) const;
    // pg_terminate_backend() on every session the console opened on the database (by its
    // application_name); empty on success.
    QString terminateConsoleSessions() const;
    QString log() const; // the server's last lines, for a message

private:
    QStringList asOwner(const QString &program, const QStringList &args) const;
    QString run(const QString &program, const QStringList &args, const QByteArray &input,
                QString *output = nullptr) const;
    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_process;
    quint16 m_port = 0;
    QString m_password;
    QString m_owner, m_ownerGroup; // uid and gid the server runs as (empty: the test's own)
    QString m_error;
};

} // namespace testsupport
