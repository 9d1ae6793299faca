// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "core/Wording.h"

#include <QByteArray>
#include <QString>

namespace ssh {

// A directory only this user can enter, for the control socket, the generated ssh
// configuration and the trust probe's scratch known_hosts: made with mkdtemp (0700) under
// $XDG_RUNTIME_DIR when that is a private directory of ours, else under the temp directory.
// It is checked after creation (a directory, not a link, owned by us, no group or other
// bits) and removed with everything in it on destruction.
class PrivateRuntimeDirectory
{
public:
    PrivateRuntimeDirectory() = default;
    ~PrivateRuntimeDirectory();
    PrivateRuntimeDirectory(const PrivateRuntimeDirectory &) = delete;
    PrivateRuntimeDirectory &operator=(const PrivateRuntimeDirectory &) = delete;

    core::Result<bool, QString> create();
    QString path() const { return m_path; }
    QString filePath(const QString &name) const { return m_path + QLatin1Char('/') + name; }

private:
    QString m_path;
};

// Empty when `path` is a directory (not a link) owned by this user with no group or other
// permission bits; else what is wrong with it.
QString privateDirectoryProblem(const QString &path);

// The console's own known_hosts: `ssh_known_hosts` in the shared data directory
// (core::sharedDataDirectory(); INVENTORY_DATA_DIR in tests). The user's ~/.ssh/known_hosts is
// never read or written.
QString defaultKnownHostsFile();

// One key line's SHA256 fingerprint and key type, computed by `ssh-keygen -l -f -` (the line
// goes through its stdin). Empty fingerprint with the reason in `error` on failure.
struct KeyFingerprint
{
    QString fingerprint; // SHA256:...
    QString type;        // ED25519, RSA, ECDSA ...
    QString error;
};
KeyFingerprint fingerprintOf(const QByteArray &keyLine);

// Whether `text` has the form of an OpenSSH SHA256 fingerprint: "SHA256:" and 43 base64
// characters without padding.
bool isSha256Fingerprint(const QString &text);

// Appends `line` to the known_hosts file atomically (a temporary file renamed into place,
// 0600), first dropping the lines naming `replaceHost` when it is not empty.
core::Result<bool, core::Sentence> appendKnownHost(const QString &file, const QByteArray &line,
                                                   const QString &replaceHost = {});

// The text of line `number` (1-based) of a file, empty when there is none.
QByteArray fileLine(const QString &file, int number);

} // namespace ssh
