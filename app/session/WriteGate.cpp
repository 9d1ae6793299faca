#include "WriteGate.h"

#include "SessionLog.h"

#include <QPointer>
#include <QThread>
#include <QTimer>

namespace session {

WriteGate::WriteGate(redis::CommandSender &server, const ConnectionProfile &profile,
                     QObject *parent)
    : QObject(parent)
    , m_server(server)
    , m_profileName(profile.name)
    , m_environment(profile.environmentLabel())
    , m_readOnly(profile.startsReadOnly())
{
    if (m_readOnly)
        qCInfo(lcSession) << "session on" << m_environment << "profile" << m_profileName
                          << "starts read-only";
}

bool WriteGate::unlock(const QString &typedName)
{
    if (typedName != m_profileName || m_profileName.isEmpty())
        return false;
    if (m_readOnly) {
        m_readOnly = false;
        qCWarning(lcSession) << "writes unlocked for this session on" << m_environment << "profile"
                             << m_profileName;
        emit readOnlyChanged(false);
    }
    return true;
}

void WriteGate::lock()
{
    if (m_readOnly)
        return;
    m_readOnly = true;
    qCInfo(lcSession) << "session on profile" << m_profileName << "is read-only again";
    emit readOnlyChanged(true);
}

QString WriteGate::refusalMessage() const
{
    return QStringLiteral("read-only session on %1 profile '%2': unlock it (type the profile "
                          "name) to allow writes")
        .arg(m_environment, m_profileName);
}

std::optional<QList<WriteDecision>>
WriteGate::classifyCached(const QList<redis::Command> &commands) const
{
    QList<WriteDecision> out;
    for (const redis::Command &c : commands) {
        auto d = m_traits.decideCached(c);
        if (!d)
            return std::nullopt;
        out << *d;
    }
    return out;
}

QList<WriteDecision> WriteGate::classifyAfterLookup(const QList<redis::Command> &commands,
                                                    const QString &lookupFailure) const
{
    QList<WriteDecision> out;
    for (const redis::Command &c : commands)
        out << m_traits.decideAfterLookup(c, lookupFailure);
    return out;
}

void WriteGate::fetchMissing(const QList<redis::Command> &commands, QObject *context,
                             std::function<void(const QString &)> done)
{
    const QList<QByteArray> names = m_traits.missingCommandInfo(commands);
    const bool functions = m_traits.needsFunctionList(commands);
    QList<redis::Command> lookups;
    if (!names.isEmpty()) {
        redis::Command info{"COMMAND", "INFO"};
        info << names;
        lookups << info;
    }
    if (functions)
        lookups << redis::Command{"FUNCTION", "LIST"};
    QPointer<QObject> guard(context);
    if (lookups.isEmpty()) {
        QTimer::singleShot(0, context, [done] { done({}); });
        return;
    }
    QPointer<WriteGate> self(this);
    m_server.sendBatch(
        lookups, this, [self, guard, names, functions, done](const QList<redis::ReplyResult> &r) {
            QStringList failures;
            qsizetype i = 0;
            if (!names.isEmpty()) {
                if (r[i].ok())
                    self->m_traits.addCommandInfo(names, r[i].value());
                else
                    failures << QStringLiteral("COMMAND INFO: %1").arg(r[i].error().message);
                ++i;
            }
            if (functions) {
                if (r[i].ok()) {
                    auto libs = redis::decodeFunctionList(r[i].value());
                    if (libs.ok())
                        self->m_traits.setFunctions(libs.value());
                    else
                        failures << QStringLiteral("FUNCTION LIST: %1").arg(libs.error());
                } else {
                    failures << QStringLiteral("FUNCTION LIST: %1").arg(r[i].error().message);
                }
            }
            if (!failures.isEmpty())
                qCInfo(lcSession) << "write gate lookups failed:" << failures;
            const QString failure = failures.join(QStringLiteral("; "));
            if (!guard)
                return;
            if (guard->thread() == QThread::currentThread())
                done(failure);
            else
                QMetaObject::invokeMethod(guard.data(), [done, failure] { done(failure); });
        });
}

void WriteGate::classify(const QList<redis::Command> &commands, QObject *context,
                         std::function<void(const QList<WriteDecision> &)> done)
{
    if (auto cached = classifyCached(commands)) {
        QTimer::singleShot(0, context, [done, d = *cached] { done(d); });
        return;
    }
    QPointer<WriteGate> self(this);
    fetchMissing(commands, context, [self, commands, done](const QString &failure) {
        if (self)
            done(self->classifyAfterLookup(commands, failure));
    });
}

void WriteGate::noteSent(const QList<redis::Command> &commands)
{
    for (const redis::Command &c : commands)
        if (CommandTraits::changesFunctions(c)) {
            m_traits.forgetFunctions();
            return;
        }
}

} // namespace session
