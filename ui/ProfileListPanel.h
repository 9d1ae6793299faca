// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "profiles/ConnectionProfile.h"

#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace profiles {
class ProfileStore;
} // namespace profiles

namespace ui {

// The saved connection profiles, as RESP.app and RedisInsight open: one line each with its
// environment and address; choosing one puts it in the form next to it. New, Duplicate and
// Delete act on the list; connecting is the dialog's button.
class ProfileListPanel : public QWidget
{
    Q_OBJECT
public:
    // The store is not owned and must outlive the panel.
    explicit ProfileListPanel(profiles::ProfileStore &profiles, QWidget *parent = nullptr);

    // Reads the store again and selects `name` (no selection when empty or gone).
    void reload(const QString &name = {});
    QString currentName() const;
    QListWidget *list() const { return m_list; }

signals:
    void profileChosen(const profiles::ConnectionProfile &profile);
    void newRequested();
    void duplicateRequested();
    void deleteRequested(const QString &name);

private:
    void updateButtons();

    profiles::ProfileStore &m_profiles;
    QListWidget *m_list;
    QLabel *m_empty = nullptr; // what to do when there is nothing to list
    QPushButton *m_new;
    QPushButton *m_duplicate;
    QPushButton *m_delete;
};

} // namespace ui
