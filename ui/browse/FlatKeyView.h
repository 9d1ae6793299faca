// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "TopologyWait.h"
#include "browse/FlatKeyScan.h"
#include "browse/KeyAction.h"
#include "inventory/KeySchema.h"

#include <QWidget>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace ui {

// Every key matching a pattern, whatever its family: key, type, TTL, size, value preview.
// Keys and values are shown escaped and cut; "Copy value" fetches and copies the exact bytes.
class FlatKeyView : public QWidget
{
    Q_OBJECT
public:
    FlatKeyView(redis::CommandSender &reader, inventory::KeySchema schema,
                QWidget *parent = nullptr);

    void scan(const QByteArray &pattern);
    browse::FlatKeyScan &keyScan() { return m_scan; }
    browse::FlatKeyModel &model() { return m_model; }
    QTableView *table() const { return m_table; }
    void tick();
    void setWritable(bool writable, const QString &why);
    // See TopologyWait: a scan asked for before discovery runs once it is known.
    void setTopologyKnown(bool known) { m_topologyWait.setKnown(known); }
    bool isScanning() const { return m_scan.isRunning(); }

signals:
    void actionRequested(const browse::KeyAction &action);
    void status(const QString &message);

private:
    QHBoxLayout *createPatternRow();
    QHBoxLayout *createButtonRow();
    void connectScan();
    void connectActions();
    void copyValue();
    QByteArray selectedKey() const;
    void updateActions();

    redis::CommandSender &m_reader;
    inventory::KeySchema m_schema;
    browse::FlatKeyScan m_scan;
    browse::FlatKeyModel m_model;
    QLineEdit *m_pattern = nullptr;
    QComboBox *m_type = nullptr;
    QPushButton *m_go = nullptr;
    QLabel *m_progress = nullptr;
    QTableView *m_table = nullptr;
    QPushButton *m_copyKey = nullptr, *m_copyValue = nullptr;
    QPushButton *m_setTtl = nullptr, *m_removeTtl = nullptr, *m_delete = nullptr;
    bool m_writable = false;
    QString m_readOnlyWhy;
    TopologyWait m_topologyWait;
};

} // namespace ui
