// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Rules.h"
#include "functions/LocalCatalog.h"

#include <QObject>

namespace redis {
class CommandSender;
}

namespace readiness {

// Who and what one audit is about.
struct AuditRequest
{
    QString user = QStringLiteral("default"); // the calling user whose load permission is asked
    AuditSettings settings;
    // The last scan's facts; empty to leave the receipt and stock rules out.
    std::optional<KeyspaceFacts> keyspace;
};

// Runs the readiness rules against a server: one batch to every primary (CONFIG GET, INFO
// persistence, INFO replication, FUNCTION LIST WITHCODE, ACL DRYRUN), all at once, so an
// audit costs one round trip; on a cluster the configuration rules hold for every primary.
// Asynchronous: finished() comes on this object's thread; start() again drops the previous
// run's late replies.
class ReadinessAudit : public QObject
{
    Q_OBJECT
public:
    // The sender (a client or a cluster router) is not owned and must outlive this object.
    explicit ReadinessAudit(redis::CommandSender &sender, QObject *parent = nullptr);

    void start(const AuditRequest &request);
    bool isRunning() const { return m_running; }

    // The blocking form for the command line and tests (runs a local event loop).
    static QList<Finding> run(redis::CommandSender &sender, const AuditRequest &request);

signals:
    void finished(const QList<readiness::Finding> &findings);

private:
    const functions::LocalCatalog &catalog();

    redis::CommandSender &m_sender;
    std::optional<functions::LocalCatalog> m_catalog;
    quint64 m_generation = 0;
    bool m_running = false;
};

} // namespace readiness
