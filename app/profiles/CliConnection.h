// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ConnectionProfile.h"

#include <QStringList>

namespace profiles {

// The inventory-cli options that reach the same server as the same users, for commands the
// console shows people to copy (e.g. the way back after a library load):
// - a saved profile: "--profile NAME" (its passwords are in the keyring);
// - anything else (an unsaved profile, --url, the demo): "--url" with the user and never a
//   password, the environment label, the release user, the TLS files, and --password-stdin /
//   --release-password-stdin where a password is needed. "--profile demo" would name a
//   profile that does not exist.
struct CliConnectionSource
{
    ConnectionProfile profile;
    bool saved = false; // the profile store holds this profile under its name
    bool hasPassword = false;
    bool hasReleasePassword = false;
};
QStringList cliConnectionArgs(const CliConnectionSource &source);

} // namespace profiles
