// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ProfileForm.h"

class QLabel;
class QPlainTextEdit;

namespace ui {

// The "Cluster & replicas" tab: the map from the addresses nodes announce to ones this machine can
// reach, checked as typed.
class ClusterForm : public ProfileForm
{
    Q_OBJECT
public:
    explicit ClusterForm(QWidget *parent = nullptr);

    void load(const profiles::ConnectionProfile &profile) override;
    // A bad line is kept as written: validation then names it, and nothing is saved.
    void apply(profiles::ConnectionProfile &profile) const override;

private:
    void updateNote();

    QPlainTextEdit *m_announcedMap = nullptr;
    QLabel *m_note = nullptr;
};

} // namespace ui
