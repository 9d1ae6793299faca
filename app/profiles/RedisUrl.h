// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ConnectionProfile.h"
#include "core/Result.h"

namespace profiles {

// A redis:// or rediss:// URL taken apart. The profile has no name and default settings
// for everything a URL cannot say (environment, key templates, ...).
struct ParsedRedisUrl
{
    ConnectionProfile profile;
    QString password;
    bool hasPassword = false; // "redis://user:@host" gives an empty password that was set
};

// Why a URL was refused; the message never contains the password (nor the URL itself).
struct UrlError
{
    enum class Part { Url, Scheme, UserInfo, Host, Port, Database, Query };
    Part part = Part::Url;
    QString message;
};

// redis://[user[:password]@]host[:port][/db][?db=N]   (rediss:// turns TLS on, verifying)
// - host: a name, an IPv4 address or an [IPv6] address in brackets; port defaults to 6379
// - user and password are percent-decoded; "user@host" is a user without a password and
//   ":password@host" the default user with a password; the last '@' ends them, so a
//   password may hold unescaped '@', '/', '?' or '#'
core::Result<ParsedRedisUrl, UrlError> parseRedisUrl(const QString &url);

// The profile as a URL without any password ("rediss://alice@[::1]:6380/2").
QString toRedisUrl(const ConnectionProfile &profile);

} // namespace profiles
