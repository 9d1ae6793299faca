// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "profiles/ConnectionProfile.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace ui {

// The environment label of a profile: the four labels with their colours, the badge of the one
// shown and a note on what it means for a session. Until the user picks a label the host decides it
// (profiles::defaultEnvironmentForHost), so that a forgotten label fails safe.
class EnvironmentField : public QWidget
{
    Q_OBJECT
public:
    explicit EnvironmentField(QWidget *parent = nullptr);

    // What the form's label is the buddy of, and what a problem with the label points at.
    QComboBox *combo() const { return m_combo; }

    // The host as written in the form: it decides the label until one is picked, and the note
    // depends on it either way.
    void setHost(const QString &host);
    // Through an SSH bastion the host is as the bastion sees it: production until labelled,
    // and never local.
    void setThroughBastion(bool through);
    // Behind Sentinel the primary may be on any host after a failover: production until
    // labelled, and never local.
    void setBehindSentinel(bool behind);

    // A saved label is the user's choice; an unlabelled profile keeps following its host. A
    // label this version cannot read is shown as production, the careful choice.
    void load(const profiles::ConnectionProfile &profile);
    // Unchosen, the label stays empty: the host decides, wherever the profile is used.
    void apply(profiles::ConnectionProfile &profile) const;

private:
    void applyDefault();
    void setEnvironment(const QString &label, bool chosen);
    void chooseShown();
    void updateNote();

    QString m_host;
    bool m_bastion = false;
    bool m_sentinel = false;
    bool m_chosen = false; // the user (or a saved profile) picked the label
    bool m_applyingDefault = false;
    QComboBox *m_combo = nullptr;
    QLabel *m_swatch = nullptr;
    QLabel *m_note = nullptr;
};

} // namespace ui
