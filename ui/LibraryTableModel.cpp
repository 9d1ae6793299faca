// SPDX-License-Identifier: GPL-3.0-or-later
#include "LibraryTableModel.h"

namespace ui {

namespace {

// "name [flags], ..." on one line; the tooltip has the descriptions.
QString functionSummary(const redis::LibraryInfo &lib)
{
    QStringList parts;
    for (const auto &f : lib.functions) {
        QString part = f.name;
        if (!f.flags.isEmpty())
            part += QStringLiteral(" [%1]").arg(f.flags.join(QStringLiteral(", ")));
        parts << part;
    }
    return parts.join(QStringLiteral(", "));
}

QString functionDetails(const redis::LibraryInfo &lib)
{
    QStringList lines;
    for (const auto &f : lib.functions) {
        QString line = QStringLiteral("<b>%1</b>").arg(f.name.toHtmlEscaped());
        if (!f.flags.isEmpty())
            line += QStringLiteral(" [%1]").arg(f.flags.join(QStringLiteral(", ")).toHtmlEscaped());
        line += QStringLiteral("<br>")
                + (f.description ? f.description->toHtmlEscaped()
                                 : QStringLiteral("<i>%1</i>").arg(QObject::tr("no description")));
        lines << line;
    }
    return lines.join(QStringLiteral("<br><br>"));
}

} // namespace

LibraryTableModel::LibraryTableModel(QObject *parent)
    : TitledTableModel({QT_TR_NOOP("Library"), QT_TR_NOOP("Functions"), QT_TR_NOOP("Engine"),
                        QT_TR_NOOP("Function names [flags] (hover for descriptions)")},
                       parent)
{}

void LibraryTableModel::setLibraries(const QList<redis::LibraryInfo> &libraries)
{
    beginResetModel();
    m_libraries = libraries;
    endResetModel();
}

int LibraryTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_libraries.size());
}

QVariant LibraryTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto &lib = m_libraries.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Library:
            return lib.name;
        case Functions:
            return int(lib.functions.size());
        case Engine:
            return lib.engine;
        case Names:
            return functionSummary(lib);
        }
        return {};
    case Qt::ToolTipRole:
        return functionDetails(lib);
    case Qt::TextAlignmentRole:
        if (index.column() == Functions)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    }
    return {};
}

QVariant LibraryTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    // Numbered rows, and Qt's answer for any other role.
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    return TitledTableModel::headerData(section, orientation, role);
}

} // namespace ui
