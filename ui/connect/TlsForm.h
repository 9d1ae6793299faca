// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ProfileForm.h"

class QCheckBox;
class QFormLayout;
class QLabel;
class QLineEdit;

namespace profiles {
struct ParsedRedisUrl;
} // namespace profiles

namespace ui {

// The "TLS" tab: TLS on or off, the CA, the client certificate and key, the server name and whether
// the server's certificate is verified, with a warning while it is not.
class TlsForm : public ProfileForm
{
    Q_OBJECT
public:
    explicit TlsForm(QWidget *parent = nullptr);

    void load(const profiles::ConnectionProfile &profile) override;
    // The files and the server name only while TLS is on: a profile without TLS keeps none.
    void apply(profiles::ConnectionProfile &profile) const override;

    // rediss:// turns TLS on, verifying; redis:// turns it off.
    void fillFromUrl(const profiles::ParsedRedisUrl &url);

private:
    QLineEdit *addFileRow(QFormLayout *form, const char *name, const QString &label,
                          const QString &placeholder);
    void browseForFile(QLineEdit *target, const QString &title);
    void updateState();

    QCheckBox *m_enabled = nullptr;
    QLineEdit *m_ca = nullptr;
    QLineEdit *m_cert = nullptr;
    QLineEdit *m_key = nullptr;
    QLineEdit *m_serverName = nullptr;
    QCheckBox *m_verify = nullptr;
    QLabel *m_warning = nullptr;
    QList<QWidget *> m_tlsOnly; // what TLS off disables
};

} // namespace ui
