// SPDX-License-Identifier: GPL-3.0-or-later
#include "SshTunnel.h"

#include "SshLog.h"
#include "core/DataPaths.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QStandardPaths>

#include <csignal>
#include <sys/prctl.h>

namespace ssh {

namespace {

SshError makeError(SshFailure kind, const core::Sentence &message, const QString &output = {})
{
    SshError e;
    e.kind = kind;
    e.say(message);
    e.sshOutput = output;
    return e;
}

// The tunnel's words, in SshTunnel's context for lupdate and the translator.
core::Sentence tunnelSaid(const char *source)
{
    return core::Sentence::translated("ssh::SshTunnel", source);
}

// ssh expands %-tokens (and a leading ~) in UserKnownHostsFile and ControlPath.
QString configPath(const QString &path)
{
    return QLatin1Char('"') + QString(path).replace(QLatin1Char('%'), QStringLiteral("%%"))
           + QLatin1Char('"');
}

QString hostForForward(const QString &host)
{
    return host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
}

void diesWithParent(QProcess &process)
{
    process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
}

// Ports outside the kernel's ephemeral range: there an outgoing connection's source port can
// take the port, and a connect to a port nobody listens on can meet itself.
quint16 candidatePort()
{
    int low = 32768, high = 60999;
    QFile range(QStringLiteral("/proc/sys/net/ipv4/ip_local_port_range"));
    if (range.open(QIODevice::ReadOnly)) {
        const QList<QByteArray> f = range.readAll().simplified().split(' ');
        low = f.value(0).toInt() ? f.value(0).toInt() : low;
        high = f.value(1).toInt() ? f.value(1).toInt() : high;
    }
    for (;;) {
        const int port = 10000 + int(QRandomGenerator::global()->bounded(65535 - 10000 + 1));
        if (port < low || port > high)
            return quint16(port);
    }
}

struct Run
{
    bool started = false;
    bool finished = false;
    int exitCode = -1;
    QString output; // stdout and stderr
};

// ssh with nothing on its input, its output and errors read as one, ended with this process.
void startSsh(QProcess &p, const QStringList &args)
{
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.setStandardInputFile(QProcess::nullDevice());
    diesWithParent(p);
    p.start(QStringLiteral("ssh"), args);
}

Run runSsh(const QStringList &args, int timeoutMs)
{
    Run run;
    QProcess p;
    startSsh(p, args);
    run.started = p.waitForStarted(5000);
    if (!run.started)
        return run;
    run.finished = p.waitForFinished(timeoutMs);
    if (!run.finished) {
        p.kill();
        p.waitForFinished(3000);
    }
    run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    run.output = QString::fromUtf8(p.readAll()).replace(QLatin1Char('\r'), QString());
    return run;
}

// Made when needed, not at start-up: the translator is installed later.
SshError notInstalled()
{
    return makeError(
        SshFailure::SshNotInstalled,
        tunnelSaid(QT_TRANSLATE_NOOP("ssh::SshTunnel", "The ssh client is not installed: install "
                                                       "OpenSSH's client (Debian: sudo apt-get "
                                                       "install openssh-client) and try again.")));
}

} // namespace

SshTunnel::SshTunnel(SshTarget target, SshOptions options, QObject *parent)
    : QObject(parent)
    , m_target(std::move(target))
    , m_options(std::move(options))
    , m_knownHosts(m_options.knownHostsFile.isEmpty() ? defaultKnownHostsFile()
                                                      : m_options.knownHostsFile)
{
    qRegisterMetaType<ssh::SshError>();
    m_readyPoll.setInterval(50);
    connect(&m_readyPoll, &QTimer::timeout, this, &SshTunnel::checkReady);
    m_startDeadline.setSingleShot(true);
    connect(&m_startDeadline, &QTimer::timeout, this, [this] {
        if (m_state != State::Starting)
            return;
        SshError e = makeError(SshFailure::BastionTimedOut,
                               tunnelSaid(QT_TR_NOOP("The SSH connection was not up within %1 s: "
                                                     "check the bastion, or raise the connect "
                                                     "timeout."))
                                   .arg(m_startDeadline.interval() / 1000),
                               m_output.join(QLatin1Char('\n')));
        m_state = State::Failed;
        m_master->kill();
        fail(e);
    });
}

SshTunnel::~SshTunnel()
{
    close();
}

QString SshTunnel::controlPath() const
{
    return m_dir.path().isEmpty() ? QString() : m_dir.filePath(QStringLiteral("master.sock"));
}

qint64 SshTunnel::masterPid() const
{
    return m_master ? m_master->processId() : 0;
}

core::Result<bool, SshError> SshTunnel::prepare()
{
    if (QStandardPaths::findExecutable(QStringLiteral("ssh")).isEmpty())
        return notInstalled();
    if (auto made = m_dir.create(); !made)
        return makeError(SshFailure::RuntimeDirectory,
                         tunnelSaid(QT_TR_NOOP("%1: set XDG_RUNTIME_DIR or TMPDIR to a "
                                               "directory of your own."))
                             .arg(made.error()));
    if (m_knownHosts.contains(QLatin1Char('"')) || m_knownHosts.contains(QLatin1Char('\n')))
        return makeError(SshFailure::RuntimeDirectory,
                         tunnelSaid(QT_TR_NOOP("The data directory's path contains '\"' or a "
                                               "line break, which an ssh configuration cannot "
                                               "name: set INVENTORY_DATA_DIR to another "
                                               "directory.")));
    if (auto dir = core::makePrivateDirectory(QFileInfo(m_knownHosts).path()); !dir)
        return makeError(SshFailure::RuntimeDirectory, dir.error());
    QStringList lines{
        QStringLiteral("# Written by Inventory Console for one SSH session, removed when it "
                       "ends. Nothing secret is in it."),
        // A passphrase needs prompts (answered by the askpass helper, never a terminal);
        // password and keyboard-interactive logins stay off either way.
        m_askpass.hasPassphrase() ? QStringLiteral("BatchMode no\nNumberOfPasswordPrompts 1")
                                  : QStringLiteral("BatchMode yes"),
        QStringLiteral("PasswordAuthentication no"),
        QStringLiteral("KbdInteractiveAuthentication no"),
        QStringLiteral("StrictHostKeyChecking yes"),
        QStringLiteral("UserKnownHostsFile %1").arg(configPath(m_knownHosts)),
        QStringLiteral("GlobalKnownHostsFile /dev/null"),
        QStringLiteral("HashKnownHosts no"),
        QStringLiteral("CheckHostIP no"),
        QStringLiteral("VerifyHostKeyDNS no"),
        QStringLiteral("UpdateHostKeys no"),
        QStringLiteral("ConnectTimeout %1").arg(m_options.connectTimeoutSec),
        QStringLiteral("ServerAliveInterval %1").arg(m_options.aliveIntervalSec),
        QStringLiteral("ServerAliveCountMax %1").arg(m_options.aliveCountMax),
        QStringLiteral("ExitOnForwardFailure yes"),
        QStringLiteral("ForwardAgent no"),
        QStringLiteral("ForwardX11 no"),
        QStringLiteral("PermitLocalCommand no"),
        QStringLiteral("RequestTTY no"),
    };
    if (!m_target.identityFile.isEmpty()) {
        lines << QStringLiteral("IdentityFile %1")
                     .arg(configPath(QFileInfo(m_target.identityFile).absoluteFilePath()))
              << QStringLiteral("IdentitiesOnly yes");
    }
    if (m_target.useSshConfig) {
        // Read after the lines above: for each option ssh keeps the first value it reads, so
        // these checks hold whatever the user's configuration says; HostName, User, Port,
        // IdentityFile and ProxyJump come from it.
        lines << QStringLiteral("Include %1")
                     .arg(configPath(QDir::homePath() + QStringLiteral("/.ssh/config")))
              << QStringLiteral("Include /etc/ssh/ssh_config");
    }
    m_config = m_dir.filePath(QStringLiteral("ssh_config"));
    if (auto written =
            core::writePrivateFile(m_config, lines.join(QLatin1Char('\n')).toUtf8() + '\n');
        !written)
        return makeError(SshFailure::RuntimeDirectory, written.error());
    return true;
}

QStringList SshTunnel::destinationArguments(const SshEndpoint &endpoint) const
{
    QStringList args;
    if (endpoint.port)
        args << QStringLiteral("-p") << QString::number(endpoint.port);
    if (!endpoint.user.isEmpty())
        args << QStringLiteral("-l") << endpoint.user;
    // After "--" nothing is read as an option, whatever the host looks like.
    args << QStringLiteral("--") << endpoint.host;
    return args;
}

QStringList SshTunnel::masterArguments() const
{
    QStringList args{QStringLiteral("-F"),
                     m_config,
                     QStringLiteral("-v"),
                     QStringLiteral("-M"),
                     QStringLiteral("-S"),
                     controlPath(),
                     QStringLiteral("-N"),
                     QStringLiteral("-o"),
                     QStringLiteral("ControlPersist=no")};
    if (m_target.jump)
        args << QStringLiteral("-J") << m_target.jump->jumpSpec();
    return args + destinationArguments(m_target.bastion);
}

void SshTunnel::start()
{
    if (m_state == State::Starting || m_state == State::Up)
        return;
    m_error = {};
    m_output.clear();
    m_partial.clear();
    if (auto ready = prepare(); !ready) {
        m_state = State::Failed;
        fail(ready.error());
        return;
    }
    QFile::remove(controlPath());
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("SSH_ASKPASS_REQUIRE"), QStringLiteral("never"));
    if (m_askpass.hasPassphrase()) {
        const QString helper = askpassHelperPath();
        const QString socket = m_dir.filePath(QStringLiteral("askpass.sock"));
        const QString listening = helper.isEmpty() ? QString() : m_askpass.listen(socket);
        if (helper.isEmpty() || !listening.isEmpty()) {
            m_state = State::Failed;
            fail(makeError(SshFailure::Other,
                           helper.isEmpty()
                               ? tunnelSaid(QT_TR_NOOP(
                                   "The passphrase helper inventory-ssh-askpass was not found "
                                   "next to the program or in $INVENTORY_SSH_ASKPASS: "
                                   "reinstall the console, or load the key into ssh-agent "
                                   "(ssh-add)."))
                               : tunnelSaid(QT_TR_NOOP("The passphrase channel could not "
                                                       "listen: %1"))
                                     .arg(listening)));
            return;
        }
        environment.insert(QStringLiteral("SSH_ASKPASS"), helper);
        environment.insert(QStringLiteral("SSH_ASKPASS_REQUIRE"), QStringLiteral("force"));
        environment.insert(QStringLiteral("INVENTORY_SSH_ASKPASS_SOCKET"), socket);
    }
    m_master = std::make_unique<QProcess>();
    m_master->setProcessEnvironment(environment);
    m_master->setProcessChannelMode(QProcess::SeparateChannels);
    m_master->setStandardInputFile(QProcess::nullDevice());
    m_master->setStandardOutputFile(QProcess::nullDevice());
    diesWithParent(*m_master);
    connect(m_master.get(), &QProcess::readyReadStandardError, this, &SshTunnel::readMasterOutput);
    connect(m_master.get(), &QProcess::finished, this, &SshTunnel::masterFinished);
    connect(m_master.get(), &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart && m_state == State::Starting) {
            m_state = State::Failed;
            fail(notInstalled());
        }
    });
    m_state = State::Starting;
    qCInfo(lcSsh) << "opening the SSH master to" << m_target.bastion.display();
    m_master->start(QStringLiteral("ssh"), masterArguments());
    m_readyPoll.start();
    // Every hop may take the connect timeout, then authentication.
    m_startDeadline.start((m_options.connectTimeoutSec * (m_target.jump ? 2 : 1) + 15) * 1000);
}

bool SshTunnel::waitUntilSettled(int timeoutMs)
{
    if (m_state == State::Starting) {
        QEventLoop loop;
        connect(this, &SshTunnel::established, &loop, &QEventLoop::quit);
        connect(this, &SshTunnel::failed, &loop, &QEventLoop::quit);
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return m_state == State::Up;
}

void SshTunnel::readMasterOutput()
{
    m_partial +=
        QString::fromUtf8(m_master->readAllStandardError()).replace(QLatin1Char('\r'), QString());
    const qsizetype end = m_partial.lastIndexOf(QLatin1Char('\n'));
    if (end < 0)
        return;
    m_output += m_partial.left(end).split(QLatin1Char('\n'));
    m_partial = m_partial.mid(end + 1);
    if (m_output.size() > 400)
        m_output = m_output.mid(m_output.size() - 300);
    if (m_state == State::Starting)
        checkReady();
}

void SshTunnel::checkReady()
{
    // ssh makes the control socket under a temporary name and links it into place once the
    // master is authenticated and listening.
    if (m_state != State::Starting || !QFileInfo::exists(controlPath()))
        return;
    m_readyPoll.stop();
    m_startDeadline.stop();
    m_askpass.close();
    m_state = State::Up;
    qCInfo(lcSsh) << "SSH master up to" << m_target.bastion.display() << "pid" << masterPid();
    switchOffNagleOnTheBastion();
    restoreForwards();
    emit established();
}

void SshTunnel::masterFinished()
{
    readMasterOutput();
    if (!m_partial.isEmpty())
        m_output << m_partial;
    m_partial.clear();
    m_readyPoll.stop();
    m_startDeadline.stop();
    const State was = m_state;
    if (was == State::Starting) {
        m_state = State::Failed;
        SshError e =
            classifyStartFailure(m_output, m_target.bastion.knownHostsName(),
                                 m_target.jump ? m_target.jump->knownHostsName() : QString());
        e.hostKey.knownHostsFile = m_knownHosts;
        if (e.kind == SshFailure::AuthenticationRefused && m_askpass.answered() > 0)
            e.add(tunnelSaid(QT_TR_NOOP("ssh was given the identity file's passphrase: check "
                                        "that it is the right one.")));
        if (e.kind == SshFailure::HostKeyChanged) {
            const OffendingLine where = offendingKnownHostsLine(m_output);
            const KeyFingerprint known = fingerprintOf(fileLine(where.file, where.line));
            e.hostKey.knownFingerprint = known.fingerprint;
            e.add(tunnelSaid(QT_TR_NOOP("Trusted before: %1; offered now: %2."))
                      .arg(known.fingerprint.isEmpty() ? tunnelSaid(QT_TR_NOOP("(unreadable)"))
                                                       : core::Sentence::plain(known.fingerprint),
                           e.hostKey.offeredFingerprint));
        }
        fail(e);
    } else if (was == State::Up) {
        m_state = State::Failed;
        m_error =
            makeError(SshFailure::TunnelDied,
                      tunnelSaid(QT_TR_NOOP("The SSH tunnel to %1 closed (ssh exited with %2): the "
                                            "bastion went away or ssh was stopped. Commands in "
                                            "flight have an unknown outcome; reconnect to open "
                                            "it again."))
                          .arg(m_target.bastion.display(),
                               m_master->exitStatus() == QProcess::CrashExit
                                   ? tunnelSaid(QT_TR_NOOP("a signal"))
                                   : core::Sentence::plain(QString::number(m_master->exitCode()))),
                      m_output.mid(qMax(0, int(m_output.size()) - 12)).join(QLatin1Char('\n')));
        qCWarning(lcSsh) << "SSH tunnel died:" << m_error.message.english;
        emit died(m_error);
    }
}

void SshTunnel::fail(SshError error)
{
    m_askpass.close();
    m_error = std::move(error);
    qCWarning(lcSsh) << "SSH tunnel failed:" << failureName(m_error.kind)
                     << m_error.message.english;
    emit failed(m_error);
}

core::Result<quint16, SshError> SshTunnel::forward(const QString &host, quint16 port)
{
    if (m_state != State::Up)
        return makeError(SshFailure::ForwardRefused,
                         tunnelSaid(QT_TR_NOOP("The SSH tunnel is not up: open it before "
                                               "forwarding.")));
    if (const core::Sentence why = hostProblemSentence(host); !why.isEmpty() || port == 0)
        return makeError(
            SshFailure::ForwardRefused,
            tunnelSaid(QT_TR_NOOP("Cannot forward to \"%1\" port %2: %3"))
                .arg(host, port, why.isEmpty() ? tunnelSaid(QT_TR_NOOP("the port is 0")) : why));
    const QString key = hostForForward(host) + QLatin1Char(':') + QString::number(port);
    const QMutexLocker lock(&m_forwardLock);
    if (const auto known = m_forwards.constFind(key); known != m_forwards.constEnd())
        return known.value();
    Run last;
    // A port taken between the choice and ssh's bind makes the forward fail: choose again.
    for (int attempt = 0; attempt < 20; ++attempt) {
        const quint16 local = candidatePort();
        last = runSsh(forwardArguments(local, key), 10000);
        if (!last.started)
            return notInstalled();
        if (last.finished && last.exitCode == 0) {
            m_forwards.insert(key, local);
            qCInfo(lcSsh) << "forward 127.0.0.1:" << local << "->" << key;
            return local;
        }
        if (!last.output.contains(QStringLiteral("Port forwarding failed")))
            break;
    }
    return makeError(SshFailure::ForwardRefused,
                     tunnelSaid(QT_TR_NOOP("The SSH master could not forward a local port to "
                                           "%1: %2"))
                         .arg(key, last.output.trimmed()),
                     last.output);
}

QStringList SshTunnel::masterClientArguments(const QStringList &options) const
{
    return QStringList{QStringLiteral("-F"), m_config, QStringLiteral("-S"), controlPath()}
           + options + destinationArguments(m_target.bastion);
}

QStringList SshTunnel::forwardArguments(quint16 local, const QString &key) const
{
    return masterClientArguments({QStringLiteral("-O"), QStringLiteral("forward"),
                                  QStringLiteral("-L"),
                                  QStringLiteral("127.0.0.1:%1:%2").arg(local).arg(key)});
}

void SshTunnel::switchOffNagleOnTheBastion()
{
    // sshd switches Nagle's algorithm off on a connection only once it runs a session there: a
    // connection that only forwards keeps it, and each reply sshd forwards in more than one
    // packet then waits for this side's delayed ACK (40 ms on Linux). A 1M-key scan took 29-43 s
    // through such a tunnel instead of 3 s directly. A session that runs `true` switches it off
    // for the whole connection. A bastion that refuses sessions (or forces a command) leaves
    // the tunnel working, only slower: say so in the log and go on. Nothing waits for it (a
    // slow bastion must not hold the window): forwards work before and after.
    auto *session = new QProcess(this);
    m_bastionSession = session;
    connect(session, &QProcess::finished, this,
            [session](int exitCode, QProcess::ExitStatus status) {
                if (status != QProcess::NormalExit || exitCode != 0)
                    qCInfo(lcSsh) << "the bastion ran no session ("
                                  << QString::fromUtf8(session->readAll()).trimmed()
                                  << "): its forwards may wait for delayed acknowledgements";
                session->deleteLater();
            });
    startSsh(*session, masterClientArguments({QStringLiteral("-T"), QStringLiteral("-o"),
                                              QStringLiteral("ControlMaster=no")})
                           + QStringList{QStringLiteral("true")});
}

void SshTunnel::restoreForwards()
{
    const QMutexLocker lock(&m_forwardLock);
    // Connections made before the tunnel died still point at these ports: the same port leads
    // to the same host:port again, so they reconnect as they would to a server that came back.
    for (auto it = m_forwards.begin(); it != m_forwards.end();) {
        const Run run = runSsh(forwardArguments(it.value(), it.key()), 10000);
        if (run.finished && run.exitCode == 0) {
            ++it;
            continue;
        }
        // Taken meanwhile: its connections are refused there, and say through what.
        qCWarning(lcSsh) << "could not forward 127.0.0.1:" << it.value() << "to" << it.key()
                         << "again:" << run.output.trimmed();
        it = m_forwards.erase(it);
    }
}

void SshTunnel::close()
{
    m_readyPoll.stop();
    m_startDeadline.stop();
    if (m_bastionSession && m_bastionSession->state() != QProcess::NotRunning) {
        m_bastionSession->kill();
        m_bastionSession->waitForFinished(1000);
    }
    if (!m_master)
        return;
    m_state = State::Closed;
    if (m_master->state() != QProcess::NotRunning) {
        if (QFileInfo::exists(controlPath()))
            runSsh(masterClientArguments({QStringLiteral("-O"), QStringLiteral("exit")}), 3000);
        if (!m_master->waitForFinished(3000)) {
            m_master->kill();
            m_master->waitForFinished(3000);
        }
    }
    {
        const QMutexLocker lock(&m_forwardLock);
        m_forwards.clear();
    }
    m_master.reset();
}

core::Result<QByteArray, SshError> SshTunnel::probeHostKey(const SshEndpoint &endpoint,
                                                           bool viaJump)
{
    const QString scratch = m_dir.filePath(QStringLiteral("offered_known_hosts"));
    QFile::remove(scratch);
    // accept-new writes the offered key to the scratch file right after the key exchange;
    // no authentication method is allowed, so nothing logs in.
    QStringList args{QStringLiteral("-F"), m_config,
                     QStringLiteral("-o"), QStringLiteral("StrictHostKeyChecking=accept-new"),
                     QStringLiteral("-o"), QStringLiteral("UserKnownHostsFile=") + scratch,
                     QStringLiteral("-o"), QStringLiteral("PreferredAuthentications=none"),
                     QStringLiteral("-o"), QStringLiteral("ControlPath=none"),
                     QStringLiteral("-N")};
    if (viaJump && m_target.jump)
        args << QStringLiteral("-J") << m_target.jump->jumpSpec();
    const Run run = runSsh(args + destinationArguments(endpoint),
                           (m_options.connectTimeoutSec * 2 + 10) * 1000);
    if (!run.started)
        return notInstalled();
    auto keys = core::readRegularFile(scratch, 1024 * 1024, core::Links::Refuse);
    QFile::remove(scratch);
    if (!keys || keys.value().trimmed().isEmpty()) {
        SshError e = classifyStartFailure(run.output.split(QLatin1Char('\n')),
                                          endpoint.knownHostsName(), QString());
        e.say(tunnelSaid(QT_TR_NOOP("The host key could not be read again: %1")).arg(e.why()));
        return e;
    }
    return keys.value();
}

core::Result<bool, SshError> SshTunnel::trustHostKey(const QString &fingerprint, TrustMode mode)
{
    if (!isSha256Fingerprint(fingerprint))
        return makeError(SshFailure::TrustRefused,
                         tunnelSaid(QT_TR_NOOP("\"%1\" is not a SHA256 fingerprint: copy it "
                                               "whole, as SHA256: and 43 characters."))
                             .arg(fingerprint));
    const bool changed = m_error.kind == SshFailure::HostKeyChanged;
    if (changed && mode != TrustMode::ReplaceChanged)
        return makeError(SshFailure::TrustRefused,
                         tunnelSaid(QT_TR_NOOP("The host key changed since it was trusted; "
                                               "this profile does not allow replacing it. Ask "
                                               "the host's administrator, and remove the old "
                                               "key from %1 by hand if the change is expected."))
                             .arg(m_knownHosts));
    if (m_state == State::Starting || m_state == State::Up)
        return makeError(SshFailure::TrustRefused,
                         tunnelSaid(QT_TR_NOOP("The tunnel is open: its host key is trusted "
                                               "already.")));
    if (auto ready = prepare(); !ready)
        return ready.error();
    const bool jumpKey = m_error.isHostKeyProblem() && m_error.hostKey.onJumpHost && m_target.jump;
    const SshEndpoint endpoint = jumpKey ? *m_target.jump : m_target.bastion;
    auto offered = probeHostKey(endpoint, !jumpKey);
    if (!offered)
        return offered.error();
    for (const QByteArray &line : offered.value().split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        const KeyFingerprint key = fingerprintOf(line);
        if (key.fingerprint != fingerprint) {
            SshError e = makeError(
                SshFailure::TrustRefused,
                tunnelSaid(QT_TR_NOOP("%1 offers the key %2, not %3: nothing was trusted. "
                                      "Check the fingerprint with the host's administrator."))
                    .arg(endpoint.display(),
                         key.fingerprint.isEmpty() ? key.error : key.fingerprint, fingerprint));
            e.hostKey.offeredFingerprint = key.fingerprint;
            e.hostKey.host = QString::fromUtf8(line.trimmed().split(' ').value(0));
            return e;
        }
        const QString host = QString::fromUtf8(line.trimmed().split(' ').value(0));
        if (auto written = appendKnownHost(m_knownHosts, line, changed ? host : QString());
            !written)
            return makeError(SshFailure::RuntimeDirectory, written.error());
        qCInfo(lcSsh) << "trusted the host key of" << host << fingerprint;
        m_error = {};
        return true;
    }
    return makeError(SshFailure::TrustRefused, tunnelSaid(QT_TR_NOOP("The host offered no key.")));
}

} // namespace ssh
