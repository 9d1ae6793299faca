// SPDX-License-Identifier: GPL-3.0-or-later
#include "KeyspaceScanner.h"

#include "BrowseLog.h"
#include "redis/ReplyShape.h"
#include "redis/ResultReads.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTimer>

namespace browse {

namespace {
// Why a scan is short, in the window's language (the CLI prints the English).
struct ScanText
{
    Q_DECLARE_TR_FUNCTIONS(browse::KeyspaceScanner)
};
} // namespace

namespace {
// SCAN answers [cursor, [key ...]]; every key is a bulk string.
struct ScanPage
{
    QByteArray cursor;
    QList<QByteArray> keys;
};

redis::Decoded<ScanPage> decodeScanPage(const redis::Reply &r)
{
    // SCAN's own reply shape, as its documentation writes it: the same in every language.
    const core::Sentence pageShape = core::Sentence::plain(QStringLiteral("[cursor, keys]"));
    const auto parts = r.array();
    if (!parts || parts->size() != 2)
        return r.unexpected(pageShape);
    const auto cursor = parts->at(0).string();
    const auto list = parts->at(1).array();
    if (!cursor || !list)
        return r.unexpected(pageShape);
    ScanPage page{*cursor, {}};
    page.keys.reserve(list->size());
    for (const redis::Reply &k : *list) {
        const auto key = k.string();
        if (!key)
            return key.error();
        page.keys.append(*key);
    }
    return page;
}
} // namespace

bool isTransportFailure(const redis::ReplyResult &r)
{
    return !r.ok() && r.error().kind != redis::RedisError::Kind::Server;
}

namespace {

double cursorFraction(const QByteArray &cursor)
{
    bool ok = false;
    quint64 v = cursor.toULongLong(&ok);
    if (!ok)
        return 0;
    quint64 r = 0;
    for (int i = 0; i < 64; ++i, v >>= 1)
        r = (r << 1) | (v & 1);
    return double(r) / 18446744073709551616.0;
}

} // namespace

KeyspaceScanner::KeyspaceScanner(redis::CommandSender &sender, QObject *parent)
    : QObject(parent)
    , m_sender(sender)
{
    // A zero timer, not a queued call: the event loop runs its other timers (a repaint, the
    // window's own clock) between two of its activations.
    m_drain.setInterval(0);
    connect(&m_drain, &QTimer::timeout, this, &KeyspaceScanner::handleOneArrived);
}

qint64 KeyspaceScanner::elapsedMs() const
{
    if (!m_startedMs)
        return 0;
    return (m_running ? nowMs() : m_finishedMs) - m_startedMs;
}

QList<KeyspaceScanner::NodeProgress> KeyspaceScanner::nodeProgress() const
{
    QList<NodeProgress> out;
    for (const NodeWalk &n : m_nodes)
        out << NodeProgress{n.name,
                            n.keysSeen,
                            n.dbSize,
                            n.fraction,
                            n.cursorDone && !n.scanInFlight && n.requestsInFlight == 0,
                            n.failure};
    return out;
}

void KeyspaceScanner::start(const Options &options, std::shared_ptr<PageHandler> handler)
{
    ++m_generation;
    m_options = options;
    m_options.count = qMax(1, m_options.count);
    m_options.pagesInFlight = qMax(1, m_options.pagesInFlight);
    m_handler = std::move(handler);
    m_running = true;
    m_endDone = false;
    m_stoppedEarly.clear();
    m_nodes.clear();
    for (const redis::ScanNode &n : m_sender.scanNodes()) {
        NodeWalk walk;
        walk.sender = n.sender;
        walk.name = n.name;
        m_nodes << walk;
    }
    m_endRequestsInFlight = 0;
    m_keysSeen = 0;
    m_charged = 0;
    m_dbSize = -1;
    m_fraction = 0;
    m_startedMs = nowMs();
    m_coverage = m_sender.coverageProblem();
    qCDebug(lcBrowse) << "scan" << m_generation << "MATCH" << m_options.match << "COUNT"
                      << m_options.count << "on" << m_nodes.size() << "node(s) of"
                      << m_sender.address();
    const quint64 gen = m_generation;
    if (m_nodes.isEmpty()) {
        // Nothing to walk: finish on the next turn, as a scan with nodes would, never wait.
        QMetaObject::invokeMethod(
            this,
            [this, gen] {
                if (gen == m_generation && m_running)
                    finishEarly(m_coverage.isEmpty() ? ScanText::tr("no node to scan")
                                                     : m_coverage.text);
            },
            Qt::QueuedConnection);
        return;
    }
    if (m_nodes.size() == 1) {
        // One node: DBSIZE and the first SCAN share the round trip, in that order.
        m_nodes[0].sender->send(
            {"DBSIZE"}, this,
            [this, gen](const redis::ReplyResult &r) {
                if (gen != m_generation || !m_running)
                    return;
                if (const auto keys = redis::integerOf(r)) {
                    m_nodes[0].dbSize = m_dbSize = *keys;
                    emit dbSizeKnown(m_dbSize);
                    emit progress(m_keysSeen, m_dbSize);
                }
            },
            m_options.timeoutMs);
        sendScan(0, "0");
        return;
    }
    // Several: every DBSIZE first, so that their sum still comes before the first page.
    auto waiting = std::make_shared<int>(int(m_nodes.size()));
    for (int i = 0; i < m_nodes.size(); ++i)
        m_nodes[i].sender->send(
            {"DBSIZE"}, this,
            [this, gen, i, waiting](const redis::ReplyResult &r) {
                if (gen != m_generation || !m_running)
                    return;
                if (const auto keys = redis::integerOf(r))
                    m_nodes[i].dbSize = *keys;
                if (--*waiting == 0)
                    startWalks(gen);
            },
            m_options.timeoutMs);
}

void KeyspaceScanner::startWalks(quint64 gen)
{
    qint64 total = 0;
    bool known = true;
    for (const NodeWalk &n : m_nodes) {
        known = known && n.dbSize >= 0;
        total += qMax<qint64>(0, n.dbSize);
    }
    if (known) {
        m_dbSize = total;
        emit dbSizeKnown(m_dbSize);
        emit progress(m_keysSeen, m_dbSize);
    }
    for (int i = 0; i < m_nodes.size() && gen == m_generation; ++i)
        sendScan(i, "0");
}

void KeyspaceScanner::cancel()
{
    if (!m_running)
        return;
    ++m_generation; // whatever is on its way is now stale
    m_arrived.clear();
    m_drain.stop();
    m_running = false;
    m_finishedMs = nowMs();
    m_handler.reset();
    qCDebug(lcBrowse) << "scan cancelled after" << m_keysSeen << "keys";
    emit finished(false, QString());
}

void KeyspaceScanner::finishEarly(const QString &why)
{
    if (!m_running || !m_stoppedEarly.isEmpty())
        return;
    m_stoppedEarly = why.isEmpty() ? ScanText::tr("stopped early") : why;
    m_endDone = true; // end-of-scan checks need the whole keyspace: skip them
    for (NodeWalk &n : m_nodes) {
        n.cursorDone = true;
        n.deferredCursor.reset();
    }
    maybeFinish();
}

void KeyspaceScanner::sendScan(int node, const QByteArray &cursor)
{
    redis::Command c{"SCAN", cursor};
    if (!m_options.match.isEmpty())
        c << "MATCH" << m_options.match;
    c << "COUNT" << QByteArray::number(m_options.count);
    if (!m_options.type.isEmpty())
        c << "TYPE" << m_options.type;
    NodeWalk &n = m_nodes[node];
    n.scanInFlight = true;
    m_charged += m_options.count;
    const quint64 gen = m_generation;
    n.sender->send(
        std::move(c), this,
        [this, gen, node](const redis::ReplyResult &r) { onScanReply(gen, node, r); },
        m_options.timeoutMs);
}

void KeyspaceScanner::onScanReply(quint64 gen, int node, const redis::ReplyResult &r)
{
    if (gen != m_generation || !m_running)
        return;
    NodeWalk &n = m_nodes[node];
    n.scanInFlight = false;
    if (!m_stoppedEarly.isEmpty() || !n.failure.isEmpty()) {
        maybeFinish(); // a page asked for before finishEarly(): not wanted any more
        return;
    }
    if (!r.ok()) {
        failNode(node, ScanText::tr("SCAN failed: %1").arg(r.error().readFailure().text));
        return;
    }
    auto page = decodeScanPage(r.value());
    if (!page) {
        failNode(node, ScanText::tr("SCAN answered %1, not [cursor, keys] (an anomaly)")
                           .arg(redis::replyShape(*r).text));
        return;
    }
    const QByteArray cursor = page->cursor;
    QList<QByteArray> keys = std::move(page.value().keys);
    n.keysSeen += keys.size();
    m_keysSeen += keys.size();
    m_charged += qMax<qint64>(0, keys.size() - m_options.count);
    n.cursorDone = cursor == "0";
    n.fraction = n.cursorDone ? 1.0 : cursorFraction(cursor);
    updateFraction();
    // Ask for the next page before this page's data: the server answers SCAN while the
    // client is still sending the batch, and never waits for the client.
    if (!n.cursorDone) {
        n.deferredCursor = cursor;
        continueNode(node);
    }
    if (!keys.isEmpty())
        if (auto request = m_handler->plan(keys))
            sendRequest(node, std::move(*request));
    emit progress(m_keysSeen, m_dbSize);
    maybeFinish();
}

void KeyspaceScanner::sendRequest(int node, PageRequest request)
{
    if (request.commands.isEmpty()) {
        // Nothing to ask: run the continuation now, as if the round trip had happened.
        auto next = request.onReplies({}, nowMs());
        if (next)
            sendRequest(node, std::move(*next));
        return;
    }
    redis::CommandSender *sender = &m_sender;
    if (node == EndOfScan) {
        ++m_endRequestsInFlight;
    } else {
        ++m_nodes[node].requestsInFlight;
        sender = m_nodes[node].sender;
    }
    const quint64 gen = m_generation;
    const qint64 sentMs = nowMs();
    auto commands = std::move(request.commands);
    sender->sendBatch(
        std::move(commands), this,
        [this, gen, node, sentMs,
         req = std::move(request)](const QList<redis::ReplyResult> &replies) {
            m_arrived.push_back({gen, node, req, replies, sentMs});
            if (!m_drain.isActive())
                m_drain.start();
        },
        m_options.timeoutMs);
}

void KeyspaceScanner::handleOneArrived()
{
    if (m_arrived.empty()) {
        m_drain.stop();
        return;
    }
    ArrivedPage page = std::move(m_arrived.front());
    m_arrived.pop_front();
    if (m_arrived.empty())
        m_drain.stop();
    onRequestReplies(page.gen, page.node, page.request, page.replies, page.sentMs);
}

void KeyspaceScanner::onRequestReplies(quint64 gen, int node, const PageRequest &request,
                                       const QList<redis::ReplyResult> &replies, qint64 sentMs)
{
    if (gen != m_generation || !m_running)
        return;
    if (node == EndOfScan)
        --m_endRequestsInFlight;
    else if (--m_nodes[node].requestsInFlight, !m_nodes[node].failure.isEmpty())
        return maybeFinish();
    for (const redis::ReplyResult &r : replies)
        if (isTransportFailure(r)) {
            if (node == EndOfScan)
                fail(r.error().readFailure().text);
            else
                failNode(node, r.error().readFailure().text);
            return;
        }
    QElapsedTimer clock;
    clock.start();
    if (auto next = request.onReplies(replies, sentMs))
        sendRequest(node, std::move(*next));
    if (clock.elapsed() > 20)
        qCDebug(lcBrowse) << "a page of" << replies.size() << "replies took" << clock.elapsed()
                          << "ms to store";
    if (gen != m_generation)
        return; // the handler's callback cancelled or restarted the scan
    emit pageHandled();
    if (node != EndOfScan)
        continueNode(node);
    maybeFinish();
}

qint64 KeyspaceScanner::paceWaitMs() const
{
    if (m_options.keysPerSecond <= 0)
        return 0;
    return m_startedMs + m_charged * 1000 / m_options.keysPerSecond - nowMs();
}

void KeyspaceScanner::continueNode(int node)
{
    NodeWalk &n = m_nodes[node];
    if (!n.deferredCursor || n.scanInFlight || n.paceWaiting
        || n.requestsInFlight >= m_options.pagesInFlight)
        return;
    if (const qint64 wait = paceWaitMs(); wait > 0) {
        n.paceWaiting = true;
        const quint64 gen = m_generation;
        QTimer::singleShot(int(qMin<qint64>(wait, 60000)), Qt::PreciseTimer, this,
                           [this, gen, node] {
                               if (gen != m_generation || !m_running)
                                   return;
                               m_nodes[node].paceWaiting = false;
                               continueNode(node);
                           });
        return;
    }
    const QByteArray cursor = *n.deferredCursor;
    n.deferredCursor.reset();
    sendScan(node, cursor);
}

void KeyspaceScanner::maybeFinish()
{
    if (!m_running || m_endRequestsInFlight > 0)
        return;
    for (const NodeWalk &n : m_nodes)
        if (!n.cursorDone || n.scanInFlight || n.requestsInFlight > 0)
            return;
    const QString failed = failures();
    if (!m_endDone && failed.isEmpty()) {
        if (auto request = m_handler->atEnd()) {
            sendRequest(EndOfScan, std::move(*request));
            if (m_endRequestsInFlight > 0)
                return; // atEnd is asked again when this round trip is handled
            return maybeFinish();
        }
        m_endDone = true;
    }
    m_running = false;
    m_finishedMs = nowMs();
    m_handler.reset();
    const QString why = !failed.isEmpty()           ? failed
                        : !m_stoppedEarly.isEmpty() ? m_stoppedEarly
                                                    : m_coverage.text;
    qCDebug(lcBrowse) << "scan" << m_generation << "done:" << m_keysSeen << "keys in" << elapsedMs()
                      << "ms" << why;
    emit finished(why.isEmpty(), why);
}

QString KeyspaceScanner::failures() const
{
    QStringList parts;
    for (const NodeWalk &n : m_nodes)
        if (!n.failure.isEmpty())
            parts << ScanText::tr("node %1: %2").arg(n.name, n.failure);
    if (parts.isEmpty())
        return {};
    return parts.join(QStringLiteral("; "))
           + ScanText::tr(" (the keys of the other nodes are shown)");
}

void KeyspaceScanner::updateFraction()
{
    double weighted = 0, plain = 0;
    qint64 total = 0;
    for (const NodeWalk &n : m_nodes) {
        plain += n.fraction;
        if (n.dbSize > 0) {
            weighted += n.fraction * double(n.dbSize);
            total += n.dbSize;
        }
    }
    m_fraction =
        total > 0 ? weighted / double(total) : plain / double(qMax(1, int(m_nodes.size())));
}

void KeyspaceScanner::failNode(int node, const QString &why)
{
    if (m_nodes.size() == 1)
        return fail(why);
    NodeWalk &n = m_nodes[node];
    qCWarning(lcBrowse) << "scan of node" << n.name << "failed:" << why;
    n.failure = why;
    n.cursorDone = true;
    n.deferredCursor.reset();
    maybeFinish();
}

void KeyspaceScanner::fail(const QString &why)
{
    ++m_generation;
    m_running = false;
    m_finishedMs = nowMs();
    m_handler.reset();
    qCWarning(lcBrowse) << "scan failed:" << why;
    emit finished(false, why);
}

} // namespace browse
