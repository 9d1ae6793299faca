// SPDX-License-Identifier: GPL-3.0-or-later
#include "AuditLog.h"

#include "core/DataPaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QStandardPaths>
#include <QUuid>

#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace inventory {

namespace {

// Why a record could not be written: the window shows it in its language, the CLI and the
// log in English. The record itself stays English (AuditRecord::toJsonLine).
core::Sentence auditSays(const char *source)
{
    return core::Sentence::translated("inventory::AuditLog", source);
}

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

// A JSON number is a double: 1e300 (a corrupt or hostile line) cast to qint64 is undefined
// behaviour (found by tests/fuzz/fuzz_audit_log). Anything that is not a duration a double
// holds exactly (0 to 2^53 ms) reads as unknown, as a missing one does.
qint64 durationFromJson(const QJsonValue &v)
{
    const double ms = v.toDouble(-1);
    return ms >= 0 && ms <= double(qint64(1) << 53) ? qint64(ms) : -1;
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
    if (phase != Phase::Single) {
        o.insert(QStringLiteral("phase"),
                 phase == Phase::Attempt ? QStringLiteral("attempt") : QStringLiteral("outcome"));
        o.insert(QStringLiteral("attempt_id"), attemptId);
    }
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
    r.durationMs = durationFromJson(o.value(QStringLiteral("duration_ms")));
    r.detail = o.value(QStringLiteral("detail")).toString();
    // Records written before write-ahead auditing have neither: each is a Single record.
    const QString phase = o.value(QStringLiteral("phase")).toString();
    r.attemptId = o.value(QStringLiteral("attempt_id")).toString();
    if (!r.attemptId.isEmpty() && phase == QLatin1String("attempt"))
        r.phase = AuditRecord::Phase::Attempt;
    else if (!r.attemptId.isEmpty() && phase == QLatin1String("outcome"))
        r.phase = AuditRecord::Phase::Outcome;
    return r;
}

AuditLog::AuditLog(QString path)
    : m_path(std::move(path))
{}

QString AuditLog::defaultPath()
{
    return core::sharedDataDirectory() + QStringLiteral("/audit.jsonl");
}

core::Result<bool, core::Sentence> AuditLog::append(AuditRecord record) const
{
    if (!record.timeUtc.isValid())
        record.timeUtc = QDateTime::currentDateTimeUtc();
    if (record.osUser.isEmpty())
        record.osUser = currentOsUser();
    const auto failed = [this](const core::Sentence &why) {
        return auditSays(QT_TRANSLATE_NOOP("inventory::AuditLog",
                                           "the audit log at %1 could not be written: %2"))
            .arg(m_path, why);
    };
    const auto sysError = [] {
        return QString::fromLocal8Bit(strerror(errno));
    };
    const QByteArray line = record.toJsonLine() + '\n';
    if (auto dir = core::makePrivateDirectory(QFileInfo(m_path).absolutePath()); !dir)
        return failed(dir.error());
    // Never through a link (a dangling one would create its target elsewhere), and only
    // into a regular file.
    const int fd = ::open(QFile::encodeName(m_path).constData(),
                          O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
    if (fd < 0)
        return failed(
            errno == ELOOP
                ? auditSays(QT_TRANSLATE_NOOP("inventory::AuditLog",
                                              "it is a symbolic link; the audit log is "
                                              "written only to a regular file"))
                : auditSays(QT_TRANSLATE_NOOP("inventory::AuditLog", "cannot open it (%1)"))
                      .arg(sysError()));
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return failed(
            auditSays(QT_TRANSLATE_NOOP("inventory::AuditLog", "it is not a regular file")));
    }
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
    core::Sentence problem;
    while (written < out.size()) {
        const ssize_t n = ::write(fd, out.constData() + written, size_t(out.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            problem = auditSays(QT_TRANSLATE_NOOP("inventory::AuditLog",
                                                  "the record was written only in part (%1)"))
                          .arg(n < 0 ? core::Sentence::plain(sysError())
                                     : auditSays(QT_TRANSLATE_NOOP("inventory::AuditLog",
                                                                   "no space written")));
            break;
        }
        written += n;
    }
    if (problem.isEmpty() && ::fsync(fd) != 0)
        problem = auditSays(QT_TRANSLATE_NOOP("inventory::AuditLog", "fsync failed (%1)"))
                      .arg(sysError());
    ::flock(fd, LOCK_UN);
    ::close(fd);
    if (!problem.isEmpty())
        return failed(problem);
    return true;
}

core::Result<AuditRecord, core::Sentence> AuditLog::appendAttempt(AuditRecord record) const
{
    record.phase = AuditRecord::Phase::Attempt;
    record.attemptId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    if (record.result.isEmpty())
        record.result = QStringLiteral("attempt: about to send; the outcome follows in a record "
                                       "with the same attempt id");
    if (!record.timeUtc.isValid())
        record.timeUtc = QDateTime::currentDateTimeUtc();
    const auto written = append(record);
    if (!written.ok())
        return auditSays(QT_TRANSLATE_NOOP("inventory::AuditLog",
                                           "%1. Nothing was sent: a write is sent only once its "
                                           "audit record is on disk. Fix the audit log "
                                           "(permissions, free space), then try again"))
            .arg(written.error());
    return record;
}

core::Result<bool, core::Sentence> AuditLog::appendOutcome(AuditRecord record,
                                                           const QString &attemptId) const
{
    record.phase = AuditRecord::Phase::Outcome;
    record.attemptId = attemptId;
    return append(std::move(record));
}

namespace {
// What could not be read, for the window's banners (the CLI prints the English).
struct AuditReadText
{
    Q_DECLARE_TR_FUNCTIONS(inventory::AuditLog)
};
} // namespace

AuditLog::ReadResult AuditLog::read(const QString &path)
{
    ReadResult out;
    QFile f(path);
    if (!f.exists())
        return out;
    if (!f.open(QIODevice::ReadOnly)) {
        out.problems << AuditReadText::tr("cannot read %1: %2").arg(path, f.errorString());
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
            out.problems << AuditReadText::tr("line %1: truncated or corrupt record skipped (%2)")
                                .arg(QString::number(lineNo), r.error());
    }
    return out;
}

QString noOutcomeRecordedText()
{
    return QStringLiteral("no outcome recorded: the console stopped before the reply; the "
                          "command may or may not have run");
}

QList<AuditRecord> pairAttempts(const QList<AuditRecord> &records)
{
    QSet<QString> answered;
    for (const AuditRecord &r : records)
        if (r.phase == AuditRecord::Phase::Outcome)
            answered.insert(r.attemptId);
    QList<AuditRecord> out;
    out.reserve(records.size());
    for (const AuditRecord &r : records) {
        if (r.phase != AuditRecord::Phase::Attempt) {
            out << r;
        } else if (!answered.contains(r.attemptId)) {
            AuditRecord lone = r;
            lone.result = noOutcomeRecordedText();
            lone.outcomeUnknown = true;
            out << lone;
        }
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
