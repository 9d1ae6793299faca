#include "KeyspaceScanner.h"

#include "BrowseLog.h"

#include <QElapsedTimer>

namespace browse {

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
{}

qint64 KeyspaceScanner::elapsedMs() const
{
    if (!m_startedMs)
        return 0;
    return (m_running ? nowMs() : m_finishedMs) - m_startedMs;
}

void KeyspaceScanner::start(const Options &options, std::shared_ptr<PageHandler> handler)
{
    ++m_generation;
    m_options = options;
    m_options.count = qMax(1, m_options.count);
    m_options.pagesInFlight = qMax(1, m_options.pagesInFlight);
    m_handler = std::move(handler);
    m_running = true;
    m_scanInFlight = false;
    m_cursorDone = false;
    m_endDone = false;
    m_stoppedEarly.clear();
    m_deferredCursor.reset();
    m_requestsInFlight = 0;
    m_keysSeen = 0;
    m_dbSize = -1;
    m_fraction = 0;
    m_startedMs = nowMs();
    qCDebug(lcBrowse) << "scan" << m_generation << "MATCH" << m_options.match << "COUNT"
                      << m_options.count << "on" << m_sender.address();
    const quint64 gen = m_generation;
    m_sender.send(
        {"DBSIZE"}, this,
        [this, gen](const redis::ReplyResult &r) {
            if (gen != m_generation || !m_running)
                return;
            if (r.ok() && r->isInteger()) {
                m_dbSize = r->toInteger();
                emit dbSizeKnown(m_dbSize);
                emit progress(m_keysSeen, m_dbSize);
            }
        },
        m_options.timeoutMs);
    sendScan("0");
}

void KeyspaceScanner::cancel()
{
    if (!m_running)
        return;
    ++m_generation; // whatever is on its way is now stale
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
    m_stoppedEarly = why.isEmpty() ? QStringLiteral("stopped early") : why;
    m_cursorDone = true;
    m_endDone = true; // end-of-scan checks need the whole keyspace: skip them
    m_deferredCursor.reset();
    if (!m_scanInFlight)
        maybeFinish();
}

void KeyspaceScanner::sendScan(const QByteArray &cursor)
{
    redis::Command c{"SCAN", cursor};
    if (!m_options.match.isEmpty())
        c << "MATCH" << m_options.match;
    c << "COUNT" << QByteArray::number(m_options.count);
    if (!m_options.type.isEmpty())
        c << "TYPE" << m_options.type;
    m_scanInFlight = true;
    const quint64 gen = m_generation;
    m_sender.send(
        std::move(c), this, [this, gen](const redis::ReplyResult &r) { onScanReply(gen, r); },
        m_options.timeoutMs);
}

void KeyspaceScanner::onScanReply(quint64 gen, const redis::ReplyResult &r)
{
    if (gen != m_generation || !m_running)
        return;
    m_scanInFlight = false;
    if (!m_stoppedEarly.isEmpty()) {
        maybeFinish(); // a page asked for before finishEarly(): not wanted any more
        return;
    }
    if (!r.ok()) {
        fail(QStringLiteral("SCAN failed: %1").arg(r.error().readFailure()));
        return;
    }
    if (!r->isArray() || r->size() != 2 || !r->at(0).isString() || !r->at(1).isArray()) {
        fail(QStringLiteral("SCAN answered %1, not [cursor, keys]").arg(r->debugString(80)));
        return;
    }
    const QByteArray cursor = r->at(0).bytes();
    QList<QByteArray> keys;
    keys.reserve(r->at(1).size());
    for (const redis::Reply &k : r->at(1).elements())
        keys.append(k.bytes());
    m_keysSeen += keys.size();
    m_cursorDone = cursor == "0";
    m_fraction = m_cursorDone ? 1.0 : cursorFraction(cursor);
    // Ask for the next page before this page's data: the server answers SCAN while the
    // client is still sending the batch, and never waits for the client.
    if (!m_cursorDone) {
        if (m_requestsInFlight < m_options.pagesInFlight)
            sendScan(cursor);
        else
            m_deferredCursor = cursor;
    }
    if (!keys.isEmpty())
        if (auto request = m_handler->plan(keys))
            sendRequest(std::move(*request));
    emit progress(m_keysSeen, m_dbSize);
    maybeFinish();
}

void KeyspaceScanner::sendRequest(PageRequest request)
{
    if (request.commands.isEmpty()) {
        // Nothing to ask: run the continuation now, as if the round trip had happened.
        auto next = request.onReplies({}, nowMs());
        if (next)
            sendRequest(std::move(*next));
        return;
    }
    ++m_requestsInFlight;
    const quint64 gen = m_generation;
    const qint64 sentMs = nowMs();
    auto commands = std::move(request.commands);
    m_sender.sendBatch(
        std::move(commands), this,
        [this, gen, sentMs, req = std::move(request)](const QList<redis::ReplyResult> &replies) {
            onRequestReplies(gen, req, replies, sentMs);
        },
        m_options.timeoutMs);
}

void KeyspaceScanner::onRequestReplies(quint64 gen, const PageRequest &request,
                                       const QList<redis::ReplyResult> &replies, qint64 sentMs)
{
    if (gen != m_generation || !m_running)
        return;
    --m_requestsInFlight;
    for (const redis::ReplyResult &r : replies)
        if (isTransportFailure(r)) {
            fail(r.error().readFailure());
            return;
        }
    QElapsedTimer clock;
    clock.start();
    if (auto next = request.onReplies(replies, sentMs))
        sendRequest(std::move(*next));
    if (clock.elapsed() > 20)
        qCDebug(lcBrowse) << "a page of" << replies.size() << "replies took" << clock.elapsed()
                          << "ms to store";
    if (gen != m_generation)
        return; // the handler's callback cancelled or restarted the scan
    emit pageHandled();
    if (m_deferredCursor && m_requestsInFlight < m_options.pagesInFlight) {
        const QByteArray cursor = *m_deferredCursor;
        m_deferredCursor.reset();
        sendScan(cursor);
    }
    maybeFinish();
}

void KeyspaceScanner::maybeFinish()
{
    if (!m_running || !m_cursorDone || m_scanInFlight || m_requestsInFlight > 0)
        return;
    if (!m_endDone) {
        if (auto request = m_handler->atEnd()) {
            sendRequest(std::move(*request));
            if (m_requestsInFlight > 0)
                return; // atEnd is asked again when this round trip is handled
            return maybeFinish();
        }
        m_endDone = true;
    }
    m_running = false;
    m_finishedMs = nowMs();
    m_handler.reset();
    qCDebug(lcBrowse) << "scan" << m_generation << "done:" << m_keysSeen << "keys in" << elapsedMs()
                      << "ms" << m_stoppedEarly;
    emit finished(m_stoppedEarly.isEmpty(), m_stoppedEarly);
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
