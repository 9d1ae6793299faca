// SPDX-License-Identifier: GPL-3.0-or-later
#include "SecretStore.h"

#include "ProfilesLog.h"
#include "core/Wording.h"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QPointer>
#include <QTimer>
#include <memory>
#include <qt6keychain/keychain.h>

namespace profiles {

namespace {
// Where a password is kept, in the window's language (the CLI prints the English).
struct SecretText
{
    Q_DECLARE_TR_FUNCTIONS(profiles::SecretStore)
};
constexpr int DetectTimeoutMs = 3000;
const QString ProbeKey = QStringLiteral("inventory-console/keyring-probe");

// On Linux every keyring is reached over the D-Bus session bus; without one, a job could
// only fail (or try to autolaunch a bus). Returns why there is none, or empty.
// Why passwords stay in the session, in both copies: the window's and the log's.
core::Sentence secretSentence(const char *source)
{
    return core::Sentence::translated("profiles::SecretStore", source);
}

core::Sentence missingSessionBus()
{
#if defined(Q_OS_LINUX) || defined(Q_OS_FREEBSD)
    if (!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
        return {};
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && QFileInfo::exists(QDir(runtime).filePath(QStringLiteral("bus"))))
        return {};
    return secretSentence(QT_TRANSLATE_NOOP("profiles::SecretStore",
                                            "no D-Bus session bus, so no desktop keyring can "
                                            "be reached"));
#else
    return {};
#endif
}
} // namespace

SecretStore::SecretStore(Mode mode, QString service, QObject *parent)
    : QObject(parent)
    , m_mode(mode)
    , m_service(std::move(service))
{
    qRegisterMetaType<profiles::SecretStore::Backend>();
    if (qEnvironmentVariable("INVENTORY_SECRETS") == QLatin1String("session"))
        m_mode = Mode::SessionOnly;
    if (m_mode == Mode::SessionOnly) {
        m_backend = Backend::SessionOnly;
        m_reason = SecretText::tr("the keyring is turned off");
        return;
    }
    if (const core::Sentence why = missingSessionBus(); !why.isEmpty()) {
        m_backend = Backend::SessionOnly;
        m_reason = why.text;
        qCInfo(lcProfiles) << "passwords kept for this session only:" << why.english;
        return;
    }
    QTimer::singleShot(0, this, &SecretStore::detect);
}

SecretStore::~SecretStore() = default;

QString SecretStore::keyFor(const QString &profileName, Account account)
{
    switch (account) {
    case Account::Release:
        return QStringLiteral("profile/%1/release").arg(profileName);
    case Account::Sentinel:
        return QStringLiteral("profile/%1/sentinel").arg(profileName);
    case Account::Ledger:
        return QStringLiteral("profile/%1/ledger").arg(profileName);
    case Account::Main:
        break;
    }
    return QStringLiteral("profile/%1").arg(profileName);
}

QString SecretStore::storageNote() const
{
    switch (m_backend) {
    case Backend::Detecting:
        return SecretText::tr("Looking for a system keyring…");
    case Backend::Keyring:
        return SecretText::tr("The password is stored in the system keyring.");
    case Backend::SessionOnly:
        return SecretText::tr("The password is kept for this session only (%1).").arg(m_reason);
    }
    return {};
}

// Reads a key nobody writes: "not found" proves a keyring answered.
void SecretStore::detect()
{
    auto *job = new QKeychain::ReadPasswordJob(m_service);
    job->setKey(ProbeKey);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    auto answered = std::make_shared<bool>(false);
    connect(job, &QKeychain::Job::finished, this, [this, answered](QKeychain::Job *j) {
        if (*answered)
            return;
        *answered = true;
        if (j->error() == QKeychain::NoError || j->error() == QKeychain::EntryNotFound)
            settle(Backend::Keyring, {});
        else
            settle(Backend::SessionOnly, secretSentence(QT_TRANSLATE_NOOP("profiles::SecretStore",
                                                                          "no usable keyring: %1"))
                                             .arg(j->errorString()));
    });
    QTimer::singleShot(DetectTimeoutMs, this, [this, answered] {
        if (*answered)
            return;
        *answered = true;
        settle(Backend::SessionOnly,
               secretSentence(QT_TRANSLATE_NOOP("profiles::SecretStore",
                                                "the keyring did not answer within %1 s"))
                   .arg(DetectTimeoutMs / 1000));
    });
    job->start();
}

void SecretStore::settle(Backend backend, const core::Sentence &reason)
{
    m_backend = backend;
    m_reason = reason.text;
    if (backend == Backend::Keyring)
        qCInfo(lcProfiles) << "passwords go to the system keyring";
    else
        qCInfo(lcProfiles) << "passwords kept for this session only:" << reason.english;
    emit backendChanged(backend);
    const auto waiting = std::move(m_waiting);
    m_waiting.clear();
    for (const auto &then : waiting)
        then();
}

bool SecretStore::waitForBackend(int timeoutMs)
{
    if (m_backend != Backend::Detecting)
        return true;
    QEventLoop loop;
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    connect(this, &SecretStore::backendChanged, &loop, &QEventLoop::quit);
    loop.exec();
    return m_backend != Backend::Detecting;
}

void SecretStore::whenSettled(QObject *context, std::function<void()> then)
{
    QPointer<QObject> guard(context);
    auto run = [guard, then = std::move(then)] {
        if (guard)
            then();
    };
    if (m_backend == Backend::Detecting)
        m_waiting << run;
    else
        QTimer::singleShot(0, context, run);
}

void SecretStore::store(const QString &key, const QString &secret, QObject *context,
                        std::function<void(const StoreResult &)> done)
{
    m_memory.insert(key, secret);
    whenSettled(context, [this, key, secret, context, done = std::move(done)] {
        if (m_backend != Backend::Keyring) {
            done(StoreResult{false, storageNote()});
            return;
        }
        auto *job = new QKeychain::WritePasswordJob(m_service);
        job->setKey(key);
        job->setTextData(secret);
        job->setInsecureFallback(false);
        connect(job, &QKeychain::Job::finished, context, [done](QKeychain::Job *j) {
            if (j->error() == QKeychain::NoError) {
                done(StoreResult{true, SecretText::tr("The password is stored in the system "
                                                      "keyring.")});
                return;
            }
            qCWarning(lcProfiles) << "keyring write failed:" << j->errorString();
            done(StoreResult{false, SecretText::tr("The keyring refused the password (%1): it is "
                                                   "kept for this session only.")
                                        .arg(j->errorString())});
        });
        job->start();
    });
}

void SecretStore::load(const QString &key, QObject *context,
                       std::function<void(const std::optional<QString> &)> done)
{
    if (m_memory.contains(key)) {
        QTimer::singleShot(0, context, [done, secret = m_memory.value(key)] { done(secret); });
        return;
    }
    whenSettled(context, [this, key, context, done = std::move(done)] {
        if (m_backend != Backend::Keyring) {
            done(std::nullopt);
            return;
        }
        auto *job = new QKeychain::ReadPasswordJob(m_service);
        job->setKey(key);
        job->setInsecureFallback(false);
        QPointer<SecretStore> self(this);
        connect(job, &QKeychain::Job::finished, context, [self, key, done](QKeychain::Job *j) {
            auto *read = static_cast<QKeychain::ReadPasswordJob *>(j);
            if (read->error() != QKeychain::NoError) {
                if (read->error() != QKeychain::EntryNotFound)
                    qCWarning(lcProfiles) << "keyring read failed:" << read->errorString();
                done(std::nullopt);
                return;
            }
            if (self)
                self->m_memory.insert(key, read->textData());
            done(read->textData());
        });
        job->start();
    });
}

void SecretStore::remove(const QString &key)
{
    m_memory.remove(key);
    whenSettled(this, [this, key] {
        if (m_backend != Backend::Keyring)
            return;
        auto *job = new QKeychain::DeletePasswordJob(m_service);
        job->setKey(key);
        job->setInsecureFallback(false);
        job->start();
    });
}

} // namespace profiles
