// SPDX-License-Identifier: GPL-3.0-or-later
#include "NodeMatrixView.h"

#include "ui/common/Palette.h"
#include "ui/common/TextStyle.h"

#include "functions/AlignNodes.h"
#include "functions/LibraryVersion.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ui {

namespace {

enum FixedColumn { NodeColumn, RoleColumn, FirstLibrary };

QString kindText(functions::DriftKind kind)
{
    switch (kind) {
    case functions::DriftKind::Missing:
        return NodeMatrixView::tr("missing");
    case functions::DriftKind::DifferentVersion:
        return NodeMatrixView::tr("other version");
    case functions::DriftKind::DifferentCode:
        return NodeMatrixView::tr("other code, same version");
    }
    return {};
}

} // namespace

NodeMatrixView::NodeMatrixView(QWidget *parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
    , m_table(new QTableWidget(this))
    , m_align(new QPushButton(tr("Bring nodes in line…"), this))
{
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_align->setToolTip(tr("Load the selected node's copy of the library (or the copy most "
                           "nodes hold) onto every primary that differs, behind the same "
                           "guards as a load"));
    connect(m_align, &QPushButton::clicked, this,
            [this] { emit alignRequested(alignSource(), alignLibrary()); });
    m_table->setAccessibleName(tr("Libraries by node"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    connect(m_table, &QTableWidget::currentCellChanged, this, &NodeMatrixView::updateAlignButton);
    auto *top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_align, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
}

void NodeMatrixView::setMatrix(const functions::LibraryMatrix &matrix, const QString &note)
{
    // A refresh keeps the cell the user picked (the node to copy from, the library).
    const int oldRow = m_table->currentRow();
    const QString keepNode = oldRow >= 0 && oldRow < m_matrix.nodes().size()
                                 ? m_matrix.nodes().at(oldRow).address
                                 : QString();
    const int oldColumn = m_table->currentColumn();
    const QString keepLibrary =
        oldColumn >= FirstLibrary && oldColumn - FirstLibrary < m_matrix.libraries().size()
            ? m_matrix.libraries().at(oldColumn - FirstLibrary)
            : QString();
    m_matrix = matrix;
    fillTable();
    fitTableToContents();
    const QList<functions::NodeLibraries> &nodes = m_matrix.nodes();
    for (int r = 0; r < nodes.size(); ++r)
        if (!keepNode.isEmpty() && nodes.at(r).address == keepNode)
            m_table->setCurrentCell(r, keepLibrary.isEmpty()
                                           ? NodeColumn
                                           : FirstLibrary
                                                 + int(m_matrix.libraries().indexOf(keepLibrary)));
    showSummary(note);
    updateAlignButton();
}

void NodeMatrixView::fillTable()
{
    const QStringList libraries = m_matrix.libraries();
    const QList<functions::NodeLibraries> &nodes = m_matrix.nodes();
    m_table->clear();
    m_table->setColumnCount(FirstLibrary + int(libraries.size()));
    m_table->setRowCount(int(nodes.size()));
    m_table->setHorizontalHeaderLabels(QStringList{tr("Node"), tr("Role")} + libraries);
    for (int r = 0; r < nodes.size(); ++r) {
        const functions::NodeLibraries &n = nodes.at(r);
        auto *node =
            new QTableWidgetItem(n.primary ? n.address : QStringLiteral("   ↳ %1").arg(n.address));
        node->setData(Qt::UserRole, n.address);
        m_table->setItem(r, NodeColumn, node);
        m_table->setItem(r, RoleColumn,
                         new QTableWidgetItem(n.primary
                                                  ? tr("primary")
                                                  : tr("replica of %1").arg(n.primaryAddress)));
        for (int c = 0; c < libraries.size(); ++c) {
            auto *cell = new QTableWidgetItem;
            m_table->setItem(r, FirstLibrary + c, cell);
            fillLibraryCell(cell, r, libraries.at(c));
        }
    }
}

void NodeMatrixView::fillLibraryCell(QTableWidgetItem *cell, int row, const QString &library) const
{
    const functions::NodeLibraries &n = m_matrix.nodes().at(row);
    if (!n.error.isEmpty()) {
        cell->setText(tr("could not read"));
        cell->setToolTip(n.unreadable(core::Wording::Translated));
        cell->setBackground(Palette::errorTint());
        cell->setForeground(Palette::error());
        return;
    }
    const redis::LibraryInfo *l = n.library(library);
    const auto drift = m_matrix.driftAt(library, row);
    cell->setText(l ? QStringLiteral("%1 · %2").arg(
                      functions::versionLabel(functions::libraryVersion(l->code)),
                      functions::shortFingerprint(functions::codeFingerprint(l->code)))
                    : tr("missing"));
    if (l)
        cell->setData(Qt::UserRole, QString::fromLatin1(functions::codeFingerprint(l->code)));
    if (!drift) {
        cell->setToolTip(tr("in line"));
        return;
    }
    const bool missing = *drift == functions::DriftKind::Missing;
    if (!missing) // "missing" says it already
        cell->setText(QStringLiteral("%1  (%2)").arg(cell->text(), kindText(*drift)));
    cell->setBackground(missing ? Palette::errorTint() : Palette::warningTint());
    cell->setForeground(missing ? Palette::error() : Palette::warning());
    for (const functions::LibraryDrift &d : m_matrix.drift())
        if (d.library == library && d.address == n.address)
            cell->setToolTip(d.detail.text);
}

void NodeMatrixView::fitTableToContents()
{
    m_table->resizeColumnsToContents();
    m_table->resizeRowsToContents();
    // The last library takes the rest of the width (a refresh keeps the table shown, so the
    // header's own stretch would not run again).
    for (int c = 0; c < m_table->columnCount(); ++c)
        m_table->horizontalHeader()->setSectionResizeMode(
            c, c + 1 == m_table->columnCount() ? QHeaderView::Stretch : QHeaderView::Interactive);
    // Every node in sight up to ten rows, so that a drifted replica is not scrolled away.
    int height = m_table->horizontalHeader()->height() + 2 * m_table->frameWidth() + 2;
    for (int r = 0; r < std::min(m_table->rowCount(), 10); ++r)
        height += m_table->rowHeight(r);
    m_table->setMinimumHeight(height);
}

QStringList NodeMatrixView::driftLines(int primaries) const
{
    const QList<functions::NodeLibraries> &nodes = m_matrix.nodes();
    QStringList lines;
    lines << (primaries > 1 ? tr("Drift: FUNCTION LOAD is not propagated between shards, "
                                 "and these nodes differ:")
                            : tr("Drift: these nodes differ:"));
    for (const functions::LibraryDrift &d : m_matrix.drift())
        lines << QStringLiteral("• %1").arg(d.detail.text);
    bool replicaDrifts = false;
    for (int r = 0; r < nodes.size(); ++r)
        replicaDrifts |= !nodes.at(r).primary && !m_matrix.driftedLibraries(r).isEmpty();
    const QStringList apart = m_matrix.replicasApartFromPrimary();
    if (!apart.isEmpty())
        lines << functions::LibraryMatrix::apartFromPrimarySentence(apart,
                                                                    core::Wording::Translated);
    else if (replicaDrifts)
        lines << tr("Replicas follow their primary: bringing the primaries in line brings "
                    "them too.");
    return lines;
}

void NodeMatrixView::showSummary(const QString &note)
{
    const QList<functions::NodeLibraries> &nodes = m_matrix.nodes();
    int primaries = 0;
    for (const functions::NodeLibraries &n : nodes)
        primaries += n.primary ? 1 : 0;
    QStringList lines;
    switch (m_matrix.state()) {
    case functions::LibraryMatrix::State::InLine:
        lines << tr("In line: the %1 nodes (%2, %3) hold the same libraries.")
                     .arg(nodes.size())
                     .arg(primaries == 1 ? tr("1 primary") : tr("%1 primaries").arg(primaries),
                          nodes.size() - primaries == 1
                              ? tr("1 replica")
                              : tr("%1 replicas").arg(nodes.size() - primaries));
        break;
    case functions::LibraryMatrix::State::Drift:
        lines << driftLines(primaries);
        break;
    case functions::LibraryMatrix::State::Unreadable:
        lines << tr("Not every node could be checked:");
        break;
    }
    for (const QString &u : m_matrix.unreadable(core::Wording::Translated))
        lines << QStringLiteral("• %1").arg(u);
    if (!note.isEmpty())
        lines << QStringLiteral("• %1%2").arg(note.left(1).toUpper(), note.mid(1));
    const bool whole = note.isEmpty();
    m_summary->setText(lines.join(QLatin1Char('\n')));
    setTextColour(m_summary, m_matrix.state() == functions::LibraryMatrix::State::InLine
                                 ? (whole ? Palette::ok() : Palette::warning())
                             : m_matrix.state() == functions::LibraryMatrix::State::Drift
                                 ? Palette::warning()
                                 : Palette::error());
}

QString NodeMatrixView::alignLibrary() const
{
    const int c = m_table->currentColumn();
    if (c >= FirstLibrary && c - FirstLibrary < m_matrix.libraries().size())
        return m_matrix.libraries().at(c - FirstLibrary);
    return m_matrix.drift().isEmpty() ? QString() : m_matrix.drift().first().library;
}

QString NodeMatrixView::alignSource() const
{
    const QString library = alignLibrary();
    const int r = m_table->currentRow();
    if (r >= 0 && r < m_matrix.nodes().size() && m_matrix.nodes().at(r).library(library))
        return m_matrix.nodes().at(r).address;
    const int ref = m_matrix.referenceNode(library);
    return ref < 0 ? QString() : m_matrix.nodes().at(ref).address;
}

void NodeMatrixView::updateAlignButton()
{
    const QString library = alignLibrary();
    const QString from = alignSource();
    const QStringList targets = functions::primariesToAlign(m_matrix, from, library);
    m_align->setEnabled(!library.isEmpty() && !targets.isEmpty());
    m_align->setText(targets.isEmpty() ? tr("Bring nodes in line…")
                                       : tr("Bring %1 in line with %2…").arg(library, from));
    m_align->setToolTip(targets.isEmpty()
                            ? tr("Every primary holds the same copy of the selected library")
                            : tr("Loads %1 as %2 holds it onto %3, behind the same guards as a "
                                 "load")
                                  .arg(library, from, targets.join(QStringLiteral(", "))));
}

} // namespace ui
