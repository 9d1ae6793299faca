// SPDX-License-Identifier: GPL-3.0-or-later
#include "SshTarget.h"

#include <QFile>
#include <QHostAddress>

#include <sys/stat.h>
#include <unistd.h>

namespace ssh {

static bool isIpv6(const QString &host)
{
    return host.contains(QLatin1Char(':'));
}

static QString hostForSpec(const QString &host)
{
    return isIpv6(host) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
}

QString SshEndpoint::display() const
{
    QString s = user.isEmpty() ? QString() : user + QLatin1Char('@');
    s += port ? hostForSpec(host) + QLatin1Char(':') + QString::number(port) : host;
    return s;
}

QString SshEndpoint::jumpSpec() const
{
    return display();
}

QString SshEndpoint::knownHostsName() const
{
    if (port == 0 || port == 22)
        return host;
    return QLatin1Char('[') + host + QStringLiteral("]:") + QString::number(port);
}

static bool hasControlOrSpace(const QString &s)
{
    for (const QChar c : s)
        if (c.isSpace() || c.category() == QChar::Other_Control
            || c.category() == QChar::Other_Format || c.unicode() == 0x7f)
            return true;
    return false;
}

// Letters, digits, '.', '-', '_': nothing a shell or ssh's %-expansion would read (ssh runs
// a jump host's ProxyCommand through the shell).
static bool isNameCharacter(QChar c)
{
    const ushort u = c.unicode();
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '.'
           || u == '-' || u == '_';
}

namespace {
// The target's words, in one context for lupdate and the translator.
core::Sentence targetSaid(const char *source)
{
    return core::Sentence::translated("ssh::SshTarget", source);
}
} // namespace

static core::Sentence hostSentence(const QString &host)
{
    if (host.isEmpty())
        return targetSaid(QT_TRANSLATE_NOOP("ssh::SshTarget", "the host is empty"));
    if (host.startsWith(QLatin1Char('-')))
        return targetSaid(QT_TRANSLATE_NOOP(
                              "ssh::SshTarget",
                              "the host \"%1\" begins with '-' (ssh would read it as an option)"))
            .arg(host);
    if (hasControlOrSpace(host))
        return targetSaid(QT_TRANSLATE_NOOP("ssh::SshTarget",
                                            "the host contains a space or a control character"));
    if (isIpv6(host)) {
        QHostAddress address;
        if (!address.setAddress(host) || address.protocol() != QAbstractSocket::IPv6Protocol)
            return targetSaid(QT_TRANSLATE_NOOP("ssh::SshTarget", "\"%1\" is not an IPv6 address"))
                .arg(host);
        return {};
    }
    // A host name (or a Host alias of ~/.ssh/config) or an IPv4 address.
    for (const QChar c : host) {
        if (!isNameCharacter(c))
            return targetSaid(QT_TRANSLATE_NOOP(
                                  "ssh::SshTarget",
                                  "the host \"%1\" contains '%2': only letters, digits, '.', "
                                  "'-' and '_' are allowed in a host name"))
                .arg(host, QString(c));
    }
    if (host.size() > 253)
        return targetSaid(
            QT_TRANSLATE_NOOP("ssh::SshTarget", "the host name is longer than 253 characters"));
    return {};
}

static core::Sentence userSentence(const QString &user)
{
    if (user.startsWith(QLatin1Char('-')))
        return targetSaid(QT_TRANSLATE_NOOP(
                              "ssh::SshTarget",
                              "the user \"%1\" begins with '-' (ssh would read it as an option)"))
            .arg(user);
    for (const QChar c : user) {
        if (!isNameCharacter(c))
            return targetSaid(QT_TRANSLATE_NOOP(
                                  "ssh::SshTarget",
                                  "the user name contains '%1': only letters, digits, '.', '-' "
                                  "and '_' are allowed"))
                .arg(c.isPrint() && !c.isSpace()
                         ? core::Sentence::plain(QString(c))
                         : targetSaid(QT_TRANSLATE_NOOP("ssh::SshTarget", "a space or "
                                                                          "control "
                                                                          "character")));
    }
    if (user.size() > 64)
        return targetSaid(
            QT_TRANSLATE_NOOP("ssh::SshTarget", "the user name is longer than 64 characters"));
    return {};
}

static core::Result<SshEndpoint, core::Sentence> endpointOf(const QString &text,
                                                            const core::Sentence &what)
{
    const auto refuse = [&](const core::Sentence &why) {
        return core::err(
            targetSaid(
                QT_TRANSLATE_NOOP("ssh::SshTarget", "%1 \"%2\": %3. Write it as user@host[:port]."))
                .arg(what, text, why));
    };
    if (text.isEmpty())
        return core::err(
            targetSaid(QT_TRANSLATE_NOOP("ssh::SshTarget",
                                         "the %1 is empty: write it as user@host[:port]"))
                .arg(what));
    if (hasControlOrSpace(text))
        return refuse(targetSaid(
            QT_TRANSLATE_NOOP("ssh::SshTarget", "it contains a space or a control character")));
    SshEndpoint e;
    QString rest = text;
    const qsizetype at = rest.lastIndexOf(QLatin1Char('@'));
    if (at >= 0) {
        e.user = rest.left(at);
        rest = rest.mid(at + 1);
        if (e.user.isEmpty())
            return refuse(
                targetSaid(QT_TRANSLATE_NOOP("ssh::SshTarget", "the user before '@' is empty")));
        if (const core::Sentence why = userSentence(e.user); !why.isEmpty())
            return refuse(why);
    }
    QString portText;
    if (rest.startsWith(QLatin1Char('['))) {
        const qsizetype close = rest.indexOf(QLatin1Char(']'));
        if (close < 0)
            return refuse(targetSaid(QT_TRANSLATE_NOOP("ssh::SshTarget", "'[' without ']'")));
        e.host = rest.mid(1, close - 1);
        const QString after = rest.mid(close + 1);
        if (!after.isEmpty()) {
            if (!after.startsWith(QLatin1Char(':')))
                return refuse(targetSaid(
                    QT_TRANSLATE_NOOP("ssh::SshTarget", "only \":port\" may follow ']'")));
            portText = after.mid(1);
            if (portText.isEmpty())
                return refuse(
                    targetSaid(QT_TRANSLATE_NOOP("ssh::SshTarget", "the port after ':' is empty")));
        }
        if (!isIpv6(e.host))
            return refuse(
                targetSaid(QT_TRANSLATE_NOOP("ssh::SshTarget", "brackets are for IPv6 addresses")));
    } else if (rest.count(QLatin1Char(':')) == 1) {
        const qsizetype colon = rest.indexOf(QLatin1Char(':'));
        e.host = rest.left(colon);
        portText = rest.mid(colon + 1);
        if (portText.isEmpty())
            return refuse(
                targetSaid(QT_TRANSLATE_NOOP("ssh::SshTarget", "the port after ':' is empty")));
    } else {
        e.host = rest; // a bare IPv6 address (no port) or a name
    }
    if (const core::Sentence why = hostSentence(e.host); !why.isEmpty())
        return refuse(why);
    if (!portText.isEmpty()) {
        bool digits = portText.size() <= 5;
        for (const QChar c : portText)
            digits = digits && c >= QLatin1Char('0') && c <= QLatin1Char('9');
        const int port = digits ? portText.toInt() : 0;
        if (!digits || port < 1 || port > 65535 || portText.startsWith(QLatin1Char('0')))
            return refuse(
                targetSaid(QT_TRANSLATE_NOOP("ssh::SshTarget",
                                             "the port \"%1\" is not a number from 1 to 65535"))
                    .arg(portText));
        e.port = quint16(port);
    }
    return e;
}

static core::Sentence identitySentence(const QString &path)
{
    if (path.contains(QLatin1Char('\n')) || path.contains(QLatin1Char('\r'))
        || path.contains(QLatin1Char('"')) || path.contains(QLatin1Char('%')))
        return targetSaid(QT_TRANSLATE_NOOP(
            "ssh::SshTarget", "the identity file's name contains a line break, '\"' or '%' "
                              "(ssh's configuration cannot name it): rename or link it"));
    const QByteArray native = QFile::encodeName(path);
    struct stat st = {};
    // stat, not open: opening a FIFO would wait for a writer.
    if (::stat(native.constData(), &st) != 0)
        return targetSaid(
                   QT_TRANSLATE_NOOP("ssh::SshTarget", "the identity file %1 does not exist"))
            .arg(path);
    if (!S_ISREG(st.st_mode))
        return targetSaid(QT_TRANSLATE_NOOP(
                              "ssh::SshTarget",
                              "the identity file %1 is not a regular file (a directory, FIFO or "
                              "device is refused)"))
            .arg(path);
    if (::access(native.constData(), R_OK) != 0)
        return targetSaid(QT_TRANSLATE_NOOP("ssh::SshTarget",
                                            "the identity file %1 cannot be read by this user"))
            .arg(path);
    return {};
}

static core::Result<SshTarget, core::Sentence> targetOf(const SshTargetInput &input)
{
    SshTarget target;
    auto bastion = endpointOf(input.bastion.trimmed(),
                              targetSaid(QT_TRANSLATE_NOOP("ssh::SshTarget", "bastion")));
    if (!bastion)
        return bastion.error();
    target.bastion = bastion.value();
    if (!input.jump.trimmed().isEmpty()) {
        auto jump = endpointOf(input.jump.trimmed(),
                               targetSaid(QT_TRANSLATE_NOOP("ssh::SshTarget", "jump host")));
        if (!jump)
            return jump.error();
        target.jump = jump.value();
    }
    if (!input.identityFile.isEmpty()) {
        if (const core::Sentence why = identitySentence(input.identityFile); !why.isEmpty())
            return why;
        target.identityFile = input.identityFile;
    }
    target.useSshConfig = input.useSshConfig;
    return target;
}

QString hostProblem(const QString &host)
{
    return hostSentence(host).english;
}

core::Sentence hostProblemSentence(const QString &host)
{
    return hostSentence(host);
}

core::Result<SshEndpoint, QString> parseEndpoint(const QString &text, const QString &what,
                                                 core::Wording wording)
{
    auto e = endpointOf(text, core::Sentence::plain(what));
    if (!e)
        return core::err(e.error().in(wording));
    return e.value();
}

core::Result<SshTarget, QString> parseTarget(const SshTargetInput &input, core::Wording wording)
{
    auto t = targetOf(input);
    if (!t)
        return core::err(t.error().in(wording));
    return t.value();
}

} // namespace ssh
