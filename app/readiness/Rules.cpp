// SPDX-License-Identifier: GPL-3.0-or-later
#include "Rules.h"

#include <QCoreApplication>

#include <algorithm>

namespace readiness {

namespace {
// Titles and the sentences that name primaries are translated in the Readiness tab; the CLI
// installs no translator and prints the English.
struct RulesText
{
    Q_DECLARE_TR_FUNCTIONS(readiness::Rules)
};
} // namespace

const QList<Rule> &rules()
{
    static const QList<Rule> table{
        {"eviction-policy", QT_TRANSLATE_NOOP("readiness::Rules", "Eviction policy"),
         &checkEviction, false, true},
        {"persistence", QT_TRANSLATE_NOOP("readiness::Rules", "Persistence"), &checkPersistence,
         false, true},
        {"replication", QT_TRANSLATE_NOOP("readiness::Rules", "Replication"), &checkReplication,
         false, true},
        {"busy-reply-threshold", QT_TRANSLATE_NOOP("readiness::Rules", "Busy script threshold"),
         &checkBusyThreshold, false, true},
        {"library-release",
         QT_TRANSLATE_NOOP("readiness::Rules", "Loaded library is a shipped release"),
         &checkLibraryRelease},
        {"deduct-writes", QT_TRANSLATE_NOOP("readiness::Rules", "Deduct functions may write"),
         &checkDeductWrites},
        {"library-drift", QT_TRANSLATE_NOOP("readiness::Rules", "Same library on every primary"),
         &checkLibraryDrift},
        {"load-permission",
         QT_TRANSLATE_NOOP("readiness::Rules", "Calling user cannot load libraries"),
         &checkLoadPermission, false, true},
        {"receipt-ttl",
         QT_TRANSLATE_NOOP("readiness::Rules", "Receipt TTLs cover the retry window"),
         &checkReceiptTtl, true},
        {"receipts-without-ttl", QT_TRANSLATE_NOOP("readiness::Rules", "Receipts without a TTL"),
         &checkReceiptsWithoutTtl, true},
        {"stock-values",
         QT_TRANSLATE_NOOP("readiness::Rules", "Stock values are canonical, not negative"),
         &checkStockValues, true},
    };
    return table;
}

namespace {

// A per-server rule on every primary: the worst verdict, said for the primaries that have it.
// Where every primary agrees, the finding reads as on one server.
void checkEveryServer(const Rule &rule, const AuditInput &in, Finding &out)
{
    QList<Finding> each;
    for (const ServerRead &server : in.servers) {
        AuditInput one = in;
        one.server = server;
        Finding f = out;
        rule.check(one, f);
        each << f;
    }
    qsizetype worst = 0;
    for (qsizetype i = 1; i < each.size(); ++i)
        if (severity(each[i].verdict) > severity(each[worst].verdict))
            worst = i;
    const bool agree = std::all_of(each.begin(), each.end(), [&](const Finding &f) {
        return f.verdict == each[0].verdict && f.why == each[0].why
               && f.evidence == each[0].evidence;
    });
    out = each[worst];
    if (agree) {
        if (each.size() > 1)
            out.why += RulesText::tr(" The same on all %1 primaries.").arg(each.size());
        return;
    }
    // The primaries with the worst verdict for the same reason are named together; one with
    // the same verdict for another reason gets its own sentence after them.
    QStringList at, also;
    for (qsizetype i = 0; i < each.size(); ++i) {
        if (each[i].verdict != out.verdict)
            continue;
        if (each[i].why == out.why)
            at << in.servers[i].node;
        else
            also << RulesText::tr("On %1: %2").arg(in.servers[i].node, each[i].why);
    }
    out.why = RulesText::tr("On %1 (%2 of %3 primaries): %4")
                  .arg(at.join(QStringLiteral(", ")))
                  .arg(at.size())
                  .arg(each.size())
                  .arg(out.why);
    if (!also.isEmpty())
        out.why += QLatin1Char(' ') + also.join(QLatin1Char(' '));
    // The values of the primaries named first, then the others'.
    out.evidence.clear();
    for (const bool named : {true, false})
        for (qsizetype i = 0; i < each.size(); ++i)
            if (at.contains(in.servers[i].node) == named)
                for (const auto &[name, value] : each[i].evidence)
                    out.evidence << qMakePair(in.servers[i].node + QLatin1Char(' ') + name, value);
}

} // namespace

QList<Finding> evaluate(const AuditInput &in)
{
    QList<Finding> out;
    for (const Rule &rule : rules()) {
        if (rule.needsKeyspace && !in.keyspace)
            continue;
        Finding f;
        f.id = QString::fromLatin1(rule.id);
        // Translated here, at call time: the table is built once, maybe before a translator.
        f.title = RulesText::tr(rule.title);
        if (rule.perServer && in.servers.size() > 1)
            checkEveryServer(rule, in, f);
        else
            rule.check(in, f);
        out << f;
    }
    return out;
}

} // namespace readiness
