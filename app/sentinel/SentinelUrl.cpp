// SPDX-License-Identifier: GPL-3.0-or-later
#include "SentinelUrl.h"

#include <QHostAddress>
#include <QRegularExpression>
#include <QStringList>
#include <QUrl>
#include <optional>

namespace sentinel {

namespace {

using Problem = std::optional<core::Sentence>;

// The URL's words, in one context for lupdate and the translator.
core::Sentence urlSaid(const char *source)
{
    return core::Sentence::translated("sentinel::SentinelUrl", source);
}

// Made when needed, not at start-up: the translator is installed later.
core::Sentence shape()
{
    return urlSaid(QT_TRANSLATE_NOOP(
        "sentinel::SentinelUrl",
        "write redis-sentinel://[user:password@]host[:port][,host2[:port2]...][/db]#master-name"));
}

// '%' must start a two-digit escape and the bytes must be UTF-8; nullopt otherwise.
std::optional<QString> decoded(const QString &text)
{
    static const QRegularExpression badEscape(QStringLiteral("%(?![0-9A-Fa-f]{2})"));
    if (badEscape.match(text).hasMatch())
        return std::nullopt;
    const QByteArray bytes = QByteArray::fromPercentEncoding(text.toUtf8());
    QString out = QString::fromUtf8(bytes);
    if (out.toUtf8() != bytes)
        return std::nullopt;
    return out;
}

// 1 to 65535, digits only.
std::optional<quint16> portNumber(const QString &text)
{
    static const QRegularExpression digits(QStringLiteral("^[0-9]{1,5}$"));
    if (!digits.match(text).hasMatch())
        return std::nullopt;
    const int port = text.toInt();
    if (port < 1 || port > 65535)
        return std::nullopt;
    return quint16(port);
}

std::optional<int> databaseNumber(const QString &text)
{
    static const QRegularExpression digits(QStringLiteral("^[0-9]{1,5}$"));
    if (!digits.match(text).hasMatch() || text.toInt() > 65535)
        return std::nullopt;
    return text.toInt();
}

bool plausibleHostName(const QString &host)
{
    static const QRegularExpression name(
        QStringLiteral("^[A-Za-z0-9_](?:[A-Za-z0-9_-]*)(?:\\.[A-Za-z0-9_-]+)*\\.?$"));
    return host.size() <= 253 && name.match(host).hasMatch();
}

// One entry of the host list: "host", "host:port", "[v6]" or "[v6]:port". `which` names it in
// an error ("sentinel 2").
core::Result<NodeAddress, core::Sentence> readSentinel(const QString &entry,
                                                       const core::Sentence &which)
{
    if (entry.trimmed().isEmpty())
        return core::err(
            urlSaid(QT_TRANSLATE_NOOP("sentinel::SentinelUrl", "%1 in the host list is empty: %2"))
                .arg(which, shape()));
    NodeAddress out;
    QString portText;
    bool hasPort = false;
    if (entry.startsWith(QLatin1Char('['))) {
        const qsizetype close = entry.indexOf(QLatin1Char(']'));
        const QHostAddress v6(entry.mid(1, close - 1));
        if (close < 0 || v6.protocol() != QAbstractSocket::IPv6Protocol)
            return core::err(
                urlSaid(QT_TRANSLATE_NOOP("sentinel::SentinelUrl",
                                          "%1: an IPv6 address goes in brackets, as in "
                                          "[::1]:26379"))
                    .arg(which));
        out.host = entry.mid(1, close - 1);
        const QString rest = entry.mid(close + 1);
        if (!rest.isEmpty() && !rest.startsWith(QLatin1Char(':')))
            return core::err(
                urlSaid(QT_TRANSLATE_NOOP("sentinel::SentinelUrl", "%1: write [address]:port"))
                    .arg(which));
        hasPort = !rest.isEmpty();
        portText = rest.mid(1);
    } else {
        const QStringList parts = entry.split(QLatin1Char(':'));
        if (parts.size() > 2)
            return core::err(
                urlSaid(QT_TRANSLATE_NOOP("sentinel::SentinelUrl",
                                          "%1: an IPv6 address goes in brackets, as in "
                                          "[::1]:26379"))
                    .arg(which));
        out.host = parts.first();
        hasPort = parts.size() == 2;
        portText = parts.value(1);
        if (out.host.isEmpty())
            return core::err(urlSaid(QT_TRANSLATE_NOOP("sentinel::SentinelUrl",
                                                       "%1 has no host before its port"))
                                 .arg(which));
        if (!plausibleHostName(out.host))
            return core::err(
                urlSaid(QT_TRANSLATE_NOOP("sentinel::SentinelUrl",
                                          "%1: '%2' is not a host name or an IP address"))
                    .arg(which, out.host));
    }
    out.port = DefaultSentinelPort;
    if (hasPort) {
        const auto port = portNumber(portText);
        if (!port)
            return core::err(
                urlSaid(QT_TRANSLATE_NOOP("sentinel::SentinelUrl",
                                          "%1 (%2): the port must be a number from 1 to 65535"))
                    .arg(which, out.host));
        out.port = *port;
    }
    return out;
}

// "user:password" (either side may be empty), percent-decoded.
Problem readCredentials(const QString &userInfo, SentinelUrl &out)
{
    const qsizetype colon = userInfo.indexOf(QLatin1Char(':'));
    if (colon < 0)
        return urlSaid(QT_TRANSLATE_NOOP("sentinel::SentinelUrl",
                                         "the text before '@' has no ':': write user:password@ or "
                                         ":password@ (a lone word could be either)"));
    const auto user = decoded(userInfo.left(colon));
    const auto password = decoded(userInfo.mid(colon + 1));
    if (!user)
        return urlSaid(QT_TRANSLATE_NOOP("sentinel::SentinelUrl",
                                         "invalid percent-encoding in the user name"));
    if (!password)
        return urlSaid(
            QT_TRANSLATE_NOOP("sentinel::SentinelUrl",
                              "invalid percent-encoding in the password (write a '%' as %25)"));
    if (user->contains(QLatin1Char(' ')))
        return urlSaid(
            QT_TRANSLATE_NOOP("sentinel::SentinelUrl", "the user name must not contain spaces"));
    out.username = *user;
    out.password = *password;
    out.hasPassword = true;
    return std::nullopt;
}

Problem readSentinels(const QStringList &entries, QList<NodeAddress> &out)
{
    if (entries.size() > MaxSentinels)
        return urlSaid(
                   QT_TRANSLATE_NOOP("sentinel::SentinelUrl",
                                     "%1 sentinels given: at most %2 are read (a deployment runs "
                                     "three or five)"))
            .arg(entries.size(), MaxSentinels);
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const core::Sentence which =
            urlSaid(QT_TRANSLATE_NOOP("sentinel::SentinelUrl", "sentinel %1")).arg(i + 1);
        auto sentinel = readSentinel(entries.at(i), which);
        if (!sentinel.ok())
            return sentinel.error();
        if (out.contains(sentinel.value()))
            return urlSaid(QT_TRANSLATE_NOOP("sentinel::SentinelUrl", "%1 (%2) is listed twice"))
                .arg(which, sentinel->toString());
        out << sentinel.value();
    }
    return std::nullopt;
}

Problem readHosts(const QString &hostList, SentinelUrl &out)
{
    if (hostList.isEmpty())
        return urlSaid(QT_TRANSLATE_NOOP("sentinel::SentinelUrl", "the URL names no sentinel: %1"))
            .arg(shape());
    return readSentinels(hostList.split(QLatin1Char(',')), out.sentinels);
}

Problem readQuery(const QString &query, SentinelUrl &out, QString *masterFromQuery)
{
    for (const QString &pair : query.split(QLatin1Char('&'), Qt::SkipEmptyParts)) {
        const qsizetype eq = pair.indexOf(QLatin1Char('='));
        const QString name = pair.left(eq);
        const auto value = decoded(eq < 0 ? QString() : pair.mid(eq + 1));
        if (!value)
            return urlSaid(QT_TRANSLATE_NOOP("sentinel::SentinelUrl",
                                             "invalid percent-encoding in the parameter %1"))
                .arg(name);
        if (name == QLatin1String("sentinelMasterId")) {
            *masterFromQuery = *value;
        } else if (name == QLatin1String("database") || name == QLatin1String("db")) {
            const auto db = databaseNumber(*value);
            if (!db)
                return urlSaid(
                           QT_TRANSLATE_NOOP("sentinel::SentinelUrl",
                                             "%1: the database must be a number from 0 to 65535"))
                    .arg(name);
            out.database = *db;
        } else {
            return urlSaid(QT_TRANSLATE_NOOP(
                               "sentinel::SentinelUrl",
                               "unknown parameter '%1': the query may hold sentinelMasterId "
                               "and database (or db)"))
                .arg(name.left(40));
        }
    }
    return std::nullopt;
}

Problem readMasterName(const QString &fromFragment, const QString &fromQuery, SentinelUrl &out)
{
    const auto fragment = decoded(fromFragment);
    if (!fragment)
        return urlSaid(QT_TRANSLATE_NOOP("sentinel::SentinelUrl",
                                         "invalid percent-encoding in the master name"));
    if (!fragment->isEmpty() && !fromQuery.isEmpty() && *fragment != fromQuery)
        return urlSaid(QT_TRANSLATE_NOOP("sentinel::SentinelUrl",
                                         "two master names: #%1 and sentinelMasterId=%2; give one"))
            .arg(*fragment, fromQuery);
    out.masterName = fragment->isEmpty() ? fromQuery : *fragment;
    if (out.masterName.isEmpty())
        return urlSaid(
            QT_TRANSLATE_NOOP("sentinel::SentinelUrl",
                              "no master name: end the URL with #master-name, the name the "
                              "sentinels monitor (as in redis-sentinel://host:26379#mymaster)"));
    static const QRegularExpression printable(QStringLiteral("^[^\\s\\x00-\\x1f\\x7f]{1,200}$"));
    if (!printable.match(out.masterName).hasMatch())
        return urlSaid(
            QT_TRANSLATE_NOOP("sentinel::SentinelUrl",
                              "the master name must be 1 to 200 characters without spaces or "
                              "control characters"));
    return std::nullopt;
}

} // namespace

namespace {

core::Result<QList<NodeAddress>, core::Sentence> sentinelListOf(const QString &text)
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    const QStringList entries = text.split(separators, Qt::SkipEmptyParts);
    if (entries.isEmpty())
        return core::err(urlSaid(QT_TRANSLATE_NOOP(
            "sentinel::SentinelUrl", "no sentinel is given: list them as host[:port], "
                                     "26379 by default")));
    QList<NodeAddress> out;
    if (const Problem problem = readSentinels(entries, out))
        return core::err(*problem);
    return out;
}

} // namespace

core::Result<QList<NodeAddress>, QString> parseSentinelList(const QString &text,
                                                            core::Wording wording)
{
    auto list = sentinelListOf(text);
    if (!list.ok())
        return core::err(list.error().in(wording));
    return list.value();
}

bool isSentinelUrl(const QString &url)
{
    const QString t = url.trimmed();
    return t.startsWith(QLatin1String("redis-sentinel://"), Qt::CaseInsensitive)
           || t.startsWith(QLatin1String("rediss-sentinel://"), Qt::CaseInsensitive);
}

namespace {

core::Result<SentinelUrl, core::Sentence> sentinelUrlOf(const QString &url)
{
    SentinelUrl out;
    QString rest = url.trimmed();
    if (!isSentinelUrl(rest))
        return core::err(
            urlSaid(QT_TRANSLATE_NOOP("sentinel::SentinelUrl", "not a sentinel URL: %1"))
                .arg(shape()));
    out.tls = rest.startsWith(QLatin1String("rediss"), Qt::CaseInsensitive);
    rest = rest.mid(rest.indexOf(QLatin1String("://")) + 3);

    // The credentials end at the last '@': a password may hold any of '/', '?', '#' and '@'.
    const qsizetype at = rest.lastIndexOf(QLatin1Char('@'));
    if (at >= 0) {
        if (const Problem p = readCredentials(rest.left(at), out))
            return core::err(*p);
        rest = rest.mid(at + 1);
    }
    QString fragment;
    if (const qsizetype hash = rest.indexOf(QLatin1Char('#')); hash >= 0) {
        fragment = rest.mid(hash + 1);
        rest.truncate(hash);
    }
    QString query;
    if (const qsizetype q = rest.indexOf(QLatin1Char('?')); q >= 0) {
        query = rest.mid(q + 1);
        rest.truncate(q);
    }
    QString path;
    if (const qsizetype slash = rest.indexOf(QLatin1Char('/')); slash >= 0) {
        path = rest.mid(slash + 1);
        rest.truncate(slash);
    }
    if (const Problem p = readHosts(rest, out))
        return core::err(*p);
    if (!path.isEmpty()) {
        const auto db = databaseNumber(path);
        if (!db)
            return core::err(
                urlSaid(QT_TRANSLATE_NOOP("sentinel::SentinelUrl",
                                          "'/%1' is not a database number (0 to 65535); the "
                                          "master name goes after '#', as in ...:26379/0#%1"))
                    .arg(path.left(40)));
        out.database = *db;
    }
    QString masterFromQuery;
    if (const Problem p = readQuery(query, out, &masterFromQuery))
        return core::err(*p);
    if (const Problem p = readMasterName(fragment, masterFromQuery, out))
        return core::err(*p);
    return out;
}

} // namespace

core::Result<SentinelUrl, QString> parseSentinelUrl(const QString &url, core::Wording wording)
{
    auto parsed = sentinelUrlOf(url);
    if (!parsed.ok())
        return core::err(parsed.error().in(wording));
    return parsed.value();
}

QString SentinelUrl::toString() const
{
    QString user;
    if (!username.isEmpty())
        user = QString::fromUtf8(QUrl::toPercentEncoding(username)) + QLatin1Char('@');
    QString text =
        QStringLiteral("%1://%2%3")
            .arg(tls ? QStringLiteral("rediss-sentinel") : QStringLiteral("redis-sentinel"), user,
                 joinAddresses(sentinels).remove(QLatin1Char(' ')));
    if (database != 0)
        text += QStringLiteral("/%1").arg(database);
    return text + QLatin1Char('#') + QString::fromUtf8(QUrl::toPercentEncoding(masterName));
}

} // namespace sentinel
