// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChangeUser.h"

#include <QCoreApplication>

namespace functions {

namespace {
// Who a step runs as, for the wizard's page headings: the window's language. The permission
// hint is made in both copies: its English becomes the step's error, which the log quotes.
struct ChangeUserText
{
    Q_DECLARE_TR_FUNCTIONS(functions::ChangeUser)
};
} // namespace

bool runsAsReleaseUser(const ChangeContext &context)
{
    return !context.nodes.isEmpty() && context.nodes.first().loader != nullptr;
}

QString stepUserText(const ChangeContext &context)
{
    return runsAsReleaseUser(context)
               ? ChangeUserText::tr("ACL user '%1' (the profile's release user)")
                     .arg(context.loadUser)
               : ChangeUserText::tr("ACL user '%1' (this session's user; the profile names no "
                                    "release user)")
                     .arg(context.loadUser);
}

core::Sentence withPermissionHint(const ChangeContext &context, const core::Sentence &error)
{
    if (!error.english.contains(QLatin1String("NOPERM")))
        return error;
    // A release manager reads this when a step stopped halfway: say who and what next.
    const auto say = [](const char *source) {
        return core::Sentence::translated("functions::ChangeUser", source);
    };
    const core::Sentence fix =
        runsAsReleaseUser(context)
            ? say(QT_TRANSLATE_NOOP("functions::ChangeUser", "grant it to the release user"))
            : say(QT_TRANSLATE_NOOP("functions::ChangeUser",
                                    "set a release user in the connection profile (one that "
                                    "may FUNCTION LIST, DUMP, LOAD and RESTORE), or grant it to "
                                    "this user"));
    return say(QT_TRANSLATE_NOOP("functions::ChangeUser",
                                 "%1 (user '%2' lacks this permission: %3)"))
        .arg(error, context.loadUser, fix);
}

QString withPermissionHint(const ChangeContext &context, const QString &error)
{
    return withPermissionHint(context, core::Sentence::plain(error)).english;
}

} // namespace functions
