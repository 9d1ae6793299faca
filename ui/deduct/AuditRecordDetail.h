// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "inventory/AuditLog.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace ui {

class LuaCodeView;

// The detail pane of the audit viewer: every field of the selected write, each step of a
// script deduction that met NOSCRIPT, and the Lua source a load sent (FUNCTION LOAD, SCRIPT
// LOAD, EVAL) as highlighted code rather than one line of escapes.
class AuditRecordDetail : public QWidget
{
    Q_OBJECT
public:
    explicit AuditRecordDetail(QWidget *parent = nullptr);

    // The steps of one row, earliest first (one step for most rows); none: clears the pane.
    // `serverNote`: what changed at the row's server since (AuditTableModel::ServerChangeRole).
    void show(const QList<inventory::AuditRecord> &steps, const QString &serverNote = {});
    void clear() { show({}); }

    QString text() const;      // what the summary shows
    QString codeShown() const; // the Lua source shown, or empty when the code view is hidden

    // The Lua source a command carries, if any.
    static std::optional<QByteArray> luaSource(const QList<QByteArray> &command);

private:
    void ensureCodeView();

    QPlainTextEdit *m_summary;
    QWidget *m_codeBox;
    QLabel *m_codeTitle;
    LuaCodeView *m_code = nullptr; // made when first needed: QScintilla is slow to start
};

} // namespace ui
