// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ConnectionOptions.h"
#include "core/Result.h"

#include <QSslConfiguration>

namespace redis {

// The TLS settings of `tls` for a QSslSocket (peer verification, the CA file, the client
// certificate and key), or why they cannot be built: a file that cannot be read, said with
// its path. Shared by every socket of the module (ConnectionWorker, Subscriber).
core::Result<QSslConfiguration, QString> tlsConfiguration(const TlsOptions &tls);

} // namespace redis
