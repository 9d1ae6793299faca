// SPDX-License-Identifier: GPL-3.0-or-later
#include "WriteTargetRole.h"

#include "core/Bytes.h"
#include "redis/ReplyShape.h"

namespace inventory {

namespace {

// The value of `field:` in an INFO text; nullopt when the line is absent.
std::optional<QByteArray> infoField(const QByteArray &text, const QByteArray &field)
{
    const QByteArray prefix = field + ':';
    for (const QByteArray &line : text.split('\n'))
        if (line.startsWith(prefix))
            return line.mid(prefix.size()).trimmed();
    return std::nullopt;
}

} // namespace

QString WriteTargetRole::refusal() const
{
    switch (kind) {
    case Kind::Primary:
        return {};
    case Kind::Replica:
        return QStringLiteral("refused: this server is a replica (of %1); a write here would "
                              "be lost at its next resync. Connect to the primary %1")
            .arg(primary.isEmpty() ? QStringLiteral("a primary it does not name") : primary);
    case Kind::Unreadable:
        return QStringLiteral("refused: could not read the server's role (%1), so it is not "
                              "known to be a primary")
            .arg(why);
    }
    return {};
}

WriteTargetRole writeTargetRole(const redis::ReplyResult &info)
{
    WriteTargetRole role;
    if (!info.ok()) {
        role.why = QStringLiteral("INFO replication: %1").arg(info.error().readFailure().english);
        return role;
    }
    const auto text = info->string();
    if (!text) {
        role.why = QStringLiteral("INFO replication answered %1, not its text")
                       .arg(redis::replyShape(*info).english);
        return role;
    }
    const auto value = infoField(*text, "role");
    if (value == "master") {
        role.kind = WriteTargetRole::Kind::Primary;
    } else if (value == "slave") {
        role.kind = WriteTargetRole::Kind::Replica;
        const auto host = infoField(*text, "master_host"), port = infoField(*text, "master_port");
        if (host && port)
            role.primary = QStringLiteral("%1:%2").arg(core::escapeBytes(*host, 100),
                                                       core::escapeBytes(*port, 10));
    } else {
        role.why = value ? QStringLiteral("role \"%1\" is neither master nor slave")
                               .arg(core::escapeBytes(*value, 40))
                         : QStringLiteral("INFO replication has no role line");
    }
    return role;
}

} // namespace inventory
