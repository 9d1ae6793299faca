// SPDX-License-Identifier: GPL-3.0-or-later
#include "RowRefresher.h"

#include "BrowseLog.h"
#include "KeyspaceScanner.h"

namespace browse {

RowRefresher::RowRefresher(redis::CommandSender &sender, KeyspaceStore &store, QObject *parent)
    : QObject(parent)
    , m_sender(sender)
    , m_store(store)
    , m_loader(store)
{}

bool RowRefresher::refresh(const std::vector<uint32_t> &skus, const std::vector<uint32_t> &receipts)
{
    if (m_busy)
        return false;
    auto request = m_loader.reread(skus, receipts);
    if (!request)
        return true;
    m_busy = true;
    send(std::move(*request), m_store.epoch());
    return true;
}

void RowRefresher::send(PageRequest request, quint64 epoch)
{
    const qint64 sentMs = KeyspaceScanner::nowMs();
    auto commands = std::move(request.commands);
    m_sender.sendBatch(
        std::move(commands), this,
        [this, epoch, sentMs, req = std::move(request)](const QList<redis::ReplyResult> &replies) {
            if (epoch != m_store.epoch()) {
                m_busy = false; // rows of a store that has been cleared since
                return;
            }
            for (const auto &r : replies)
                if (isTransportFailure(r)) {
                    m_busy = false;
                    qCDebug(lcBrowse) << "refresh failed:" << r.error().toString().english;
                    emit failed(r.error().toString().text);
                    return;
                }
            if (auto next = req.onReplies(replies, sentMs)) {
                send(std::move(*next), epoch);
                return;
            }
            m_busy = false;
            emit refreshed();
        });
}

} // namespace browse
