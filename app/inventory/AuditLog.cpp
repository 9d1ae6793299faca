#include "AuditLog.h"

#include "core/DataPaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <unistd.h>

namespace inventory {

namespace {

QJsonValue bytesToJson(const QByteArray &b)
{
    // Text stays readable; arbitrary bytes survive exactly, base64-wrapped.
    const QString s = QString::fromUtf8(b);
    if (s.toUtf8() == b)
        return s;
    return QJsonObject{{QStringLiteral("base64"), QString::fromLatin1(b.toBase64())}};
}

std::optional<QByteArray> bytesFromJson(const QJsonValue &v)
{
    if (v.isString())
        return v.toString().toUtf8();
    if (v.isObject() && v.toObject().value(QStringLiteral("base64")).isString())
        return QByteArray::fromBase64(
            v.toObject().value(QStringLiteral("base64")).toString().toLatin1());
    return std::nullopt;
}

QString currentOsUser()
{
    QString u = qEnvironmentVariable("USER");
    if (u.isEmpty())
        u = qEnvironmentVariable("LOGNAME");
    if (u.isEmpty()) {
        // Services and CI often run without USER; the password database still knows.
        const passwd *pw = ::getpwuid(::getuid());
        u = pw ? QString::fromLocal8Bit(pw->pw_name) : QString::number(::getuid());
    }
    return u;
}

} // namespace

QByteArray AuditRecord::toJsonLine() const
{
    QJsonArray cmd;
    for (const QByteArray &a : redactCommand(command))
        cmd.append(bytesToJson(a));
    QJsonObject o{{QStringLiteral("time"), timeUtc.toString(Qt::ISODateWithMs)},
                  {QStringLiteral("os_user"), osUser},
                  {QStringLiteral("action"), action},
                  {QStringLiteral("profile"), profile},
                  {QStringLiteral("server"), server},
                  {QStringLiteral("run_id"), runId},
                  {QStringLiteral("command"), cmd},
                  {QStringLiteral("result"), result},
                  {QStringLiteral("outcome_unknown"), outcomeUnknown},
                  {QStringLiteral("duration_ms"), double(durationMs)}};
    if (!detail.isEmpty())
        o.insert(QStringLiteral("detail"), detail);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

core::Result<AuditRecord, QString> AuditRecord::fromJsonLine(const QByteArray &line)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return QStringLiteral("not a JSON object (%1)").arg(err.errorString());
    const QJsonObject o = doc.object();
    AuditRecord r;
    r.timeUtc =
        QDateTime::fromString(o.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
    if (!r.timeUtc.isValid() || !o.value(QStringLiteral("command")).isArray())
        return QStringLiteral("missing time or command");
    r.osUser = o.value(QStringLiteral("os_user")).toString();
    r.action = o.value(QStringLiteral("action")).toString();
    r.profile = o.value(QStringLiteral("profile")).toString();
    r.server = o.value(QStringLiteral("server")).toString();
    r.runId = o.value(QStringLiteral("run_id")).toString();
    for (const QJsonValue &v : o.value(QStringLiteral("command")).toArray()) {
        const auto b = bytesFromJson(v);
        if (!b)
            return QStringLiteral("bad command argument");
        r.command << *b;
    }
    r.result = o.value(QStringLiteral("result")).toString();
    r.outcomeUnknown = o.value(QStringLiteral("outcome_unknown")).toBool();
    r.durationMs = qint64(o.value(QStringLiteral("duration_ms")).toDouble(-1));
    r.detail = o.value(QStringLiteral("detail")).toString();
    return r;
}

AuditLog::AuditLog(QString path)
    : m_path(std::move(path))
{}

QString AuditLog::defaultPath()
{
    return core::sharedDataDirectory() + QStringLiteral("/audit.jsonl");
}

core::Result<bool, QString> AuditLog::append(AuditRecord record) const
{
    if (!record.timeUtc.isValid())
        record.timeUtc = QDateTime::currentDateTimeUtc();
    if (record.osUser.isEmpty())
        record.osUser = currentOsUser();
    const QByteArray line = record.toJsonLine() + '\n';
    if (!QDir().mkpath(QFileInfo(m_path).absolutePath()))
        return QStringLiteral("cannot create the folder of the audit log %1").arg(m_path);
    const int fd = ::open(QFile::encodeName(m_path).constData(),
                          O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return QStringLiteral("cannot open the audit log %1: %2")
            .arg(m_path, QString::fromLocal8Bit(strerror(errno)));
    ::flock(fd, LOCK_EX);
    // A previous writer killed mid-line leaves no newline at the end; start on a fresh line
    // so that only its record, not ours, is unreadable.
    QByteArray out = line;
    const off_t end = ::lseek(fd, 0, SEEK_END);
    if (end > 0) {
        char last = '\n';
        if (::pread(fd, &last, 1, end - 1) == 1 && last != '\n')
            out.prepend('\n');
    }
    qsizetype written = 0;
    while (written < out.size()) {
        const ssize_t n = ::write(fd, out.constData() + written, size_t(out.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        written += n;
    }
    const bool synced = ::fsync(fd) == 0;
    ::flock(fd, LOCK_UN);
    ::close(fd);
    if (written != out.size() || !synced)
        return QStringLiteral("the audit record could not be written completely to %1").arg(m_path);
    return true;
}

AuditLog::ReadResult AuditLog::read(const QString &path)
{
    ReadResult out;
    QFile f(path);
    if (!f.exists())
        return out;
    if (!f.open(QIODevice::ReadOnly)) {
        out.problems << QStringLiteral("cannot read %1: %2").arg(path, f.errorString());
        return out;
    }
    int lineNo = 0;
    while (!f.atEnd()) {
        const QByteArray line = f.readLine();
        ++lineNo;
        if (line.trimmed().isEmpty())
            continue;
        auto r = AuditRecord::fromJsonLine(line.trimmed());
        if (r.ok())
            out.records << r.value();
        else
            out.problems << QStringLiteral("line %1: truncated or corrupt record skipped (%2)")
                                .arg(lineNo)
                                .arg(r.error());
    }
    return out;
}

QList<QByteArray> redactCommand(const QList<QByteArray> &command)
{
    QList<QByteArray> out = command;
    if (out.isEmpty())
        return out;
    const QByteArray name = out.first().toUpper();
    const QByteArray redacted = "(redacted)";
    auto redactFrom = [&](qsizetype i) {
        for (; i < out.size(); ++i)
            out[i] = redacted;
    };
    if (name == "AUTH") {
        redactFrom(1);
    } else if (name == "HELLO" || name == "MIGRATE") {
        for (qsizetype i = 1; i < out.size(); ++i)
            if (out[i].toUpper() == "AUTH" || out[i].toUpper() == "AUTH2")
                redactFrom(i + 1);
    } else if (name == "ACL" && out.size() > 1 && out[1].toUpper() == "SETUSER") {
        for (qsizetype i = 3; i < out.size(); ++i)
            if (out[i].startsWith('>') || out[i].startsWith('<') || out[i].startsWith('#'))
                out[i] = redacted;
    } else if (name == "CONFIG" && out.size() > 1 && out[1].toUpper() == "SET") {
        for (qsizetype i = 2; i + 1 < out.size(); i += 2)
            if (out[i].toLower().contains("pass") || out[i].toLower().contains("auth"))
                out[i + 1] = redacted;
    }
    return out;
}

} // namespace inventory
