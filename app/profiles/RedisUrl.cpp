// SPDX-License-Identifier: GPL-3.0-or-later
#include "RedisUrl.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QRegularExpression>
#include <QUrl>

namespace profiles {

namespace {

// Shown by the connection dialog in the window's language; the CLI prints the English.
struct UrlText
{
    Q_DECLARE_TR_FUNCTIONS(profiles::RedisUrl)
};

UrlError fail(UrlError::Part part, const QString &message)
{
    return UrlError{part, message};
}

// Percent-decodes, refusing a '%' not followed by two hex digits and bytes that are not UTF-8.
std::optional<QString> percentDecode(const QString &text)
{
    const QByteArray raw = text.toUtf8();
    for (qsizetype i = 0; i < raw.size(); ++i) {
        if (raw[i] != '%')
            continue;
        if (i + 2 >= raw.size() || !isxdigit(uchar(raw[i + 1])) || !isxdigit(uchar(raw[i + 2])))
            return std::nullopt;
        i += 2;
    }
    const QByteArray decoded = QByteArray::fromPercentEncoding(raw);
    const QString out = QString::fromUtf8(decoded);
    if (out.toUtf8() != decoded)
        return std::nullopt;
    return out;
}

// Digits only, at most `maxDigits` of them.
std::optional<qint64> number(const QString &text, int maxDigits)
{
    if (text.isEmpty() || text.size() > maxDigits)
        return std::nullopt;
    for (QChar c : text)
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return std::nullopt;
    return text.toLongLong();
}

bool validUrlHostName(const QString &host)
{
    static const QRegularExpression name(QStringLiteral("^[A-Za-z0-9_]([A-Za-z0-9_.-]{0,252})$"));
    return name.match(host).hasMatch();
}

std::optional<UrlError> setDatabase(ConnectionProfile &p, const QString &text)
{
    const auto db = number(text, 5);
    if (!db || *db > 65535)
        return fail(
            UrlError::Part::Database,
            UrlText::tr("invalid database: the database must be a number from 0 to 65535, as in "
                        "redis://host:6379/0"));
    p.database = int(*db);
    return std::nullopt;
}

// "user:password", both percent-decoded.
std::optional<UrlError> readUserInfo(const QString &userInfo, ParsedRedisUrl &out)
{
    ConnectionProfile &p = out.profile;
    const qsizetype colon = userInfo.indexOf(QLatin1Char(':'));
    const auto user = percentDecode(colon < 0 ? userInfo : userInfo.left(colon));
    if (!user)
        return fail(UrlError::Part::UserInfo,
                    UrlText::tr("invalid percent-encoding in the user name"));
    p.username = *user;
    if (colon >= 0) {
        const auto password = percentDecode(userInfo.mid(colon + 1));
        if (!password)
            return fail(UrlError::Part::UserInfo,
                        UrlText::tr("invalid percent-encoding in the password (write a "
                                    "'%' as %25)"));
        out.password = *password;
        out.hasPassword = true;
    }
    if (p.username.contains(QLatin1Char(' ')))
        return fail(UrlError::Part::UserInfo, UrlText::tr("the user name must not contain spaces"));
    return std::nullopt;
}

// The authority split into its host and, when one is written, its port (still text).
struct HostPort
{
    QString host;
    QString portText;
    bool hasPort = false;
};

// "[address]" or "[address]:port".
std::optional<UrlError> splitIpv6Authority(const QString &authority, HostPort &out)
{
    const qsizetype close = authority.indexOf(QLatin1Char(']'));
    if (close < 0)
        return fail(UrlError::Part::Host, UrlText::tr("an IPv6 address must be closed "
                                                      "with ']', as in redis://[::1]:6379"));
    out.host = authority.mid(1, close - 1);
    const QHostAddress address(out.host);
    if (address.isNull() || address.protocol() != QAbstractSocket::IPv6Protocol)
        return fail(UrlError::Part::Host,
                    UrlText::tr("'%1' in brackets is not an IPv6 address").arg(out.host));
    const QString after = authority.mid(close + 1);
    if (!after.isEmpty()) {
        if (!after.startsWith(QLatin1Char(':')))
            return fail(UrlError::Part::Host,
                        UrlText::tr("unexpected text after the IPv6 address: write "
                                    "[address]:port"));
        out.portText = after.mid(1);
        out.hasPort = true;
    }
    return std::nullopt;
}

// "name", "name:port", "1.2.3.4" or "1.2.3.4:port".
std::optional<UrlError> splitNameAuthority(const QString &authority, HostPort &out)
{
    const qsizetype colons = authority.count(QLatin1Char(':'));
    if (colons > 1)
        return fail(UrlError::Part::Host, UrlText::tr("an IPv6 address must be in brackets, as "
                                                      "in redis://[::1]:6379"));
    const qsizetype colon = authority.indexOf(QLatin1Char(':'));
    const auto decoded = percentDecode(colon < 0 ? authority : authority.left(colon));
    out.host = decoded.value_or(QString());
    if (!decoded || (!out.host.isEmpty() && !validUrlHostName(out.host)))
        return fail(UrlError::Part::Host,
                    UrlText::tr("invalid host name: use letters, digits, '-' and '.', an "
                                "IPv4 address or an [IPv6] address"));
    if (colon >= 0) {
        out.portText = authority.mid(colon + 1);
        out.hasPort = true;
    }
    return std::nullopt;
}

std::optional<UrlError> readHostAndPort(const QString &authority, ConnectionProfile &p)
{
    HostPort split;
    if (auto e = authority.startsWith(QLatin1Char('[')) ? splitIpv6Authority(authority, split)
                                                        : splitNameAuthority(authority, split))
        return e;
    if (split.host.isEmpty())
        return fail(UrlError::Part::Host,
                    UrlText::tr("the URL has no host, as in redis://127.0.0.1:6379"));
    p.host = split.host;
    if (split.hasPort) {
        // The text is not repeated: in a mistyped URL it could be part of a password.
        const auto port = number(split.portText, 5);
        if (!port || *port < 1 || *port > 65535)
            return fail(UrlError::Part::Port,
                        UrlText::tr("invalid port: the port must be a number from 1 to 65535"));
        p.port = int(*port);
    }
    return std::nullopt;
}

// What follows the authority: "/db", "?db=N", or neither (the fragment already cut off).
std::optional<UrlError> readDatabase(const QString &tail, ConnectionProfile &p)
{
    QString path = tail;
    QString query;
    const qsizetype q = tail.indexOf(QLatin1Char('?'));
    if (q >= 0) {
        path = tail.left(q);
        query = tail.mid(q + 1);
    }
    bool dbInPath = false;
    if (path.size() > 1) { // "" and "/" mean database 0
        if (auto e = setDatabase(p, path.mid(1)))
            return e;
        dbInPath = true;
    }
    if (query.isEmpty())
        return std::nullopt;
    for (const QString &pair : query.split(QLatin1Char('&'), Qt::SkipEmptyParts)) {
        const qsizetype eq = pair.indexOf(QLatin1Char('='));
        const QString key = eq < 0 ? pair : pair.left(eq);
        if (key != QLatin1String("db"))
            return fail(UrlError::Part::Query,
                        UrlText::tr("unsupported URL option '%1': only db=N is understood")
                            .arg(key.left(20)));
        if (dbInPath)
            return fail(UrlError::Part::Database,
                        UrlText::tr("the database is given twice (path and db=)"));
        if (auto e = setDatabase(p, eq < 0 ? QString() : pair.mid(eq + 1)))
            return e;
    }
    return std::nullopt;
}

} // namespace

core::Result<ParsedRedisUrl, UrlError> parseRedisUrl(const QString &input)
{
    const QString url = input.trimmed();
    const qsizetype sep = url.indexOf(QLatin1String("://"));
    if (sep <= 0)
        return fail(UrlError::Part::Url,
                    UrlText::tr("not a Redis URL: expected redis://host:port/db or "
                                "rediss://host:port/db"));
    const QString scheme = url.left(sep).toLower();
    ParsedRedisUrl out;
    ConnectionProfile &p = out.profile;
    if (scheme == QLatin1String("rediss")) {
        p.tls.enabled = true;
        p.tls.verifyPeer = true;
    } else if (scheme != QLatin1String("redis")) {
        // The scheme cannot hold the password (it ends before "://"), but keep it short.
        return fail(UrlError::Part::Scheme,
                    UrlText::tr("unsupported scheme '%1': use redis:// or rediss:// (TLS)")
                        .arg(url.left(std::min<qsizetype>(sep, 20))));
    }
    QString rest = url.mid(sep + 3);

    // User info ends at the last '@', so a password may contain '@', '/', '?' or '#'.
    const qsizetype at = rest.lastIndexOf(QLatin1Char('@'));
    if (at >= 0) {
        if (auto e = readUserInfo(rest.left(at), out))
            return *e;
        rest = rest.mid(at + 1);
    }

    // Authority ends at the first '/', '?' or '#'.
    qsizetype end = rest.size();
    for (QChar stop : {QLatin1Char('/'), QLatin1Char('?'), QLatin1Char('#')}) {
        const qsizetype i = rest.indexOf(stop);
        if (i >= 0 && i < end)
            end = i;
    }
    QString tail = rest.mid(end);
    const qsizetype hash = tail.indexOf(QLatin1Char('#'));
    if (hash >= 0)
        tail.truncate(hash); // a fragment means nothing to Redis
    if (auto e = readHostAndPort(rest.left(end), p))
        return *e;
    if (auto e = readDatabase(tail, p))
        return *e;
    return out;
}

QString toRedisUrl(const ConnectionProfile &p)
{
    QString out = p.tls.enabled ? QStringLiteral("rediss://") : QStringLiteral("redis://");
    if (!p.username.isEmpty())
        out += QString::fromLatin1(QUrl::toPercentEncoding(p.username)) + QLatin1Char('@');
    out +=
        p.host.contains(QLatin1Char(':')) ? QLatin1Char('[') + p.host + QLatin1Char(']') : p.host;
    out += QLatin1Char(':') + QString::number(p.port);
    if (p.database != 0)
        out += QLatin1Char('/') + QString::number(p.database);
    return out;
}

} // namespace profiles
