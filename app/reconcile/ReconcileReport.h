// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ReconcileRun.h"

#include <QJsonArray>
#include <QTextStream>

namespace reconcile {

enum class ReportFormat { Text, Json, Raw };

// What the report says about the run besides the findings.
struct ReportContext
{
    QString ledger; // the ledger's path or URL (no password)
    QString redis;  // the server's address
    Scope scope;
    ReceiptPolicy policy;
    qint64 receiptsScanned = 0;
    qint64 releaseKeysListed = -1; // by the scan; -1: the scan did not note them
    QJsonArray releases;           // --json: what --apply would send, or sent
};

// Renders findings as they come: --raw and --json print each at once (a million in_line lines
// cost no memory); the text groups divergent findings by class, so it holds those (one
// Finding each) and only counts the in-line ones.
class ReconcileReport
{
public:
    ReconcileReport(QTextStream &out, ReportFormat format);
    void begin();
    void add(const Finding &f);
    void end(const RunOutcome &outcome, const ReportContext &about);

private:
    void endText(const RunOutcome &outcome, const ReportContext &about);
    void skuText(const RunOutcome &outcome); // the SKUs whose units differ
    QTextStream &m_out;
    ReportFormat m_format;
    qint64 m_written = 0;
    std::vector<Finding> m_held; // Text: the divergent findings and the releases
};

} // namespace reconcile
