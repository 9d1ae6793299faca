// SPDX-License-Identifier: GPL-3.0-or-later
#include "FindingsModel.h"

#include "ui/common/Palette.h"

#include <QFont>

namespace ui {

namespace {
QColor colour(readiness::Verdict v)
{
    switch (v) {
    case readiness::Verdict::Pass:
        return Palette::ok();
    case readiness::Verdict::Warn:
        return Palette::warning();
    case readiness::Verdict::Fail:
        return Palette::error();
    case readiness::Verdict::CouldNotCheck:
        break;
    }
    return Palette::muted();
}

QColor tint(readiness::Verdict v)
{
    if (v == readiness::Verdict::Fail)
        return Palette::errorTint();
    if (v == readiness::Verdict::Warn)
        return Palette::warningTint();
    return {};
}
} // namespace

void FindingsModel::setFindings(QList<readiness::Finding> findings)
{
    beginResetModel();
    m_findings = std::move(findings);
    endResetModel();
}

FindingsModel::FindingsModel(QObject *parent)
    : TitledTableModel({QT_TR_NOOP("Verdict"), QT_TR_NOOP("Rule"),
                        QT_TR_NOOP("Why, and what to do"), QT_TR_NOOP("Values read")},
                       parent)
{}

int FindingsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_findings.size());
}

QVariant FindingsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const readiness::Finding &f = m_findings.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case VerdictColumn:
            return readiness::verdictLabel(f.verdict);
        case RuleColumn:
            return f.title;
        case WhyColumn:
            return f.why;
        case EvidenceColumn:
            return f.evidenceText();
        }
        break;
    case Qt::ToolTipRole:
        // The rule's id, for scripts that read `inventory-cli audit --json`.
        return QStringLiteral("%1 (%2)").arg(f.title, f.id);
    case Qt::ForegroundRole:
        if (index.column() == VerdictColumn)
            return colour(f.verdict);
        if (index.column() == EvidenceColumn)
            return Palette::muted();
        break;
    case Qt::BackgroundRole:
        if (index.column() == VerdictColumn && tint(f.verdict).isValid())
            return tint(f.verdict);
        break;
    case Qt::FontRole:
        if (index.column() == VerdictColumn) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        break;
    case VerdictRole:
        return int(f.verdict);
    }
    return {};
}

} // namespace ui
