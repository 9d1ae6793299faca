// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ProfileForm.h"
#include "sentinel/SentinelUrl.h"

class QLabel;
class QLineEdit;

namespace ui {

// The "Sentinel" tab: find the primary through Redis Sentinel and follow it after a failover.
// The master name (empty: connect to the host and port directly), the sentinels, and the
// sentinels' own user and password (not the data node's). The list is checked as it is
// typed with the parser the session uses (sentinel::parseSentinelList).
class SentinelForm : public ProfileForm
{
    Q_OBJECT
public:
    explicit SentinelForm(QWidget *parent = nullptr);

    // Clears the password: another profile's never stays in the field.
    void load(const profiles::ConnectionProfile &profile) override;
    void apply(profiles::ConnectionProfile &profile) const override;

    QString password() const; // empty without a master name
    // A saved password arrives from the keyring after load(): what the user typed meanwhile wins.
    void offerPassword(const QString &password);
    // The master name and the sentinels of a redis-sentinel:// URL.
    void fillFromUrl(const sentinel::SentinelUrl &url);

signals:
    // A master name was written or removed.
    void masterSet(bool set);

private:
    void updateNotes();

    QLineEdit *m_master = nullptr;
    QLineEdit *m_sentinels = nullptr;
    QLabel *m_sentinelsNote = nullptr;
    QLineEdit *m_user = nullptr;
    QLineEdit *m_password = nullptr;
};

} // namespace ui
