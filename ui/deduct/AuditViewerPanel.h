// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "inventory/AuditLoader.h"
#include "inventory/AuditLogWatcher.h"
#include "inventory/AuditQuery.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTableView;

namespace inventory {
class AuditLoader;
}

namespace ui {

class AuditRecordDetail;
class NoticeBanner;

// The audit log, newest first, one row per write (an attempt record paired with its outcome;
// an attempt with no outcome is a row of its own, tinted and flagged like an unknown outcome):
// filter by action, by text, and to unknown outcomes only; export what is shown as CSV or
// JSON lines; corrupt or truncated lines (a power loss while appending) are reported above
// the table and skipped. The log only grows: each reload reads what was appended since the
// last one; a long read (the first load of a big log) runs on a worker thread with a progress
// bar and a Cancel button, and the table fills when it is done.
class AuditViewerPanel : public QWidget
{
    Q_OBJECT
public:
    // The order showOrder() narrowed the view to; empty when it shows every order.
    QString orderShown() const { return m_order; }
    explicit AuditViewerPanel(const QString &auditLogPath, QWidget *parent = nullptr);

    void setAuditLogPath(const QString &path); // and reloads
    // The run_id each server the session reads answers with now: rows written on another
    // process at the same address are marked (restart or failover since).
    void setServersNow(const inventory::ServersNow &now);
    QString auditLogPath() const { return m_path; }

    enum class Format { Csv, JsonLines };
    // Writes the records shown (after filtering) to `path`.
    core::Result<int, QString> exportTo(const QString &path, Format format) const;

    inventory::AuditTableModel *model() const { return m_model; }
    AuditRecordDetail *detail() const { return m_detail; }
    QString problemsText() const;
    bool isLoading() const;

    // Reads appended at most this many bytes on the GUI thread; more goes to a worker.
    static constexpr qint64 InlineReadBytes = inventory::AuditLoader::InlineReadBytes;

signals:
    // A load or reload is done (the rows shown are up to date with the file, or the load was
    // cancelled).
    void loaded();

public slots:
    void reload();
    // Shows only the records of this order of this SKU (the order lookup's "Show in audit
    // log"); the other filters are cleared, and "Show all" above the table undoes it.
    void showOrder(const QString &sku, const QString &order);
    void cancelLoad();

private:
    QHBoxLayout *buildFilterBar();
    QHBoxLayout *buildOrderBar();
    QHBoxLayout *buildProgressBar();
    QSplitter *buildTableAndDetail();
    void startBackgroundLoad();
    void loadFinished(bool cancelled);
    void afterRead();
    void sizeColumns();
    void applyFilter();
    void showSelected();
    void exportInteractively(Format format);

    QString m_path;
    inventory::AuditTableModel *m_model;
    QComboBox *m_action;
    QLineEdit *m_text;
    QCheckBox *m_unknownOnly;
    QLabel *m_orderFilter;
    QPushButton *m_clearOrder;
    QLabel *m_status;
    NoticeBanner *m_problems;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    QTableView *m_table;
    AuditRecordDetail *m_detail;
    inventory::AuditLoader *m_loader;
    QString m_sku, m_order; // showOrder()
    QString m_loadNote;     // e.g. a cancelled load: what is shown is not the whole log
    bool m_reloadAgain = false;
    inventory::AuditLogWatcher m_watcher;
    bool m_columnsSized = false;
};

} // namespace ui
