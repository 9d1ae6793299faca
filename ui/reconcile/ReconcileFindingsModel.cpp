// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReconcileFindingsModel.h"

#include "ui/common/Palette.h"

namespace ui {

using reconcile::FindingClass;

int findingRank(const reconcile::Finding &f)
{
    // InLine, ReleaseCandidate, MissingReceipt, QuantityDiffers, Released; a release of a
    // committed order (stock given back for a sold item) comes before the harmless ones.
    static constexpr int rank[] = {5, 0, 1, 2, 4};
    return f.divergent && f.cls == FindingClass::Released ? 3 : rank[size_t(f.cls)];
}

QString findingLabel(const reconcile::Finding &f)
{
    switch (f.cls) {
    case FindingClass::InLine:
        return QObject::tr("In line");
    case FindingClass::ReleaseCandidate:
        return QObject::tr("Release candidate");
    case FindingClass::MissingReceipt:
        return QObject::tr("Missing receipt");
    case FindingClass::QuantityDiffers:
        return QObject::tr("Quantity differs");
    case FindingClass::Released:
        return f.divergent ? QObject::tr("Released, yet committed") : QObject::tr("Released");
    }
    return {};
}

ReconcileFindingsModel::ReconcileFindingsModel(QObject *parent)
    : TitledTableModel({QT_TR_NOOP("Class"), QT_TR_NOOP("Order"), QT_TR_NOOP("SKU"),
                        QT_TR_NOOP("Quantity"), QT_TR_NOOP("Since the run"),
                        QT_TR_NOOP("What happened, and what to do")},
                       parent)
{}

void ReconcileFindingsModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_inLineListed = m_inLineNotListed = 0;
    endResetModel();
}

void ReconcileFindingsModel::append(const QList<reconcile::Finding> &batch)
{
    std::vector<Row> add;
    add.reserve(size_t(batch.size()));
    for (const reconcile::Finding &f : batch) {
        if (f.cls == FindingClass::InLine && m_inLineListed >= InLineCap) {
            ++m_inLineNotListed;
            continue;
        }
        if (f.cls == FindingClass::InLine)
            ++m_inLineListed;
        add.push_back({f, {}});
    }
    if (add.empty())
        return;
    const int first = int(m_rows.size());
    beginInsertRows({}, first, first + int(add.size()) - 1);
    std::move(add.begin(), add.end(), std::back_inserter(m_rows));
    endInsertRows();
}

void ReconcileFindingsModel::setOutcome(int row, FindingClass cls, const QString &status,
                                        const QString &sentence)
{
    Row &r = m_rows[size_t(row)];
    r.finding.cls = cls;
    r.finding.divergent = cls != FindingClass::InLine && cls != FindingClass::Released;
    r.status = status;
    if (!sentence.isEmpty())
        r.finding.sentence = sentence;
    emit dataChanged(index(row, 0), index(row, SentenceColumn));
}

int ReconcileFindingsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

namespace {
QColor classTint(const reconcile::Finding &f)
{
    if (f.cls == FindingClass::ReleaseCandidate || f.cls == FindingClass::MissingReceipt)
        return Palette::errorTint();
    if (f.divergent)
        return Palette::warningTint();
    return {};
}
} // namespace

QVariant ReconcileFindingsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows[size_t(index.row())];
    const reconcile::Finding &f = r.finding;
    const auto text = [&]() -> QVariant {
        switch (index.column()) {
        case ClassColumn:
            return findingLabel(f);
        case OrderColumn:
            return QString::fromUtf8(f.orderId);
        case SkuColumn:
            return QString::fromUtf8(f.sku);
        case QuantityColumn:
            return f.quantity > 0 ? QVariant(f.quantity) : QVariant(tr("not recorded"));
        case StatusColumn:
            return r.status;
        case SentenceColumn:
            return f.sentence;
        }
        return {};
    };
    switch (role) {
    case Qt::DisplayRole:
        return text();
    case Qt::ToolTipRole:
        return index.column() == SentenceColumn || index.column() == StatusColumn ? text()
                                                                                  : QVariant();
    case SortRole:
        if (index.column() == ClassColumn)
            return findingRank(f);
        return index.column() == QuantityColumn ? QVariant(f.quantity) : text();
    case ClassRole:
        return int(f.cls);
    case Qt::BackgroundRole:
        if (const QColor c = classTint(f); c.isValid())
            return c;
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == QuantityColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                : QVariant();
    }
    return {};
}

} // namespace ui
