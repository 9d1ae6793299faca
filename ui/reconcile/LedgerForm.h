// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ReconcileJob.h"
#include "core/Result.h"
#include "profiles/ConnectionProfile.h"

#include <QWidget>

class QComboBox;
class QFormLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace ui {

// Where the order ledger is and what to compare: a CSV or JSON-lines file, a SQLite file or a
// PostgreSQL URL (its password typed here, held for the run, and kept only in the keyring when
// the ledger is saved in the profile), the query (shown as it will run before it runs), the
// column and state mappings, and the scope (a SKU glob, a time window over the ledger's time
// column, the grace period). "Save in profile" is shown once offerSave() was called.
class LedgerForm : public QWidget
{
    Q_OBJECT
public:
    enum Kind { FileKind, SqliteKind, PostgresKind };
    explicit LedgerForm(QWidget *parent = nullptr);

    // Fills the form from a ledger as --ledger takes it ("orders.csv", "sqlite:///x.db",
    // "postgresql://u@h/db") and a column mapping ("time=created_at").
    void setLedger(const QString &ledger, const QString &columns = {});
    // The ledger as a profile keeps it (no password), and back.
    profiles::LedgerSettings settings() const;
    void setSettings(const profiles::LedgerSettings &saved);
    bool isPostgres() const { return currentKind() == PostgresKind; }
    QString password() const;
    void setPassword(const QString &password);
    // Shows "Save in profile" for this profile (saveRequested when pressed).
    void offerSave(const QString &profileName);

    // The request for a run, or what is wrong with the fields (nothing runs).
    core::Result<ReconcileRequest, QString> request() const;
    // The query a SQL ledger will run, as it will be sent; empty for a file.
    QString queryPreview() const;

signals:
    void changed();
    void saveRequested();

private:
    Kind currentKind() const;
    void updateKind();
    void browse();
    void previewRows(); // the first rows with this mapping, in a dialog

    QComboBox *m_kind;
    QLineEdit *m_location, *m_password, *m_query, *m_table, *m_columns, *m_states;
    QLineEdit *m_sku, *m_since, *m_until;
    QSpinBox *m_grace;
    QPushButton *m_browse, *m_previewRows, *m_save;
    QLabel *m_preview;
    QFormLayout *m_layout;
    QHBoxLayout *m_queryRow;
};

} // namespace ui
