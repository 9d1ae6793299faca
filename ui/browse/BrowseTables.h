// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStyledItemDelegate>

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace ui {

// A QTableView set up for a million rows: fixed row height, no vertical header, no
// resize-to-contents (which would measure every row), elided text, sorting by the model.
QTableView *makeBrowseTable(QWidget *parent, const QString &objectName);
// Column widths in characters of the view's font (so they follow the font size).
void setBrowseColumnWidths(QTableView *view, const QList<int> &characters);

// Puts exact bytes on the clipboard: text/plain carries them unchanged (and
// application/octet-stream too), so pasting into redis-cli or a hex editor gives the key as
// stored, even when it is not UTF-8.
void copyBytesToClipboard(const QByteArray &bytes);

// "1 receipt", "2 receipts", the number grouped for the locale (browse::countOf's English),
// with the word translated in the "ui::Count" context: mark both words with
// QT_TRANSLATE_NOOP("ui::Count", …). Only the GUI's text: the CLI and CSV keep countOf.
QString countText(qint64 n, const char *singular, const char *plural);

// Tints rows whose AnomalyRole is non-zero, so damage stands out while scrolling, and cells
// whose ExpiringSoonRole is true in amber (a retry window about to close).
class AnomalyTintDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;
};

// Asks for a file and exports the model as CSV (browse::CsvExporter: exact bytes, but a cell
// that would run as a spreadsheet formula starts with '), a slice per event-loop turn; reports
// to `status` as it goes. Returns at once.
void exportModelCsv(QWidget *parent, const QAbstractItemModel &model, const QString &suggestedName,
                    const std::function<void(const QString &)> &status);

} // namespace ui
