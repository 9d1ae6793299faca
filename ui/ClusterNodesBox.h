// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "overview/NodeOverviews.h"

#include <QGroupBox>

class QLabel;
class QTableWidget;

namespace ui {

// The overview's table of a cluster's nodes, one row each: address, role, slot ranges,
// memory used, keys (DBSIZE) and the libraries loaded on it (name and release). It says what
// each node holds; comparing libraries across nodes is the Libraries tab's job. Hidden on a
// standalone server.
class ClusterNodesBox : public QGroupBox
{
    Q_OBJECT
public:
    enum Column { Node, Role, Slots, Memory, Keys, Libraries, ColumnCount };

    explicit ClusterNodesBox(QWidget *parent = nullptr);

    // `seed`: the node the connection names, which the overview's cards describe.
    void setNodes(const QList<overview::NodeOverview> &nodes, const QString &seed);
    QTableWidget *table() const { return m_table; }

    // "inventory_lib_v1 1.2.0 (3f2a9c01b7e4)", one per library, or why it is unknown.
    static QString librariesText(const overview::NodeOverview &node);

private:
    QTableWidget *m_table;
};

} // namespace ui
