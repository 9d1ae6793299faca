// SPDX-License-Identifier: GPL-3.0-or-later
#include "Isolation.h"
#include "RedisFixture.h"
#include "session/ConnectionProbe.h"

#include <QElapsedTimer>
#include <QTest>

using profiles::ConnectionProfile;
using session::ConnectionProbe;
using session::PermissionCheck;
using session::ProbeFailure;
using testsupport::StandaloneRedis;
using Verdict = PermissionCheck::Verdict;

namespace {
ConnectionProfile profileFor(const redis::ConnectionOptions &o)
{
    ConnectionProfile p;
    p.name = QStringLiteral("probe test");
    p.host = o.host;
    p.port = o.port;
    p.tls = o.tls;
    p.timeoutMs = 3000;
    return p;
}

const PermissionCheck *find(const session::ProbeReport &r, const QString &user, bool load)
{
    for (const auto &c : r.permissions)
        if (c.user == user && c.action.contains(load ? "load" : "inventory_deduct_v1"))
            return &c;
    return nullptr;
}
} // namespace

class TstConnectionProbe : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    std::unique_ptr<redis::RedisClient> m_admin;

    // Probes a host name nobody has, inside the test namespace.
    session::ProbeResult probeUnknownName()
    {
        ConnectionProfile p = profileFor(m_redis.options());
        p.host = QStringLiteral("no-such-host.invalid");
        return ConnectionProbe::run(p, {});
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_admin = m_redis.connect();
        // A business user that may call but not load; a release user that may load only;
        // a user that may not even run ACL DRYRUN.
        QVERIFY(m_admin
                    ->call({"ACL", "SETUSER", "caller", "on", ">callerpw", "~*", "+@all",
                            "-function|load"})
                    .ok());
        QVERIFY(m_admin
                    ->call({"ACL", "SETUSER", "release", "on", ">releasepw", "~*", "+function|load",
                            "+client|setname", "+ping", "+echo"})
                    .ok());
        QVERIFY(m_admin
                    ->call({"ACL", "SETUSER", "limited", "on", ">limitedpw", "~stock:*", "~idem:*",
                            "+@read", "+fcall", "+client|setname", "+ping", "+info", "+acl|whoami",
                            "+echo"})
                    .ok());
    }

    void defaultUser()
    {
        const auto r = ConnectionProbe::run(profileFor(m_redis.options()), {});
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message.english));
        QCOMPARE(r->server.label(), testsupport::serverLabel(*m_admin));
        QCOMPARE(r->server.mode, QStringLiteral("standalone"));
        QCOMPARE(r->roleLabel(), QStringLiteral("primary"));
        QCOMPARE(r->user, QStringLiteral("default"));
        QCOMPARE(r->evictionPolicy, QStringLiteral("noeviction"));
        QVERIFY(!r->evictionCanDropReceipts());
        QVERIFY(r->latencyMs > 0 && r->latencyMs < 1000);
        QCOMPARE(r->address, m_redis.options().address());
        QCOMPARE(r->permissions.size(), 2);
        for (const auto &c : r->permissions)
            QCOMPARE(c.verdict, Verdict::Allowed);
        QVERIFY(!r->rows().isEmpty());
        QCOMPARE(r->toJson().value("version").toString(), r->server.version);
    }

    void callerAndReleaseUsers()
    {
        ConnectionProfile p = profileFor(m_redis.options());
        p.username = QStringLiteral("caller");
        p.releaseUsername = QStringLiteral("release");
        const auto r = ConnectionProbe::run(p, QStringLiteral("callerpw"));
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message.english));
        QCOMPARE(r->user, QStringLiteral("caller"));
        QCOMPARE(r->permissions.size(), 4);
        QCOMPARE(find(*r, "caller", false)->verdict, Verdict::Allowed);
        QCOMPARE(find(*r, "caller", true)->verdict, Verdict::Denied);
        QVERIFY(find(*r, "caller", true)->detail.english.contains(QLatin1String("function|load")));
        QCOMPARE(find(*r, "release", false)->verdict, Verdict::Denied);
        QCOMPARE(find(*r, "release", true)->verdict, Verdict::Allowed);
    }

    // A user name without a password sends no AUTH: the report says whom it really reached.
    // A user name without a password authenticates as that user (a "nopass" user), never
    // silently as the default user.
    void userWithoutPasswordAuthenticatesAsThatUser()
    {
        auto admin = m_redis.connect();
        QVERIFY(admin->call({"ACL", "SETUSER", "caller", "on", "nopass", "~*", "+@all"}).ok());
        ConnectionProfile p = profileFor(m_redis.options());
        p.username = QStringLiteral("caller");
        const auto r = ConnectionProbe::run(p, {});
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message.english));
        QCOMPARE(r->user, QStringLiteral("caller"));
        p.username = QStringLiteral("no-such-user");
        const auto bad = ConnectionProbe::run(p, {});
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().kind, ProbeFailure::Kind::Authentication);
        QVERIFY(admin->call({"ACL", "DELUSER", "caller"}).ok());
    }

    void missingReleaseUserIsDenied()
    {
        ConnectionProfile p = profileFor(m_redis.options());
        p.releaseUsername = QStringLiteral("nobody");
        const auto r = ConnectionProbe::run(p, {});
        QVERIFY(r.ok());
        QCOMPARE(find(*r, "nobody", true)->verdict, Verdict::Denied);
        QVERIFY(find(*r, "nobody", true)->detail.english.contains(QLatin1String("no ACL user")));
    }

    // ACL DRYRUN itself is denied: "unknown", never a guess.
    void dryRunDeniedIsUnknown()
    {
        ConnectionProfile p = profileFor(m_redis.options());
        p.username = QStringLiteral("limited");
        const auto r = ConnectionProbe::run(p, QStringLiteral("limitedpw"));
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message.english));
        QCOMPARE(r->user, QStringLiteral("limited"));
        QCOMPARE(r->permissions.size(), 2);
        for (const auto &c : r->permissions) {
            QCOMPARE(c.verdict, Verdict::Unknown);
            QVERIFY(c.detail.english.contains(QLatin1String("ACL DRYRUN")));
        }
    }

    // With its password, the probe logs in as the release user and asks on that connection
    // what the limited session user cannot ask itself (issue 12).
    void releaseUserLogsInAndAnswers()
    {
        QVERIFY(m_admin
                    ->call({"ACL", "SETUSER", "deployer", "on", ">deployerpw", "~*", "+function",
                            "+acl|dryrun", "+acl|whoami", "+client|setname", "+ping", "+echo"})
                    .ok());
        ConnectionProfile p = profileFor(m_redis.options());
        p.username = QStringLiteral("limited");
        p.releaseUsername = QStringLiteral("deployer");
        auto r = ConnectionProbe::run(p, QStringLiteral("limitedpw"), QStringLiteral("deployerpw"));
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message.english));
        QVERIFY(r->release.tried);
        QVERIFY2(r->release.ok, qPrintable(r->release.failure.english));
        // The limited user's checks, unknown when asked by itself, are answered.
        const PermissionCheck *call = find(*r, "limited", false);
        QVERIFY(call);
        QCOMPARE(call->verdict, Verdict::Allowed);
        QCOMPARE(find(*r, "limited", true)->verdict, Verdict::Denied); // it may not load
        const QStringList actions{"read function libraries (FUNCTION LIST)",
                                  "back up function libraries (FUNCTION DUMP)",
                                  "load function libraries", "roll back a dump (FUNCTION RESTORE)"};
        for (const QString &action : actions) {
            const auto it = std::find_if(r->permissions.begin(), r->permissions.end(),
                                         [&](const PermissionCheck &c) {
                                             return c.user == "deployer" && c.action == action;
                                         });
            QVERIFY2(it != r->permissions.end(), qPrintable(action));
            QCOMPARE(it->verdict, Verdict::Allowed);
        }

        r = ConnectionProbe::run(p, QStringLiteral("limitedpw"), QStringLiteral("wrong"));
        QVERIFY(r.ok()); // the session connects; the release login is what failed
        QVERIFY(!r->release.ok);
        QVERIFY2(
            r->release.failure.english.startsWith(QLatin1String("wrong user name or password")),
            qPrintable(r->release.failure.english));
        QVERIFY(m_admin->call({"ACL", "DELUSER", "deployer"}).ok());
    }

    void evictionWarning()
    {
        StandaloneRedis lru;
        QVERIFY(lru.start({QStringLiteral("--maxmemory-policy"), QStringLiteral("volatile-lru")}));
        const auto r = ConnectionProbe::run(profileFor(lru.options()), {});
        QVERIFY(r.ok());
        QCOMPARE(r->evictionPolicy, QStringLiteral("volatile-lru"));
        QVERIFY(r->evictionCanDropReceipts());
    }

    void refusedPort()
    {
        ConnectionProfile p = profileFor(m_redis.options());
        p.port = demo::LocalRedisServer::freePort();
        const auto r = ConnectionProbe::run(p, {});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, ProbeFailure::Kind::Refused);
        QVERIFY2(r.error().message.english.contains(QLatin1String("port")),
                 qPrintable(r.error().message.english));
    }

    // A name server that answers "no such name": the name is wrong.
    void badHost()
    {
        INVENTORY_REQUIRE_ISOLATION();
        testsupport::NxDomainResolver resolver;
        const QString listening = resolver.start();
        QVERIFY2(listening.isEmpty(), qPrintable(listening));
        const auto r = probeUnknownName();
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, ProbeFailure::Kind::HostNotFound);
        QVERIFY2(r.error().message.english.contains(QLatin1String("check the host name")),
                 qPrintable(r.error().message.english));
        QVERIFY(resolver.answered() > 0); // asked here, not through the machine's resolver
    }

    // No name server can be reached (EAI_AGAIN): nothing is known about the name, and the
    // console must not call it wrong.
    void resolverUnreachable()
    {
        INVENTORY_REQUIRE_ISOLATION();
        const auto r = probeUnknownName();
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, ProbeFailure::Kind::ResolverUnreachable);
        QVERIFY2(
            r.error().message.english.contains(QLatin1String("name server could not be reached")),
            qPrintable(r.error().message.english));
        QVERIFY2(!r.error().message.english.contains(QLatin1String("not found")),
                 qPrintable(r.error().message.english));
        QCOMPARE(session::failureKindName(r.error().kind), QStringLiteral("resolver-unreachable"));
    }

    void wrongPassword()
    {
        ConnectionProfile p = profileFor(m_redis.options());
        p.username = QStringLiteral("caller");
        const auto r = ConnectionProbe::run(p, QStringLiteral("not-the-password"));
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, ProbeFailure::Kind::Authentication);
        QVERIFY2(r.error().message.english.contains(QLatin1String("WRONGPASS")),
                 qPrintable(r.error().message.english));
        QVERIFY(r.error().message.english.contains(QLatin1String("user name and password")));
        QVERIFY(!r.error().message.english.contains(QLatin1String("not-the-password")));
    }

    void passwordRequired()
    {
        StandaloneRedis locked;
        QVERIFY(locked.start({QStringLiteral("--requirepass"), QStringLiteral("lockedpw")}));
        const auto r = ConnectionProbe::run(profileFor(locked.options()), {});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, ProbeFailure::Kind::PasswordRequired);
        const auto ok =
            ConnectionProbe::run(profileFor(locked.options()), QStringLiteral("lockedpw"));
        QVERIFY2(ok.ok(), ok.ok() ? "" : qPrintable(ok.error().message.english));
    }

    void tls()
    {
        testsupport::TlsRedis server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        const auto ok = ConnectionProbe::run(profileFor(server.options()), {});
        QVERIFY2(ok.ok(), ok.ok() ? "" : qPrintable(ok.error().message.english));
        QVERIFY(ok->tls);

        ConnectionProfile wrongCa = profileFor(server.options());
        wrongCa.tls.caFile = server.otherCaFile();
        const auto bad = ConnectionProbe::run(wrongCa, {});
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().kind, ProbeFailure::Kind::Tls);
        QVERIFY2(bad.error().message.english.contains(QLatin1String("CA file")),
                 qPrintable(bad.error().message.english));

        ConnectionProfile plain = profileFor(server.options());
        plain.tls = {};
        const auto noTls = ConnectionProbe::run(plain, {});
        QVERIFY(!noTls.ok());
        QVERIFY2(noTls.error().message.english.contains(QLatin1String("TLS")),
                 qPrintable(noTls.error().message.english));

        // TLS towards a plain-text port: the server never answers the handshake.
        ConnectionProfile tlsToPlain = profileFor(m_redis.options());
        tlsToPlain.tls.enabled = true;
        tlsToPlain.timeoutMs = 800;
        const auto silent = ConnectionProbe::run(tlsToPlain, {});
        QVERIFY(!silent.ok());
        QVERIFY2(silent.error().message.english.contains(QLatin1String("speaks TLS on this port")),
                 qPrintable(silent.error().message.english));
    }

    // The UI calls start() and goes on; a second start drops the first run's result.
    void asynchronousAndRestartable()
    {
        INVENTORY_REQUIRE_ISOLATION();
        ConnectionProbe probe;
        QList<session::ProbeResult> results;
        connect(&probe, &ConnectionProbe::finished, this,
                [&](const session::ProbeResult &r) { results << r; });
        ConnectionProfile unreachable = profileFor(m_redis.options());
        unreachable.host = testsupport::silentHost(); // never answers
        // start() returns long before a connect to it could time out.
        unreachable.timeoutMs = 60000;
        QElapsedTimer t;
        t.start();
        probe.start(unreachable, {});
        QVERIFY2(t.elapsed() < unreachable.timeoutMs / 2, qPrintable(QString::number(t.elapsed())));
        QVERIFY(probe.isRunning());
        QVERIFY(results.isEmpty());
        // Started again, towards the same host with a short timeout, then again towards the
        // server: the second run would end when its connect times out, and a witness probe
        // started after it with twice that timeout ends later still, so once the witness has
        // failed, the dropped run's result would have come.
        unreachable.timeoutMs = 300;
        probe.start(unreachable, {});
        ConnectionProbe witness;
        std::optional<session::ProbeResult> witnessed;
        connect(&witness, &ConnectionProbe::finished, this,
                [&](const session::ProbeResult &r) { witnessed = r; });
        ConnectionProfile later = unreachable;
        later.timeoutMs = 2 * unreachable.timeoutMs;
        witness.start(later, {});
        probe.start(profileFor(m_redis.options()), {});
        QTRY_COMPARE_WITH_TIMEOUT(results.size(), 1, 20000);
        QVERIFY(results.first().ok());
        QTRY_VERIFY_WITH_TIMEOUT(witnessed.has_value(), 20000);
        QVERIFY(!witnessed->ok());
        QCOMPARE(results.size(), 1);
        QVERIFY(!probe.isRunning());
    }
};

QTEST_GUILESS_MAIN(TstConnectionProbe)
#include "tst_connection_probe.moc"
