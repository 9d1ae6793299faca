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

QString hostProblem(const QString &host)
{
    if (host.isEmpty())
        return QStringLiteral("the host is empty");
    if (host.startsWith(QLatin1Char('-')))
        return QStringLiteral("the host \"%1\" begins with '-' (ssh would read it as an option)")
            .arg(host);
    if (hasControlOrSpace(host))
        return QStringLiteral("the host contains a space or a control character");
    if (isIpv6(host)) {
        QHostAddress address;
        if (!address.setAddress(host) || address.protocol() != QAbstractSocket::IPv6Protocol)
            return QStringLiteral("\"%1\" is not an IPv6 address").arg(host);
        return {};
    }
    // A host name (or a Host alias of ~/.ssh/config) or an IPv4 address.
    for (const QChar c : host) {
        if (!isNameCharacter(c))
            return QStringLiteral("the host \"%1\" contains '%2': only letters, digits, '.', "
                                  "'-' and '_' are allowed in a host name")
                .arg(host, QString(c));
    }
    if (host.size() > 253)
        return QStringLiteral("the host name is longer than 253 characters");
    return {};
}

static QString userProblem(const QString &user)
{
    if (user.startsWith(QLatin1Char('-')))
        return QStringLiteral("the user \"%1\" begins with '-' (ssh would read it as an option)")
            .arg(user);
    for (const QChar c : user) {
        if (!isNameCharacter(c))
            return QStringLiteral("the user name contains '%1': only letters, digits, '.', '-' "
                                  "and '_' are allowed")
                .arg(c.isPrint() && !c.isSpace() ? QString(c)
                                                 : QStringLiteral("a space or "
                                                                  "control "
                                                                  "character"));
    }
    if (user.size() > 64)
        return QStringLiteral("the user name is longer than 64 characters");
    return {};
}

core::Result<SshEndpoint, QString> parseEndpoint(const QString &text, const QString &what)
{
    const auto refuse = [&](const QString &why) {
        return core::err(
            QStringLiteral("%1 \"%2\": %3. Write it as user@host[:port].").arg(what, text, why));
    };
    if (text.isEmpty())
        return core::err(QStringLiteral("the %1 is empty: write it as user@host[:port]").arg(what));
    if (hasControlOrSpace(text))
        return refuse(QStringLiteral("it contains a space or a control character"));
    SshEndpoint e;
    QString rest = text;
    const qsizetype at = rest.lastIndexOf(QLatin1Char('@'));
    if (at >= 0) {
        e.user = rest.left(at);
        rest = rest.mid(at + 1);
        if (e.user.isEmpty())
            return refuse(QStringLiteral("the user before '@' is empty"));
        if (const QString why = userProblem(e.user); !why.isEmpty())
            return refuse(why);
    }
    QString portText;
    if (rest.startsWith(QLatin1Char('['))) {
        const qsizetype close = rest.indexOf(QLatin1Char(']'));
        if (close < 0)
            return refuse(QStringLiteral("'[' without ']'"));
        e.host = rest.mid(1, close - 1);
        const QString after = rest.mid(close + 1);
        if (!after.isEmpty()) {
            if (!after.startsWith(QLatin1Char(':')))
                return refuse(QStringLiteral("only \":port\" may follow ']'"));
            portText = after.mid(1);
            if (portText.isEmpty())
                return refuse(QStringLiteral("the port after ':' is empty"));
        }
        if (!isIpv6(e.host))
            return refuse(QStringLiteral("brackets are for IPv6 addresses"));
    } else if (rest.count(QLatin1Char(':')) == 1) {
        const qsizetype colon = rest.indexOf(QLatin1Char(':'));
        e.host = rest.left(colon);
        portText = rest.mid(colon + 1);
        if (portText.isEmpty())
            return refuse(QStringLiteral("the port after ':' is empty"));
    } else {
        e.host = rest; // a bare IPv6 address (no port) or a name
    }
    if (const QString why = hostProblem(e.host); !why.isEmpty())
        return refuse(why);
    if (!portText.isEmpty()) {
        bool digits = portText.size() <= 5;
        for (const QChar c : portText)
            digits = digits && c >= QLatin1Char('0') && c <= QLatin1Char('9');
        const int port = digits ? portText.toInt() : 0;
        if (!digits || port < 1 || port > 65535 || portText.startsWith(QLatin1Char('0')))
            return refuse(
                QStringLiteral("the port \"%1\" is not a number from 1 to 65535").arg(portText));
        e.port = quint16(port);
    }
    return e;
}

static QString identityProblem(const QString &path)
{
    if (path.contains(QLatin1Char('\n')) || path.contains(QLatin1Char('\r'))
        || path.contains(QLatin1Char('"')) || path.contains(QLatin1Char('%')))
        return QStringLiteral("the identity file's name contains a line break, '\"' or '%' "
                              "(ssh's configuration cannot name it): rename or link it");
    const QByteArray native = QFile::encodeName(path);
    struct stat st = {};
    // stat, not open: opening a FIFO would wait for a writer.
    if (::stat(native.constData(), &st) != 0)
        return QStringLiteral("the identity file %1 does not exist").arg(path);
    if (!S_ISREG(st.st_mode))
        return QStringLiteral("the identity file %1 is not a regular file (a directory, FIFO or "
                              "device is refused)")
            .arg(path);
    if (::access(native.constData(), R_OK) != 0)
        return QStringLiteral("the identity file %1 cannot be read by this user").arg(path);
    return {};
}

core::Result<SshTarget, QString> parseTarget(const SshTargetInput &input)
{
    SshTarget target;
    auto bastion = parseEndpoint(input.bastion.trimmed(), QStringLiteral("bastion"));
    if (!bastion)
        return bastion.error();
    target.bastion = bastion.value();
    if (!input.jump.trimmed().isEmpty()) {
        auto jump = parseEndpoint(input.jump.trimmed(), QStringLiteral("jump host"));
        if (!jump)
            return jump.error();
        target.jump = jump.value();
    }
    if (!input.identityFile.isEmpty()) {
        if (const QString why = identityProblem(input.identityFile); !why.isEmpty())
            return why;
        target.identityFile = input.identityFile;
    }
    target.useSshConfig = input.useSshConfig;
    return target;
}

} // namespace ssh
