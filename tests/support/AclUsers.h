// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RedisFixture.h"

// The ACL users of a release walk (issue 12): `support` may call functions and nothing else,
// so any library step sent as it fails with NOPERM (and lands in ACL LOG); `release` may
// read, dump, load and restore libraries and dry-run them, and take the change lock.
namespace testsupport {

inline bool createSupportAndReleaseUsers(redis::RedisClient &admin)
{
    return admin
               .call({"ACL", "SETUSER", "support", "reset", "on", ">support-pw", "~*", "+fcall",
                      "+fcall_ro", "+client|setname", "+echo"})
               .ok()
           && admin
                  .call({"ACL", "SETUSER", "release", "reset", "on", ">release-pw", "~*",
                         "+function", "+info", "+acl|dryrun", "+client|setname", "+echo",
                         // the change lock (functions/ChangeLease.h)
                         "+set", "+get", "+pttl", "+pexpire", "+del", "+eval"})
                  .ok()
           && admin.call({"ACL", "LOG", "RESET"}).ok();
}

inline redis::ConnectionOptions optionsAs(redis::ConnectionOptions options, const QString &user)
{
    options.username = user;
    options.password = user + QStringLiteral("-pw");
    return options;
}

} // namespace testsupport
