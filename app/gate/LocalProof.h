// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Wording.h"
#include "profiles/Environment.h"

#include <QByteArray>
#include <QString>

namespace gate {

// Whether the server a connection reaches runs on this machine. A loopback address proves
// nothing (ssh -L, kubectl port-forward and container port maps all listen on 127.0.0.1), so
// Local rests on evidence read after connecting: INFO's process_id names a process here whose
// executable is a redis-server or valkey-server and which owns the listening socket the
// connection reached. Read from /proc (Linux); anywhere else nothing is proven.
struct LocalEvidence
{
    enum class Verdict { Checking, Proven, NotProven };
    Verdict verdict = Verdict::Checking;
    // In words, for the banner, the tooltip and the CLI: "local: redis-server (process 1234,
    // /usr/bin/redis-check-rdb) owns port 6379", "not proven local: ...". The window shows the
    // text; the log, the audit record and a refusal sent on as an error the English.
    core::Sentence reason = core::Sentence::translated(
        "gate::LocalProof",
        QT_TRANSLATE_NOOP("gate::LocalProof", "checking whether the server runs on this machine…"));
    // The server's identity as INFO told it (empty when not read).
    QString runId;
    QString role; // master | slave

    bool proven() const { return verdict == Verdict::Proven; }
    bool checking() const { return verdict == Verdict::Checking; }

    // The console started this server itself (the embedded demo).
    static LocalEvidence startedByConsole(qint64 pid);
    static LocalEvidence notProven(const core::Sentence &why);
};

// Whether a connection to `host` can be proven local: "localhost" or a literal address (the
// listening socket is matched by address); a name cannot be (it may resolve anywhere).
bool canProveLocal(const QString &host);

// The evidence for a connection to host:port, from the reply to `INFO server replication`.
// `procRoot` is "/proc" but for tests.
LocalEvidence proveLocal(const QByteArray &info, const QString &host, quint16 port,
                         const QString &procRoot = QStringLiteral("/proc"));

// The one rule: the label a session acts on. `claimed` is its label (saved, given, or the
// host's default); Local holds only with proof, and a Local claim without it is Production
// (read-only until unlocked). Every other label is the user's word and stands.
profiles::Environment effectiveEnvironment(profiles::Environment claimed,
                                           const LocalEvidence &evidence);

} // namespace gate
