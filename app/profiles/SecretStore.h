// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Wording.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <functional>
#include <optional>

namespace profiles {

// Passwords for profiles. In the system keyring (QtKeychain: Secret Service, KWallet,
// macOS Keychain, Windows Credential Store) when one answers; otherwise in memory for this
// session only, and the store says so. Never in QSettings, never on disk in plain text,
// never in logs.
class SecretStore : public QObject
{
    Q_OBJECT
public:
    enum class Mode {
        Auto,        // use a keyring if one answers, else session only
        SessionOnly, // never touch a keyring (tests; --no-keyring)
    };
    enum class Backend { Detecting, Keyring, SessionOnly };
    Q_ENUM(Backend)
    // Main: the Redis user's; Release: the user that loads libraries; Sentinel: the
    // sentinels'; Ledger: the PostgreSQL order ledger's (reconcile).
    enum class Account { Main, Release, Sentinel, Ledger };

    // The environment variable INVENTORY_SECRETS=session forces SessionOnly.
    explicit SecretStore(Mode mode = Mode::Auto,
                         QString service = QStringLiteral("inventory-console"),
                         QObject *parent = nullptr);
    ~SecretStore() override;

    Backend backend() const { return m_backend; }
    bool isPersistent() const { return m_backend == Backend::Keyring; }
    // One sentence for the password field: where a password typed now will be kept.
    QString storageNote() const;
    // Why there is no keyring (empty when there is one, or while detecting).
    QString fallbackReason() const { return m_reason; }

    // Blocks (local event loop) until detection settled, at most timeoutMs. True if settled.
    bool waitForBackend(int timeoutMs);

    static QString keyFor(const QString &profileName, Account account = Account::Main);

    struct StoreResult
    {
        bool persistent = false; // in the keyring; false: in memory for this session only
        QString note;            // what to tell the user
    };
    // Callbacks run on the context's thread, and never after the context is destroyed.
    void store(const QString &key, const QString &secret, QObject *context,
               std::function<void(const StoreResult &)> done);
    void load(const QString &key, QObject *context,
              std::function<void(const std::optional<QString> &)> done);
    void remove(const QString &key);

signals:
    void backendChanged(profiles::SecretStore::Backend backend);

private:
    void detect();
    void settle(Backend backend, const core::Sentence &reason);
    void whenSettled(QObject *context, std::function<void()> then);

    Mode m_mode;
    QString m_service;
    Backend m_backend = Backend::Detecting;
    QString m_reason;
    QHash<QString, QString> m_memory; // this session's passwords
    QList<std::function<void()>> m_waiting;
};

} // namespace profiles
