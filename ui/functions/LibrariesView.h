// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "functions/ChangePlan.h"
#include "functions/ClusterNodes.h"
#include "functions/LocalCatalog.h"
#include "ui/common/NoticeBanner.h"

#include <QWidget>
#include <memory>

class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace ui {

class LoadWizard;
class LuaCodeView;
class NodeMatrixView;

// The function libraries of a server (FUNCTION LIST WITHCODE, sorted): per library its
// version, SHA-256, the local file it matches; per function its flags and description; the
// selected library's code read-only with Lua highlighting. A banner names every library whose
// local file differs ("loaded 1.0.0, local file 1.1.0 differs") with a button to preview the
// upgrade. Load, roll back and delete open the LoadWizard. Never waits on the network.
class LibrariesView : public QWidget
{
    Q_OBJECT
public:
    // `context`: the session's nodes (the first one is listed), environment guard, loading
    // user, backup directory and audit log, as the wizard needs them.
    explicit LibrariesView(functions::ChangeContext context, QWidget *parent = nullptr);
    // On a Redis Cluster: the nodes come from the router (every primary for a change, every
    // primary and replica for the matrix of libraries by node, shown above the libraries);
    // `release`: the release user's options, connected per node. On a standalone server the
    // view is the one above. The router must outlive the view.
    LibrariesView(functions::ChangeContext context, redis::ClusterRouter &router,
                  std::optional<redis::ConnectionOptions> release, QWidget *parent = nullptr);
    ~LibrariesView() override;

    // Local directories compared besides the shipped functions/ (also kept in QSettings
    // under "functions/localDirectories").
    void setLocalDirectories(const QStringList &directories);
    QStringList localDirectories() const;

    // Standalone: replicas besides those INFO replication names (a Sentinel session's).
    void setReplicaSource(functions::StandaloneGroup::ReplicaSource source);
    void refresh();
    const QList<functions::LibraryStatus> &libraries() const { return m_status; }

    // Opens the wizard (window-modal, deleted on close) and returns it.
    LoadWizard *startLoad(const QString &path);
    // The same, inspecting on a worker thread (the buttons use it); loadInspected() follows.
    void startLoadInBackground(const QString &path);
    LoadWizard *startRollback(const QString &backupPath,
                              std::optional<functions::RestorePolicy> policy);
    LoadWizard *startDelete(const QString &library);
    // "Bring nodes in line": loads `from`'s copy of `library` onto the drifted primaries.
    LoadWizard *startAlign(const QString &from, const QString &library);

    QTreeWidget *tree() const { return m_tree; }
    LuaCodeView *codeView() const { return m_code; }
    NoticeBanner *banner() const { return m_banner; }
    NodeMatrixView *matrixView() const { return m_matrix; }

signals:
    void refreshed();
    void loadInspected(); // after startLoadInBackground() showed a refusal or opened a wizard

private:
    void display(const QList<redis::LibraryInfo> &libraries);
    void addFunctionRows(QTreeWidgetItem *lib, const redis::LibraryInfo &library);
    void fitColumns();
    void showError(const QString &message);
    void onSelection();
    void chooseFile();
    void chooseBackup();
    void chooseDelete();
    void addDirectory();
    LoadWizard *open(const functions::ChangeSpec &spec, const QStringList &firstNodes = {});
    bool onCluster() const;
    void refreshMatrix();           // every node of a cluster, or of a standalone replication group
    void refreshServer();           // one standalone server
    QString nodesSignature() const; // the topology's nodes and roles
    LoadWizard *openInspected(const QString &path, const functions::InspectedFile &inspected);
    QString selectedLibrary() const;

    functions::ChangeContext m_context;
    redis::ClusterRouter *m_router = nullptr;
    std::unique_ptr<functions::ClusterNodes> m_clusterNodes;
    NodeMatrixView *m_matrix;
    QString m_nodesSeen; // nodesSignature() at the last read
    QString m_groupNote; // why a standalone server's replicas were not checked, if they were not
    functions::LocalCatalog m_catalog;
    QList<functions::LibraryStatus> m_status;
    quint64 m_generation = 0;
    QLabel *m_title;
    NoticeBanner *m_banner;
    QPushButton *m_preview;
    QTreeWidget *m_tree;
    QLabel *m_codeTitle;
    LuaCodeView *m_code;
    QLabel *m_footer;
    QPushButton *m_delete;
    QString m_upgradeFile; // the local file the banner's button previews
};

} // namespace ui
