// SPDX-License-Identifier: GPL-3.0-or-later
#include "ClusterNodesBox.h"

#include "functions/LibraryVersion.h"
#include "ui/common/Palette.h"
#include "ui/common/TableSizing.h"

#include <QHeaderView>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ui {

ClusterNodesBox::ClusterNodesBox(QWidget *parent)
    : QGroupBox(tr("Cluster nodes"), parent)
    , m_table(new QTableWidget(0, ColumnCount, this))
{
    setObjectName(QStringLiteral("clusterNodes"));
    m_table->setObjectName(QStringLiteral("clusterNodesTable"));
    m_table->setHorizontalHeaderLabels({tr("Node"), tr("Role"), tr("Slots"), tr("Memory used"),
                                        tr("Keys"), tr("Libraries (release)")});
    m_table->horizontalHeaderItem(Keys)->setToolTip(tr("DBSIZE of the node"));
    m_table->horizontalHeaderItem(Libraries)->setToolTip(
        tr("FUNCTION LIST of the node: each library's name, its \"-- version:\" "
           "line and the start of its code's SHA-256. Redis does not copy "
           "libraries between primaries: each one is loaded on its own."));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table);
    fitHeightToRows(m_table, 1, 12);
    hide();
}

QString ClusterNodesBox::librariesText(const overview::NodeOverview &node)
{
    if (!node.overview)
        return {};
    const overview::ServerOverview &o = *node.overview;
    if (o.denied(QStringLiteral("FUNCTION LIST")))
        return tr("FUNCTION LIST not allowed for this user");
    if (!o.librariesError.isEmpty())
        return tr("unknown: %1").arg(o.librariesError);
    if (o.libraries.isEmpty())
        return tr("none loaded");
    QStringList parts;
    for (const redis::LibraryInfo &lib : o.libraries) {
        const QString version = functions::libraryVersion(lib.code);
        parts << tr("%1 %2 (%3)")
                     .arg(lib.name, functions::versionLabel(version),
                          functions::shortFingerprint(functions::codeFingerprint(lib.code)));
    }
    return parts.join(QStringLiteral(", "));
}

void ClusterNodesBox::setNodes(const QList<overview::NodeOverview> &nodes, const QString &seed)
{
    setVisible(!nodes.isEmpty());
    if (nodes.isEmpty())
        return;
    int primaries = 0;
    for (const auto &n : nodes)
        primaries += n.node.primary ? 1 : 0;
    setTitle(tr("Cluster nodes: %1 primaries, %2 replicas (the cards above describe %3, the "
                "node this connection names)")
                 .arg(primaries)
                 .arg(nodes.size() - primaries)
                 .arg(seed));
    m_table->setRowCount(int(nodes.size()));
    for (int row = 0; row < nodes.size(); ++row) {
        const overview::NodeOverview &n = nodes.at(row);
        const auto cell = [&](int column, const QString &text, bool number = false) {
            auto *item = new QTableWidgetItem(text);
            if (number)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, column, item);
            return item;
        };
        cell(Node, n.node.address())->setToolTip(tr("Announced as %1").arg(n.node.announced));
        cell(Role, n.roleLabel());
        cell(Slots, n.slotRangesText());
        if (n.overview) {
            cell(Memory, overview::formatBytes(n.overview->usedMemory), true);
            cell(Keys,
                 n.overview->keyCount < 0 ? tr("–") : QLocale().toString(n.overview->keyCount),
                 true);
            cell(Libraries, librariesText(n));
        } else {
            cell(Memory, QString());
            cell(Keys, QString());
            QTableWidgetItem *why = cell(Libraries, tr("not reachable: %1").arg(n.error));
            why->setForeground(Palette::error());
            why->setToolTip(n.error);
            m_table->item(row, Node)->setForeground(Palette::error());
        }
    }
    fitHeightToRows(m_table, 1, 12);
}

} // namespace ui
