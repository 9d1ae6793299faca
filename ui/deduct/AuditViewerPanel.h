#pragma once

#include "core/Result.h"
#include "inventory/AuditQuery.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTableView;

namespace ui {

// The audit log, newest first, one row per write (an attempt record paired with its outcome;
// an attempt with no outcome is a row of its own, tinted and flagged like an unknown outcome):
// filter by action, by text, and to unknown outcomes only; export what is shown as CSV or
// JSON lines; corrupt or truncated lines (a power loss while appending) are reported above
// the table and skipped.
class AuditViewerPanel : public QWidget
{
    Q_OBJECT
public:
    explicit AuditViewerPanel(const QString &auditLogPath, QWidget *parent = nullptr);

    void setAuditLogPath(const QString &path); // and reloads
    QString auditLogPath() const { return m_path; }

    enum class Format { Csv, JsonLines };
    // Writes the records shown (after filtering) to `path`.
    core::Result<int, QString> exportTo(const QString &path, Format format) const;

    inventory::AuditTableModel *model() const { return m_model; }
    QString problemsText() const;

public slots:
    void reload();

private:
    void applyFilter();
    void showSelected();
    void exportInteractively(Format format);

    QString m_path;
    inventory::AuditTableModel *m_model;
    QComboBox *m_action;
    QLineEdit *m_text;
    QCheckBox *m_unknownOnly;
    QLabel *m_status;
    QLabel *m_problems;
    QTableView *m_table;
    QPlainTextEdit *m_detail;
};

} // namespace ui
