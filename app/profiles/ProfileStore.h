// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ConnectionProfile.h"
#include "core/Result.h"

#include <QList>
#include <memory>

class QSettings;

namespace profiles {

// Saved connection profiles in QSettings, one group per profile under "profiles/". Never
// holds a password: those go to the SecretStore.
class ProfileStore
{
public:
    // The application's QSettings (organisation and application names set by main()).
    ProfileStore();
    // A given settings object, not owned (tests use an INI file in a temp dir).
    explicit ProfileStore(QSettings *settings);
    ~ProfileStore();
    ProfileStore(const ProfileStore &) = delete;
    ProfileStore &operator=(const ProfileStore &) = delete;

    // Sorted by name, case-insensitively.
    QList<ConnectionProfile> list() const;
    std::optional<ConnectionProfile> find(const QString &name) const;

    // Validates, then saves (replacing a profile of the same name). With previousName set and
    // different from the profile's name, this is a rename: the old group goes. On a problem
    // nothing is written and every problem is returned.
    core::Result<ConnectionProfile, QList<ProfileProblem>> save(const ConnectionProfile &profile,
                                                                const QString &previousName = {});
    // False when there was no such profile.
    bool remove(const QString &name);

private:
    QString groupFor(const QString &name) const;
    std::unique_ptr<QSettings> m_owned;
    QSettings *m_settings = nullptr;
};

} // namespace profiles
