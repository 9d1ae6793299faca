// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractItemModel>
#include <QJsonObject>
#include <QObject>
#include <QPointer>

class QIODevice;

namespace browse {

// CSV (RFC 4180) of what a model shows, in its current order and filter. Header names come
// from headerData(ExportRole) (falling back to the display text); cells from
// data(ExportRole): keys and values as their exact bytes (quoted when needed), TTLs in
// milliseconds, times in ISO 8601 UTC. A cell a spreadsheet would run as a formula (one
// beginning with = + - @, a tab or a carriage return, other than a canonical integer such as
// "-5") starts with an added ' (see CsvExport.cpp). As in PostgreSQL's CSV, an empty value is
// written "" and a cell with no value (no such key, or a key of another type: the anomalies
// and kind columns say which) is left empty, so no value is ever mistaken for a state.
QByteArray csvHeader(const QAbstractItemModel &model);
QByteArray csvRow(const QAbstractItemModel &model, int row);
// Writes everything at once (the command line). False, with a reason, on a write error.
bool writeCsv(QIODevice &out, const QAbstractItemModel &model, QString *error = nullptr);

// One row as a JSON object keyed by the export header names; bytes that are not UTF-8 become
// {"base64": "..."} as in the audit log.
QJsonObject jsonRow(const QAbstractItemModel &model, int row);

// The same, a slice of rows per event-loop turn, so exporting a million rows never freezes
// the window. The model must not be reset while it runs (the panel disables rescans).
class CsvExporter : public QObject
{
    Q_OBJECT
public:
    // Takes ownership of the device (opened for writing).
    CsvExporter(const QAbstractItemModel &model, QIODevice *device, QObject *parent = nullptr);
    ~CsvExporter() override;
    void start();
    void cancel();
    int rowsWritten() const { return m_row; }

signals:
    void progress(int rowsWritten, int rowCount);
    void finished(bool ok, const QString &error); // then it deletes itself

private:
    void slice();
    void finish(bool ok, const QString &error);

    QPointer<const QAbstractItemModel> m_model;
    QIODevice *m_device;
    int m_row = 0;
    int m_rows = 0;
    bool m_done = false;
};

} // namespace browse
