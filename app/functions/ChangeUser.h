// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Who runs the steps of a library change, in words for the wizard and the command line, and
// what to do when the server answers NOPERM. Every step runs on ChangeTarget::loadVia().

#include "ChangePlan.h"

namespace functions {

// True when the steps run on the release user's own connection.
bool runsAsReleaseUser(const ChangeContext &context);
// "ACL user 'release' (the profile's release user)" or "ACL user 'support' (this session's
// user; the profile names no release user)".
QString stepUserText(const ChangeContext &context);
// `error` with a hint appended when it is a permission error (NOPERM): which user lacks it,
// and the two ways out (a release user in the profile, or the grant).
// The Sentence form keeps both copies; the QString form is the English.
core::Sentence withPermissionHint(const ChangeContext &context, const core::Sentence &error);
QString withPermissionHint(const ChangeContext &context, const QString &error);

} // namespace functions
