// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "functions/ChangePlan.h"

#include <QDialog>

#include <optional>

class QButtonGroup;
class QCheckBox;
class QPushButton;
class QDialogButtonBox;
class QGroupBox;
class QLabel;
class QTreeWidget;

namespace ui {

// Where a rollback starts: the library's history (every backup in the backup folder, newest
// first, with library, version, node, time and the action it was taken before) and the ways
// back explained in words: the library's code alone, or the whole FUNCTION DUMP with one of
// the three FUNCTION RESTORE policies. A backup taken on another node than the session's is
// marked so, and going back to it needs an explicit acknowledgement: restoring a node's
// libraries from another node can put back code this node never ran.
class RollbackDialog : public QDialog
{
    Q_OBJECT
public:
    // `library`: the library to show first (the one selected in the view), may be empty.
    // `sessionNodes`: the host:port of every node this session would restore to; empty: no
    // backup is marked as another node's.
    RollbackDialog(const QString &backupDirectory, const QString &library,
                   const QStringList &sessionNodes = {}, QWidget *parent = nullptr);

    QTreeWidget *backups() const { return m_backups; }
    QString backupPath() const;
    // nullopt: put the library's code back; otherwise restore the whole dump.
    std::optional<functions::RestorePolicy> policy() const;
    // Selects the way back: 0 code, 1 REPLACE, 2 FLUSH, 3 APPEND.
    void setWay(int way);
    // True when the selected backup was taken on none of the session's nodes.
    bool selectedIsFromAnotherNode() const;
    // Shown (and required) for another node's backup; nullptr-safe to tick in tests.
    QCheckBox *otherNodeAcknowledgement() const { return m_otherNodeAck; }
    QPushButton *continueButton() const;

    // Adds a backup file (one chosen outside the folder) and selects it; false if unreadable.
    bool addBackup(const QString &path, QString *error = nullptr);

private:
    // Every backup in the folder, newest first, the selected library's newest selected.
    void fillBackupList(const QString &backupDirectory, const QString &library);
    QGroupBox *buildWaysBox();
    void chooseOther();
    void updateOk();

    QString m_library;
    QStringList m_sessionNodes;
    QCheckBox *m_otherNodeAck;
    QTreeWidget *m_backups;
    QLabel *m_empty;
    QButtonGroup *m_ways;
    QDialogButtonBox *m_buttons;
};

} // namespace ui
