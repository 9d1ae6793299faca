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

// The window shows the text; the CLI and the audit record the English.
core::Sentence roleSaid(const char *source)
{
    return core::Sentence::translated("inventory::WriteTargetRole", source);
}

} // namespace

core::Sentence WriteTargetRole::refusal() const
{
    switch (kind) {
    case Kind::Primary:
        return {};
    case Kind::Replica:
        return roleSaid(QT_TRANSLATE_NOOP(
                            "inventory::WriteTargetRole",
                            "refused: this server is a replica (of %1); a write here would "
                            "be lost at its next resync. Connect to the primary %1"))
            .arg(primary.isEmpty() ? roleSaid(
                     QT_TRANSLATE_NOOP("inventory::WriteTargetRole", "a primary it does not name"))
                                   : core::Sentence::plain(primary));
    case Kind::Unreadable:
        return roleSaid(
                   QT_TRANSLATE_NOOP("inventory::WriteTargetRole",
                                     "refused: could not read the server's role (%1), so it is not "
                                     "known to be a primary"))
            .arg(why);
    }
    return {};
}

WriteTargetRole writeTargetRole(const redis::ReplyResult &info)
{
    WriteTargetRole role;
    if (!info.ok()) {
        role.why = roleSaid(QT_TRANSLATE_NOOP("inventory::WriteTargetRole", "INFO replication: %1"))
                       .arg(info.error().readFailure());
        return role;
    }
    const auto text = info->string();
    if (!text) {
        role.why = roleSaid(QT_TRANSLATE_NOOP("inventory::WriteTargetRole",
                                              "INFO replication answered %1, not its text"))
                       .arg(redis::replyShape(*info));
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
        role.why = value ? roleSaid(QT_TRANSLATE_NOOP("inventory::WriteTargetRole",
                                                      "role \"%1\" is neither master nor slave"))
                               .arg(core::escapeBytes(*value, 40))
                         : roleSaid(QT_TRANSLATE_NOOP("inventory::WriteTargetRole",
                                                      "INFO replication has no role line"));
    }
    return role;
}

} // namespace inventory
