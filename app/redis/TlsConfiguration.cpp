// SPDX-License-Identifier: GPL-3.0-or-later
#include "TlsConfiguration.h"

#include <QFile>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslSocket>

namespace redis {

core::Result<QSslConfiguration, QString> tlsConfiguration(const TlsOptions &tls)
{
    QSslConfiguration conf = QSslConfiguration::defaultConfiguration();
    conf.setPeerVerifyMode(tls.verifyPeer ? QSslSocket::VerifyPeer : QSslSocket::VerifyNone);
    if (!tls.caFile.isEmpty()) {
        const auto cas = QSslCertificate::fromPath(tls.caFile, QSsl::Pem);
        if (cas.isEmpty())
            return core::err(QStringLiteral("TLS: no certificate could be read from the CA file "
                                            "%1: check the path and that it is PEM")
                                 .arg(tls.caFile));
        conf.setCaCertificates(cas);
    }
    if (!tls.certFile.isEmpty()) {
        const auto certs = QSslCertificate::fromPath(tls.certFile, QSsl::Pem);
        QFile keyFile(tls.keyFile);
        QSslKey key;
        if (keyFile.open(QIODevice::ReadOnly)) {
            const QByteArray pem = keyFile.readAll();
            key = QSslKey(pem, QSsl::Rsa);
            if (key.isNull())
                key = QSslKey(pem, QSsl::Ec);
        }
        if (certs.isEmpty() || key.isNull())
            return core::err(QStringLiteral("TLS: the client certificate %1 or key %2 could not "
                                            "be read: check both paths and that they are PEM")
                                 .arg(tls.certFile, tls.keyFile));
        conf.setLocalCertificate(certs.first());
        conf.setPrivateKey(key);
    }
    return conf;
}

} // namespace redis
