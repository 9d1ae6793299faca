// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "functions/LibraryMatrix.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;
class QTableWidgetItem;

namespace ui {

// The libraries of a cluster by node: one row per node (each primary followed by its
// replicas), one column per library, each cell the version and SHA-256 the node holds. Drift
// is coloured (ui/common/Palette.h): a library missing on a node in red, another version or other
// code under the same version in amber, a node that could not be read in red with why
// ("could not read FUNCTION LIST on host:port: ..."), never as missing. "Bring nodes in
// line…" asks to load one node's copy onto the drifted primaries.
class NodeMatrixView : public QWidget
{
    Q_OBJECT
public:
    explicit NodeMatrixView(QWidget *parent = nullptr);

    // `note`: what the matrix leaves out and why (a standalone replication group's members
    // that answered as another server, say); it keeps an in-line matrix from reading as whole.
    void setMatrix(const functions::LibraryMatrix &matrix, const QString &note = {});
    const functions::LibraryMatrix &matrix() const { return m_matrix; }

    QTableWidget *table() const { return m_table; }
    QLabel *summary() const { return m_summary; }
    QPushButton *alignButton() const { return m_align; }

    // The node and library "Bring nodes in line…" would copy: the selected cell's node when
    // it holds the selected library, else the node most others agree with.
    QString alignSource() const;
    QString alignLibrary() const;

signals:
    void alignRequested(const QString &fromAddress, const QString &library);

private:
    void fillTable();
    void fillLibraryCell(QTableWidgetItem *cell, int row, const QString &library) const;
    void fitTableToContents();
    void showSummary(const QString &note);
    QStringList driftLines(int primaries) const;
    void updateAlignButton();

    functions::LibraryMatrix m_matrix;
    QLabel *m_summary;
    QTableWidget *m_table;
    QPushButton *m_align;
};

} // namespace ui
