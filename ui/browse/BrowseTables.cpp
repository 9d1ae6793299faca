// SPDX-License-Identifier: GPL-3.0-or-later
#include "BrowseTables.h"

#include "ui/common/Palette.h"

#include "browse/CsvExport.h"
#include "browse/ModelRoles.h"
#include "core/DataPaths.h"

#include <QApplication>
#include <QClipboard>
#include <QCoreApplication>
#include <QFileDialog>
#include <QHeaderView>
#include <QLocale>
#include <QMimeData>
#include <QPointer>
#include <QSaveFile>
#include <QTableView>

namespace ui {

QTableView *makeBrowseTable(QWidget *parent, const QString &objectName)
{
    auto *view = new QTableView(parent);
    view->setObjectName(objectName);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle); // keys differ at both ends; keep both visible
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setSectionsMovable(true);
    view->setItemDelegate(new AnomalyTintDelegate(view));
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    return view;
}

void setBrowseColumnWidths(QTableView *view, const QList<int> &characters)
{
    const int ch = view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    for (qsizetype i = 0; i < characters.size(); ++i)
        view->setColumnWidth(int(i), characters[i] * ch + 16);
}

QString countText(qint64 n, const char *singular, const char *plural)
{
    return QLocale().toString(n) + QLatin1Char(' ')
           + QCoreApplication::translate("ui::Count", n == 1 ? singular : plural);
}

void copyBytesToClipboard(const QByteArray &bytes)
{
    auto *mime = new QMimeData;
    mime->setData(QStringLiteral("text/plain"), bytes);
    mime->setData(QStringLiteral("application/octet-stream"), bytes);
    QApplication::clipboard()->setMimeData(mime);
}

void AnomalyTintDelegate::initStyleOption(QStyleOptionViewItem *option,
                                          const QModelIndex &index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    if (option->state & QStyle::State_Selected)
        return;
    if (index.data(browse::ExpiringSoonRole).toBool())
        option->backgroundBrush = Palette::soonTint();
    else if (index.data(browse::AnomalyRole).toInt() != 0)
        option->backgroundBrush = Palette::errorTint();
}

void exportModelCsv(QWidget *parent, const QAbstractItemModel &model, const QString &suggestedName,
                    const std::function<void(const QString &)> &status)
{
    const QString path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Export as CSV"), suggestedName, QObject::tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    auto *file = new QSaveFile(path);
    if (!file->open(QIODevice::WriteOnly)) {
        status(QObject::tr("Export failed: %1").arg(file->errorString()));
        delete file;
        return;
    }
    if (auto privateFile = core::makeOpenFilePrivate(*file); !privateFile) {
        status(QObject::tr("Export failed: %1").arg(privateFile.error().text));
        file->cancelWriting();
        delete file;
        return;
    }
    auto *exporter = new browse::CsvExporter(model, file, parent);
    QObject::connect(exporter, &browse::CsvExporter::progress, parent,
                     [status](int done, int total) {
                         status(QObject::tr("Exporting: %1 of %2 rows").arg(done).arg(total));
                     });
    QObject::connect(exporter, &browse::CsvExporter::finished, parent,
                     [status, path](bool ok, const QString &error) {
                         status(ok ? QObject::tr("Exported to %1 (cells that would run as "
                                                 "spreadsheet formulas start with ')")
                                         .arg(path)
                                   : QObject::tr("Export failed: %1").arg(error));
                     });
    exporter->start();
}

} // namespace ui
