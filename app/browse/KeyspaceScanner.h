// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "redis/CommandSender.h"

#include <QDateTime>
#include <QObject>
#include <QTimer>
#include <deque>
#include <functional>
#include <memory>
#include <optional>

namespace browse {

// One round trip's worth of work for a page of keys: the commands go out as one batch, and
// onReplies gets one result per command, in order, with the wall-clock time the batch was
// sent (PTTL + that time is an expiry that is never later than the real one). It may ask
// for one more round trip, e.g. TYPE + HMGET for the keys GET found to be hashes.
struct PageRequest
{
    QList<redis::Command> commands;
    std::function<std::optional<PageRequest>(const QList<redis::ReplyResult> &, qint64 sentMs)>
        onReplies;
};

// What a scan does with the keys SCAN returns. Runs on the scanner's thread.
class PageHandler
{
public:
    virtual ~PageHandler() = default;
    // Commands for one page (nullopt when none of the keys concern this handler).
    virtual std::optional<PageRequest> plan(const QList<QByteArray> &keys) = 0;
    // After the last page has been handled; called again until it returns nullopt, for
    // checks that need the whole keyspace (a stock key no page returned).
    virtual std::optional<PageRequest> atEnd() { return std::nullopt; }
};

// Walks the keyspace with SCAN cursor MATCH COUNT and hands every page to a PageHandler,
// on every node the sender names (CommandSender::scanNodes: one, or each primary of a
// cluster, each with its own cursor and its own pages in flight; a page's commands go to the
// node that returned its keys). A node that fails is reported by name and the other nodes
// carry on.
// whose commands go out as one pipelined batch per page. The next SCAN is sent as soon as
// the previous one answers, so the server always has work queued; at most pagesInFlight
// data batches are outstanding, which bounds memory. Every start() begins a new generation:
// replies of an earlier scan are dropped on arrival, so a rescan never shows stale rows.
// Nothing here blocks: all work runs in callbacks on this object's thread.
class KeyspaceScanner : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QByteArray match; // SCAN MATCH; empty: every key
        QByteArray type;  // SCAN TYPE (Redis 6+); empty: any type
        int count = 1000; // SCAN COUNT: keys the server looks at per page
        int pagesInFlight = 4;
        int timeoutMs = 30000; // per batch
        // A cap on the keys the server walks per second, all nodes together (0: none). Each
        // SCAN is charged COUNT keys when it is sent (the buckets the server walks for it,
        // whether MATCH keeps them or not) and any keys it returned beyond that; the next
        // SCAN waits until the charge is within the cap. A production server's other
        // clients then find it idle most of the time.
        qint64 keysPerSecond = 0;
    };

    // The sender is not owned and must outlive the scanner.
    explicit KeyspaceScanner(redis::CommandSender &sender, QObject *parent = nullptr);

    void start(const Options &options, std::shared_ptr<PageHandler> handler);
    // Stops at once; replies still on their way are dropped. Emits finished(false, {}).
    void cancel();
    // Asks for no more pages but handles those on their way, then emits finished(false, why):
    // a limit was reached, and what was read so far is kept.
    void finishEarly(const QString &why);

    struct NodeProgress
    {
        QString name;
        qint64 keysSeen = 0;
        qint64 dbSize = -1;
        double fraction = 0;
        bool done = false;
        QString failure; // why this node's walk stopped, empty unless it failed
    };

    bool isRunning() const { return m_running; }
    quint64 generation() const { return m_generation; }
    qint64 keysSeen() const { return m_keysSeen; } // as SCAN returned them (may repeat)
    qint64 dbSize() const { return m_dbSize; }     // all nodes; -1 until each DBSIZE answers
    QList<NodeProgress> nodeProgress() const;
    // How much of the keyspace the cursor has walked, 0..1. SCAN visits hash buckets in
    // reverse-binary order, so the bit-reversed cursor over 2^64 is the fraction done; it
    // also counts keys MATCH filtered out, which keysSeen() cannot.
    double fractionDone() const { return m_fraction; }
    qint64 elapsedMs() const;

    static qint64 nowMs() { return QDateTime::currentMSecsSinceEpoch(); }

signals:
    void progress(qint64 keysSeen, qint64 dbSize);
    // DBSIZE answered on every node; it always comes before the first page.
    void dbSizeKnown(qint64 dbSize);
    void pageHandled(); // the handler stored a page: views may look again
    // complete: every page was handled. Otherwise error says why (empty when cancelled).
    void finished(bool complete, const QString &error);

private:
    struct NodeWalk
    {
        redis::CommandSender *sender = nullptr;
        QString name;
        bool scanInFlight = false;
        bool cursorDone = false;
        std::optional<QByteArray> deferredCursor;
        bool paceWaiting = false; // a timer will send deferredCursor's SCAN
        int requestsInFlight = 0;
        qint64 keysSeen = 0;
        qint64 dbSize = -1;
        double fraction = 0;
        QString failure;
    };
    static constexpr int EndOfScan = -1; // requests of atEnd(), sent through the main sender

    void startWalks(quint64 gen);
    void sendScan(int node, const QByteArray &cursor);
    // Sends the node's deferred SCAN when its pages in flight and the rate cap allow it; when
    // only the cap is in the way, a timer asks again.
    void continueNode(int node);
    qint64 paceWaitMs() const;
    void onScanReply(quint64 gen, int node, const redis::ReplyResult &r);
    void sendRequest(int node, PageRequest request);
    void onRequestReplies(quint64 gen, int node, const PageRequest &request,
                          const QList<redis::ReplyResult> &replies, qint64 sentMs);
    void handleOneArrived();
    void maybeFinish();
    // One node cannot go on; with a single node that ends the scan.
    void failNode(int node, const QString &why);
    void fail(const QString &why);
    void updateFraction();
    QString failures() const;

    // Replies that came in, handled one page per event-loop turn (m_drain): pages that arrive
    // together (one socket read, several nodes) would otherwise be stored in one go, and on the
    // GUI thread that turn is a stall the window shows.
    struct ArrivedPage
    {
        quint64 gen;
        int node;
        PageRequest request;
        QList<redis::ReplyResult> replies;
        qint64 sentMs;
    };
    std::deque<ArrivedPage> m_arrived;
    QTimer m_drain{this}; // a child: it moves with the scanner to another thread

    redis::CommandSender &m_sender;
    Options m_options;
    std::shared_ptr<PageHandler> m_handler;
    quint64 m_generation = 0;
    bool m_running = false;
    bool m_endDone = false;
    QString m_stoppedEarly;    // why, when finishEarly() was called
    core::Sentence m_coverage; // the sender's coverageProblem() at the start: never complete
    QList<NodeWalk> m_nodes;
    int m_endRequestsInFlight = 0;
    qint64 m_keysSeen = 0;
    qint64 m_charged = 0; // keys charged against keysPerSecond since m_startedMs
    qint64 m_dbSize = -1;
    double m_fraction = 0;
    qint64 m_startedMs = 0;
    qint64 m_finishedMs = 0;
};

// True when the command never got a server reply (connection lost, timeout, not sent).
bool isTransportFailure(const redis::ReplyResult &r);

} // namespace browse
