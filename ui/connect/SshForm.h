// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ProfileForm.h"

class QCheckBox;
class QLabel;
class QLineEdit;

namespace ui {

// The "SSH" tab: reach the server through a bastion with the system's OpenSSH client. The
// bastion `user@host[:port]`, an optional jump host, an optional identity file (the agent
// otherwise) and whether ~/.ssh/config is read. Each field is checked as it is typed, with
// the same parser the tunnel uses (ssh::parseEndpoint); validate()'s problems land on the
// bastion field.
class SshForm : public ProfileForm
{
    Q_OBJECT
public:
    explicit SshForm(QWidget *parent = nullptr);

    void load(const profiles::ConnectionProfile &profile) override;
    void apply(profiles::ConnectionProfile &profile) const override;

signals:
    // A bastion was written or removed (the environment label's default depends on it).
    void bastionSet(bool set);

private:
    // A line edit with the note under it that says what is wrong with it, or a hint.
    struct Field
    {
        QLineEdit *edit = nullptr;
        QLabel *note = nullptr;
    };
    Field endpointField(const char *name, const QString &label, const QString &placeholder);
    QWidget *identityRow();
    void browseForIdentity();
    void updateNotes();

    Field m_bastion;
    Field m_jump;
    Field m_identity;
    QCheckBox *m_useConfig = nullptr;
};

} // namespace ui
