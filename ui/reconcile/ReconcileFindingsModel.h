// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/TitledTableModel.h"
#include "reconcile/Finding.h"

#include <vector>

namespace ui {

// The findings of one run as a table: class, order, SKU, quantity, what the console did
// since (a release, read back), and the core's sentence. Every divergent finding and every
// release is held; in-line findings are held up to a cap and counted beyond it (a million
// orders in line say nothing one by one), so memory stays bounded.
class ReconcileFindingsModel : public core::TitledTableModel
{
    Q_OBJECT
public:
    enum Column {
        ClassColumn,
        OrderColumn,
        SkuColumn,
        QuantityColumn,
        StatusColumn,
        SentenceColumn
    };
    // Sorting the class column puts what needs acting on first.
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int ClassRole = Qt::UserRole + 2; // the FindingClass as an int
    static constexpr qint64 InLineCap = 20000;

    explicit ReconcileFindingsModel(QObject *parent = nullptr);
    void clear();
    void append(const QList<reconcile::Finding> &batch);
    // After a release or a re-check: the row's new class and what was read.
    void setOutcome(int row, reconcile::FindingClass cls, const QString &status,
                    const QString &sentence);

    const reconcile::Finding &finding(int row) const { return m_rows[size_t(row)].finding; }
    QString status(int row) const { return m_rows[size_t(row)].status; }
    qint64 inLineNotListed() const { return m_inLineNotListed; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;

private:
    struct Row
    {
        reconcile::Finding finding;
        QString status; // empty: nothing done since the run
    };
    std::vector<Row> m_rows;
    qint64 m_inLineListed = 0, m_inLineNotListed = 0;
};

// What needs acting on first: divergent classes, then releases, then in line.
int findingRank(const reconcile::Finding &f);
// "Release candidate", "Released, yet committed", ...: one finding's class, in words.
QString findingLabel(const reconcile::Finding &f);

} // namespace ui
