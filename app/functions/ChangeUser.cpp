// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChangeUser.h"

#include <QCoreApplication>

namespace functions {

namespace {
// Who a step runs as, for the wizard's page headings: the window's language. The permission
// hint below stays English: it becomes the step's error, which the log quotes.
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

QString withPermissionHint(const ChangeContext &context, const QString &error)
{
    if (!error.contains(QLatin1String("NOPERM")))
        return error;
    // A release manager reads this when a step stopped halfway: say who and what next.
    const QString fix = runsAsReleaseUser(context)
                            ? QStringLiteral("grant it to the release user")
                            : QStringLiteral("set a release user in the connection profile "
                                             "(one that may FUNCTION LIST, DUMP, LOAD and "
                                             "RESTORE), or grant it to this user");
    return QStringLiteral("%1 (user '%2' lacks this permission: %3)")
        .arg(error, context.loadUser, fix);
}

} // namespace functions
