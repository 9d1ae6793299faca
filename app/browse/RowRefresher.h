// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "InventoryLoader.h"

#include <QObject>

namespace browse {

// Re-reads the rows a view shows (their stock keys and receipts) in one pipelined round trip,
// so values and TTLs on screen stay true without rescanning. Replies that arrive after the
// store was cleared for a rescan are dropped.
class RowRefresher : public QObject
{
    Q_OBJECT
public:
    // Neither is owned; both must outlive this object.
    RowRefresher(redis::CommandSender &sender, KeyspaceStore &store, QObject *parent = nullptr);

    // False (and nothing sent) while the previous refresh is still on its way: a slow server
    // gets one refresh at a time, never a growing queue.
    bool refresh(const std::vector<uint32_t> &skus, const std::vector<uint32_t> &receipts);
    bool isBusy() const { return m_busy; }

signals:
    void refreshed();
    void failed(const QString &error);

private:
    void send(PageRequest request, quint64 epoch);

    redis::CommandSender &m_sender;
    KeyspaceStore &m_store;
    InventoryLoader m_loader;
    bool m_busy = false;
};

} // namespace browse
