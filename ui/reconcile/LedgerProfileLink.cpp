// SPDX-License-Identifier: GPL-3.0-or-later
#include "LedgerProfileLink.h"

#include "LedgerForm.h"

#include "profiles/ProfileStore.h"
#include "profiles/SecretStore.h"

#include <QPointer>

namespace ui {

using profiles::SecretStore;

LedgerProfileLink::LedgerProfileLink(LedgerForm *form, profiles::ProfileStore &profiles,
                                     profiles::SecretStore &secrets, const QString &profileName,
                                     QObject *parent)
    : QObject(parent)
    , m_form(form)
    , m_profiles(profiles)
    , m_secrets(secrets)
    , m_name(profileName)
{
    if (isSavedProfile()) {
        m_form->offerSave(m_name);
        connect(m_form, &LedgerForm::saveRequested, this, &LedgerProfileLink::save);
    }
}

bool LedgerProfileLink::isSavedProfile() const
{
    return !m_name.isEmpty() && m_profiles.find(m_name).has_value();
}

bool LedgerProfileLink::restore()
{
    const auto profile = m_profiles.find(m_name);
    if (!profile || !profile->ledger.enabled())
        return false;
    m_form->setSettings(profile->ledger);
    if (!m_form->isPostgres()) {
        emit noted(tr("The ledger saved in the profile '%1'.").arg(m_name), false);
        return true;
    }
    emit noted(tr("The ledger saved in the profile '%1'; looking for its password in the "
                  "keyring…")
                   .arg(m_name),
               false);
    m_secrets.load(SecretStore::keyFor(m_name, SecretStore::Account::Ledger), this,
                   [this](const std::optional<QString> &password) {
                       if (password && m_form->password().isEmpty())
                           m_form->setPassword(*password);
                       emit noted(password ? tr("The ledger saved in the profile '%1', its "
                                                "password from the keyring.")
                                                 .arg(m_name)
                                           : tr("The ledger saved in the profile '%1'. No "
                                                "password for it was found (%2): type it to run.")
                                                 .arg(m_name, m_secrets.isPersistent()
                                                                  ? tr("none in the keyring")
                                                                  : m_secrets.fallbackReason()),
                                  false);
                   });
    return true;
}

void LedgerProfileLink::save()
{
    const auto request = m_form->request();
    if (!request) {
        emit noted(tr("Not saved: %1").arg(request.error()), true);
        return;
    }
    auto profile = m_profiles.find(m_name);
    if (!profile) {
        emit noted(tr("Not saved: the profile '%1' is no longer saved.").arg(m_name), true);
        return;
    }
    profile->ledger = m_form->settings();
    const auto saved = m_profiles.save(*profile, m_name);
    if (!saved.ok()) {
        emit noted(tr("Not saved: %1").arg(saved.error().first().message), true);
        return;
    }
    keepPassword(m_form->isPostgres(), m_form->password());
}

// The profile is saved by now; the password follows, and the note says where it went.
void LedgerProfileLink::keepPassword(bool postgres, const QString &password)
{
    const QString key = SecretStore::keyFor(m_name, SecretStore::Account::Ledger);
    if (!postgres || password.isEmpty()) {
        m_secrets.remove(key); // nothing stale for another ledger, or a password cleared
        emit noted(postgres ? tr("Saved in the profile '%1', without a password (none typed; "
                                 "any kept before was removed).")
                                  .arg(m_name)
                            : tr("Saved in the profile '%1'.").arg(m_name),
                   false);
        return;
    }
    // The store outlives the tab: the keyring may answer after it has closed.
    QPointer<LedgerProfileLink> self(this);
    m_secrets.store(key, password, &m_secrets,
                    [self, name = m_name](const SecretStore::StoreResult &r) {
                        if (!self)
                            return;
                        emit self->noted(r.persistent ? tr("Saved in the profile '%1'; the "
                                                           "password in the system keyring.")
                                                            .arg(name)
                                                      : tr("Saved in the profile '%1'; the "
                                                           "password is not: %2")
                                                            .arg(name, r.note),
                                         !r.persistent);
                    });
}

} // namespace ui
