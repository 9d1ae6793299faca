// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChartCsv.h"

#include "core/Csv.h"

#include <QAbstractBarSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QDateTime>
#include <QXYSeries>

namespace ui {

namespace {

void row(QByteArray &out, const QList<QByteArray> &cells)
{
    for (qsizetype i = 0; i < cells.size(); ++i) {
        if (i)
            out += ',';
        out += core::csvCell(cells.at(i));
    }
    out += "\r\n";
}

QByteArray number(double v)
{
    return v == double(qint64(v)) ? QByteArray::number(qint64(v)) : QByteArray::number(v, 'g', 12);
}

} // namespace

QByteArray chartCsv(const QChart &chart, bool timeAxis)
{
    QByteArray out;
    bool header = false;
    for (QAbstractSeries *s : chart.series()) {
        if (auto *xy = qobject_cast<QXYSeries *>(s)) {
            if (!header) {
                row(out, {"series", timeAxis ? "time_utc" : "x", "value"});
                header = true;
            }
            const QByteArray name = xy->name().toUtf8();
            for (const QPointF &p : xy->points()) {
                const QByteArray x = timeAxis
                                         ? QDateTime::fromMSecsSinceEpoch(qint64(p.x()), Qt::UTC)
                                               .toString(Qt::ISODateWithMs)
                                               .toUtf8()
                                         : number(p.x());
                row(out, {name, x, number(p.y())});
            }
        } else if (auto *bars = qobject_cast<QAbstractBarSeries *>(s)) {
            QStringList categories;
            for (QAbstractAxis *a : chart.axes(Qt::Horizontal | Qt::Vertical, s))
                if (auto *c = qobject_cast<QBarCategoryAxis *>(a))
                    categories = c->categories();
            if (!header) {
                row(out, {"set", "category", "value"});
                header = true;
            }
            for (QBarSet *set : bars->barSets())
                for (int i = 0; i < set->count(); ++i)
                    row(out,
                        {set->label().toUtf8(), categories.value(i).toUtf8(), number(set->at(i))});
        }
    }
    return out;
}

} // namespace ui
