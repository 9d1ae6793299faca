// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the tests of library changes through inventory-cli and LibraryChange share: a server
// holding only the 1.0.0 release and no change lock before each test, a local write gate,
// and a data directory of their own for the CLI (INVENTORY_DATA_DIR).
#include "CliRunner.h"
#include "ServerTest.h"
#include "functions/ChangePlan.h"

#include <QDir>

namespace testsupport {

class ChangeCliTest : public ChangeTest
{
protected:
    QTemporaryDir m_data;

    QString dataDir() const { return m_data.filePath(QStringLiteral("data")); }
    QString url() const { return QStringLiteral("redis://%1").arg(m_c->address()); }

    // initTestCase(): the CLI is there and the server started; empty, or why not.
    QString start()
    {
        const QString missing = cliProblem();
        return missing.isEmpty() ? startServer() : missing;
    }

    // init(): the server and the data directory as every test starts; empty, or why not.
    QString reset(const QString &profileName)
    {
        for (const redis::Command &c :
             {redis::Command{"FUNCTION", "FLUSH", "SYNC"},
              redis::Command{"DEL", functions::ChangeLockKey},
              redis::Command{"FUNCTION", "LOAD", previousReleaseSource()}})
            if (const redis::ReplyResult r = m_c->call(c); !r.ok())
                return r.error().toString().english;
        profiles::ConnectionProfile p;
        p.name = profileName;
        p.environment = QStringLiteral("local");
        m_gate = std::make_unique<gate::WriteGate>(*m_c, p);
        QDir(dataDir()).removeRecursively();
        return {};
    }

    // `inventory-cli functions <args>` with this test's data directory; a run that hangs or
    // reads without end is killed after a generous bound, and fails.
    CliRun cli(const QStringList &args)
    {
        CliOptions o;
        o.environment.insert(QStringLiteral("INVENTORY_DATA_DIR"), dataDir());
        o.environment.insert(QStringLiteral("INVENTORY_SECRETS"), QStringLiteral("session"));
        o.timeoutMs = 30000;
        return runCli(QStringList{"functions"} + args, o);
    }

    QByteArray serverCode(const QString &library = QStringLiteral("inventory_lib_v1"))
    {
        const auto list =
            redis::decodeFunctionList(m_c->call({"FUNCTION", "LIST", "WITHCODE"}).value());
        for (const redis::LibraryInfo &l : list.value())
            if (l.name == library)
                return l.code;
        return {};
    }
};

} // namespace testsupport
