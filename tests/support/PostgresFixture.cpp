// SPDX-License-Identifier: GPL-3.0-or-later
#include "PostgresFixture.h"

#include "demo/LocalRedisServer.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QThread>
#include <pwd.h>
#include <signal.h>
#include <unistd.h>

namespace testsupport {

namespace {

const QString Bin = QStringLiteral("/usr/lib/postgresql/15/bin/");
constexpr auto Admin = "admin";

} // namespace

Postgres::Postgres() = default;

Postgres::~Postgres()
{
    stop();
}

QString Postgres::url() const
{
    return QStringLiteral("postgresql://%1@127.0.0.1:%2/%3")
        .arg(user())
        .arg(m_port)
        .arg(database());
}

QStringList Postgres::asOwner(const QString &program, const QStringList &args) const
{
    if (m_owner.isEmpty())
        return QStringList{program} + args;
    return QStringList{QStringLiteral("setpriv"),
                       QStringLiteral("--reuid=") + m_owner,
                       QStringLiteral("--regid=") + m_ownerGroup,
                       QStringLiteral("--clear-groups"),
                       QStringLiteral("--pdeathsig=KILL"),
                       QStringLiteral("--"),
                       program}
           + args;
}

QString Postgres::run(const QString &program, const QStringList &args, const QByteArray &input,
                      QString *output) const
{
    const QStringList argv = asOwner(program, args);
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.setWorkingDirectory(m_dir.path());
    p.start(argv.first(), argv.mid(1));
    if (!p.waitForStarted(10000))
        return QStringLiteral("%1 did not start: %2").arg(program, p.errorString());
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return QStringLiteral("%1 did not finish in 60 s").arg(program);
    }
    const QString out = QString::fromUtf8(p.readAll());
    if (output)
        *output = out;
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return QStringLiteral("%1 exited %2: %3").arg(program).arg(p.exitCode()).arg(out);
    return {};
}

bool Postgres::start()
{
    if (!m_dir.isValid() || !QFile::exists(Bin + QStringLiteral("postgres"))) {
        m_error = QStringLiteral("no temp dir, or no %1postgres (Debian: postgresql)").arg(Bin);
        return false;
    }
    if (::geteuid() == 0) { // postgres refuses root: the server runs as an unprivileged user
        for (const char *name : {"postgres", "nobody"})
            if (const passwd *pw = ::getpwnam(name)) {
                m_owner = QString::number(pw->pw_uid);
                m_ownerGroup = QString::number(pw->pw_gid);
                if (::chown(QFile::encodeName(m_dir.path()).constData(), pw->pw_uid, pw->pw_gid)
                    != 0) {
                    m_error = QStringLiteral("cannot give %1 to %2").arg(m_dir.path(), name);
                    return false;
                }
                break;
            }
        if (m_owner.isEmpty()) {
            m_error = QStringLiteral("no postgres or nobody user to run the server as");
            return false;
        }
    }
    // Only the superuser's own socket is trusted; TCP asks every role for its password.
    const QString data = m_dir.filePath(QStringLiteral("data"));
    if (QString e =
            run(Bin + QStringLiteral("initdb"),
                {QStringLiteral("-D"), data, QStringLiteral("-U"), QLatin1String(Admin),
                 QStringLiteral("--auth-local=trust"), QStringLiteral("--auth-host=scram-sha-256"),
                 QStringLiteral("-E"), QStringLiteral("UTF8"), QStringLiteral("--no-sync"),
                 QStringLiteral("--no-instructions")},
                {});
        !e.isEmpty()) {
        m_error = e;
        return false;
    }
    m_port = demo::LocalRedisServer::freePort();
    const QStringList argv =
        asOwner(Bin + QStringLiteral("postgres"),
                {QStringLiteral("-D"), data, QStringLiteral("-k"), m_dir.path(),
                 QStringLiteral("-p"), QString::number(m_port), QStringLiteral("-c"),
                 QStringLiteral("listen_addresses=127.0.0.1"), QStringLiteral("-c"),
                 QStringLiteral("fsync=off"), QStringLiteral("-c"),
                 QStringLiteral("full_page_writes=off")});
    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->setWorkingDirectory(m_dir.path());
    m_process->start(argv.first(), argv.mid(1));
    if (!m_process->waitForStarted(10000)) {
        m_error = QStringLiteral("postgres did not start: %1").arg(m_process->errorString());
        return false;
    }
    // Ready when pg_isready says so over TCP (127.0.0.1, no name lookup), or never.
    QDeadlineTimer deadline(30000);
    for (;;) {
        QProcess probe;
        probe.start(Bin + QStringLiteral("pg_isready"),
                    {QStringLiteral("-h"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                     QString::number(m_port), QStringLiteral("-q")});
        if (probe.waitForFinished(5000) && probe.exitCode() == 0)
            break;
        if (deadline.hasExpired() || m_process->state() == QProcess::NotRunning) {
            m_error =
                QStringLiteral("postgres did not answer on port %1: %2").arg(m_port).arg(log());
            return false;
        }
        QThread::msleep(50);
    }
    m_password = QStringLiteral("pw-%1").arg(QRandomGenerator::global()->generate64(), 0, 16);
    QString out;
    const QString e = run(Bin + QStringLiteral("psql"),
                          {QStringLiteral("-X"), QStringLiteral("-q"), QStringLiteral("-v"),
                           QStringLiteral("ON_ERROR_STOP=1"), QStringLiteral("-h"), m_dir.path(),
                           QStringLiteral("-p"), QString::number(m_port), QStringLiteral("-U"),
                           QLatin1String(Admin), QStringLiteral("-d"), QStringLiteral("postgres")},
                          QStringLiteral("CREATE ROLE %1 LOGIN PASSWORD '%2';\n"
                                         "CREATE DATABASE %3 OWNER %1;\n")
                              .arg(user(), m_password, database())
                              .toUtf8(),
                          &out);
    if (!e.isEmpty()) {
        m_error = e;
        return false;
    }
    return true;
}

QString Postgres::admin(const QString &sql, QString *output) const
{
    return run(Bin + QStringLiteral("psql"),
               {QStringLiteral("-X"), QStringLiteral("-q"), QStringLiteral("-A"),
                QStringLiteral("-t"), QStringLiteral("-v"), QStringLiteral("ON_ERROR_STOP=1"),
                QStringLiteral("-h"), m_dir.path(), QStringLiteral("-p"), QString::number(m_port),
                QStringLiteral("-U"), QLatin1String(Admin), QStringLiteral("-d"), database()},
               sql.toUtf8(), output);
}

QString Postgres::terminateConsoleSessions() const
{
    QString out;
    const QString e = admin(QStringLiteral("SELECT count(pg_terminate_backend(pid)) FROM "
                                           "pg_stat_activity WHERE application_name = "
                                           "'inventory-console-ledger';"),
                            &out);
    if (!e.isEmpty())
        return e;
    return out.trimmed() == QLatin1String("0") ? QStringLiteral("no console session to end")
                                               : QString();
}

QString Postgres::log() const
{
    return m_process ? QString::fromUtf8(m_process->readAll()).right(2000) : QString();
}

void Postgres::stop()
{
    if (!m_process)
        return;
    if (m_process->state() != QProcess::NotRunning) {
        ::kill(pid_t(m_process->processId()), SIGINT); // fast shutdown: ends every backend
        if (!m_process->waitForFinished(10000)) {
            m_process->kill();
            m_process->waitForFinished(5000);
        }
    }
    m_process.reset();
}

} // namespace testsupport
