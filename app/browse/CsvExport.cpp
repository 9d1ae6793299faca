// SPDX-License-Identifier: GPL-3.0-or-later
#include "CsvExport.h"

#include "ModelRoles.h"
#include "core/Csv.h"

#include <QElapsedTimer>
#include <QFileDevice>
#include <QIODevice>
#include <QJsonValue>
#include <QSaveFile>
#include <QTimer>

namespace browse {

namespace {

QByteArray field(const QVariant &v)
{
    QByteArray bytes;
    switch (v.typeId()) {
    case QMetaType::QByteArray:
        bytes = v.toByteArray();
        if (bytes.isEmpty())
            return "\"\""; // an empty value, told apart from no value (an empty cell)
        break;
    case QMetaType::UnknownType:
    case QMetaType::Nullptr: // noExportValue()
        return {};
    default:
        bytes = v.toString().toUtf8();
    }
    return core::csvCell(std::move(bytes));
}

QVariant exportValue(const QAbstractItemModel &m, int row, int column)
{
    const QModelIndex i = m.index(row, column);
    const QVariant v = m.data(i, ExportRole);
    return v.isValid() ? v : m.data(i, Qt::DisplayRole);
}

QString exportName(const QAbstractItemModel &m, int column)
{
    const QVariant v = m.headerData(column, Qt::Horizontal, ExportRole);
    return v.isValid() ? v.toString() : m.headerData(column, Qt::Horizontal).toString();
}

QJsonValue jsonValue(const QVariant &v)
{
    if (v.typeId() == QMetaType::QByteArray) {
        const QByteArray b = v.toByteArray();
        const QString s = QString::fromUtf8(b);
        if (s.toUtf8() == b)
            return s;
        return QJsonObject{{QStringLiteral("base64"), QString::fromLatin1(b.toBase64())}};
    }
    if (!v.isValid())
        return QJsonValue::Null;
    if (v.typeId() == QMetaType::LongLong || v.typeId() == QMetaType::Int
        || v.typeId() == QMetaType::UInt)
        return double(v.toLongLong());
    return QJsonValue::fromVariant(v);
}

} // namespace

QByteArray csvHeader(const QAbstractItemModel &model)
{
    QByteArray line;
    for (int c = 0; c < model.columnCount(); ++c) {
        if (c)
            line += ',';
        line += field(exportName(model, c));
    }
    return line + "\r\n";
}

QByteArray csvRow(const QAbstractItemModel &model, int row)
{
    QByteArray line;
    for (int c = 0; c < model.columnCount(); ++c) {
        if (c)
            line += ',';
        line += field(exportValue(model, row, c));
    }
    return line + "\r\n";
}

bool writeCsv(QIODevice &out, const QAbstractItemModel &model, QString *error)
{
    QByteArray buffer = csvHeader(model);
    const int rows = model.rowCount();
    for (int r = 0; r < rows; ++r) {
        buffer += csvRow(model, r);
        if (buffer.size() > (1 << 16) || r == rows - 1) {
            if (out.write(buffer) != buffer.size()) {
                if (error)
                    *error = out.errorString();
                return false;
            }
            buffer.clear();
        }
    }
    if (rows == 0 && out.write(buffer) != buffer.size()) {
        if (error)
            *error = out.errorString();
        return false;
    }
    return true;
}

QJsonObject jsonRow(const QAbstractItemModel &model, int row)
{
    QJsonObject o;
    for (int c = 0; c < model.columnCount(); ++c)
        o.insert(exportName(model, c), jsonValue(exportValue(model, row, c)));
    return o;
}

CsvExporter::CsvExporter(const QAbstractItemModel &model, QIODevice *device, QObject *parent)
    : QObject(parent)
    , m_model(&model)
    , m_device(device)
{
    m_device->setParent(this);
}

CsvExporter::~CsvExporter() = default;

void CsvExporter::start()
{
    m_rows = m_model->rowCount();
    if (m_device->write(csvHeader(*m_model)) < 0)
        return finish(false, m_device->errorString());
    QTimer::singleShot(0, this, &CsvExporter::slice);
}

void CsvExporter::cancel()
{
    finish(false, tr("cancelled"));
}

void CsvExporter::slice()
{
    if (m_done)
        return;
    if (!m_model || m_model->rowCount() != m_rows)
        return finish(false, tr("the view changed during the export"));
    // About 20 ms of work per turn keeps the window responsive at any size.
    QElapsedTimer t;
    t.start();
    QByteArray buffer;
    while (m_row < m_rows && t.elapsed() < 20) {
        for (int i = 0; i < 256 && m_row < m_rows; ++i)
            buffer += csvRow(*m_model, m_row++);
    }
    if (m_device->write(buffer) != buffer.size())
        return finish(false, m_device->errorString());
    emit progress(m_row, m_rows);
    if (m_row < m_rows) {
        QTimer::singleShot(0, this, &CsvExporter::slice);
        return;
    }
    if (auto *f = qobject_cast<QFileDevice *>(m_device); f && !f->flush())
        return finish(false, f->errorString());
    finish(true, QString());
}

void CsvExporter::finish(bool ok, const QString &error)
{
    if (m_done)
        return;
    m_done = true;
    QString why = error;
    // A QSaveFile only replaces the target when complete: a cancelled export leaves no
    // half-written CSV behind.
    if (auto *save = qobject_cast<QSaveFile *>(m_device)) {
        if (!ok)
            save->cancelWriting();
        if (!save->commit() && ok) {
            ok = false;
            why = save->errorString();
        }
    } else {
        m_device->close();
    }
    emit finished(ok, why);
    deleteLater();
}

} // namespace browse
