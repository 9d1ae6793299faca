// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReadinessAudit.h"

#include "ReadinessLog.h"
#include "redis/Blocking.h"
#include "redis/CommandSender.h"

#include <memory>

namespace readiness {

ReadinessAudit::ReadinessAudit(redis::CommandSender &sender, QObject *parent)
    : QObject(parent)
    , m_sender(sender)
{}

const functions::LocalCatalog &ReadinessAudit::catalog()
{
    // The shipped libraries and the previous release the console knows; read once.
    if (!m_catalog) {
        functions::initFunctionResources();
        m_catalog.emplace(
            QStringList{functions::LocalCatalog::shippedDirectory(), QStringLiteral(":/releases")});
        m_catalog->scan();
    }
    return *m_catalog;
}

void ReadinessAudit::start(const AuditRequest &request)
{
    const quint64 generation = ++m_generation;
    m_running = true;
    const QList<redis::ScanNode> nodes = m_sender.scanNodes();
    auto input = std::make_shared<AuditInput>();
    input->settings = request.settings;
    input->keyspace = request.keyspace;
    input->catalog = &catalog();
    input->nodes.resize(nodes.size());
    input->servers.resize(nodes.size());
    auto waiting = std::make_shared<qsizetype>(nodes.size());
    auto done = [this, generation, input, waiting] {
        if (--*waiting > 0 || generation != m_generation)
            return;
        m_running = false;
        if (!input->servers.isEmpty())
            input->server = input->servers.first();
        const QList<Finding> findings = evaluate(*input);
        qCInfo(lcReadiness) << "audit of" << input->server.node << "done:" << findings.size()
                            << "rules, exit" << auditExit(findings);
        emit finished(findings);
    };
    if (nodes.isEmpty()) {
        // A router that knows no primary: every server rule says so.
        *waiting = 1;
        input->server.node = m_sender.address();
        input->server.user = request.user;
        input->server.config.missing = input->server.persistence.missing =
            input->server.replication.missing = input->server.mayLoad.missing =
                tr("no primary is known for %1").arg(m_sender.address());
        done();
        return;
    }
    // Every primary gets the whole batch: its configuration, persistence, replicas and ACLs
    // are its own, and one primary that evicts is enough to lose stock.
    for (qsizetype i = 0; i < nodes.size(); ++i) {
        const QString name = nodes[i].name;
        nodes[i].sender->sendBatch(
            serverCommands(request.user), this,
            [input, done, name, i, user = request.user](const QList<redis::ReplyResult> &r) {
                input->servers[i] = decodeServer(name, user, r, &input->nodes[i]);
                done();
            });
    }
}

QList<Finding> ReadinessAudit::run(redis::CommandSender &sender, const AuditRequest &request)
{
    ReadinessAudit audit(sender);
    return redis::blockUntilReply<QList<Finding>>([&](QObject *context, auto deliver) {
        QObject::connect(&audit, &ReadinessAudit::finished, context, deliver);
        audit.start(request);
    });
}

} // namespace readiness
