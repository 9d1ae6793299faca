// SPDX-License-Identifier: GPL-3.0-or-later
#include "TableSizing.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>

namespace ui {

void fitHeightToRows(QTableView *view, int minRows, int maxRows)
{
    view->ensurePolished();
    QHeaderView *header = view->horizontalHeader();
    header->ensurePolished();
    const int rows = view->model() ? view->model()->rowCount() : 0;
    const int shown = qBound(minRows, rows, maxRows);
    int height = 2 * view->frameWidth() + (header->isHidden() ? 0 : header->sizeHint().height());
    for (int i = 0; i < shown; ++i)
        height += i < rows ? view->rowHeight(i) : view->verticalHeader()->defaultSectionSize();
    if (view->horizontalScrollBarPolicy() != Qt::ScrollBarAlwaysOff
        && header->length() > view->viewport()->width() && view->isVisible())
        height += view->horizontalScrollBar()->sizeHint().height();
    view->setFixedHeight(height);
}

} // namespace ui
