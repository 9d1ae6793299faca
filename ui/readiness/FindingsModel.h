// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/TitledTableModel.h"
#include "readiness/Finding.h"

namespace ui {

// The readiness findings as a table: verdict, rule, why (the sentence to act on) and the
// values read. Verdicts are coloured from ui/common/Palette.h.
class FindingsModel : public core::TitledTableModel
{
    Q_OBJECT
public:
    enum Column { VerdictColumn, RuleColumn, WhyColumn, EvidenceColumn, ColumnCount };
    static constexpr int VerdictRole = Qt::UserRole + 1; // the Verdict as an int

    explicit FindingsModel(QObject *parent = nullptr);
    void setFindings(QList<readiness::Finding> findings);
    const QList<readiness::Finding> &findings() const { return m_findings; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;

private:
    QList<readiness::Finding> m_findings;
};

} // namespace ui
