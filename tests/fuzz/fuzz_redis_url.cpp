// SPDX-License-Identifier: GPL-3.0-or-later
// A redis:// URL as a user types or pastes it. Parsing must never crash; an accepted URL
// printed back carries no password and parses again to the same connection. (Whether the
// printed text contains the password's characters is no test: "//Secr3t" is in
// "redis://Secr3t%40h@host" as the scheme and a user name, a corpus seed from the first run.)

#include "FuzzSupport.h"
#include "profiles/RedisUrl.h"

#include <cstdint>

using namespace profiles;

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString url = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto parsed = parseRedisUrl(url);
    if (!parsed.ok())
        return 0;
    const ParsedRedisUrl &p = parsed.value();
    const QString printed = toRedisUrl(p.profile);
    const auto again = parseRedisUrl(printed);
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(!again.value().hasPassword && again.value().password.isEmpty());
    FUZZ_CHECK(toRedisUrl(again.value().profile) == printed);
    return 0;
}
