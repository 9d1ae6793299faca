// SPDX-License-Identifier: GPL-3.0-or-later
#include "TunnelOpener.h"

#include "HostKeyDialog.h"
#include "PassphraseDialog.h"

#include <QCoreApplication>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QTimer>

namespace ui {

namespace {
constexpr int MaxTrusts = 3;      // a jump host and the bastion, and one spare
constexpr int MaxPassphrases = 3; // as ssh itself asks

// Drops a reference once control is back in the event loop: the opener lets go of a tunnel
// from inside the tunnel's own signals (failed, established), and the last reference must not
// destroy it there.
void releaseLater(std::shared_ptr<ssh::SshTunnel> tunnel)
{
    if (tunnel)
        QTimer::singleShot(0, QCoreApplication::instance(), [tunnel = std::move(tunnel)] {});
}
} // namespace

TunnelOpener::TunnelOpener(QWidget *owner, QObject *parent)
    : QObject(parent ? parent : owner)
    , m_owner(owner)
{}

TunnelOpener::~TunnelOpener()
{
    if (m_tunnel) {
        disconnect(m_tunnel.get(), nullptr, this, nullptr);
        m_tunnel->close();
    }
}

QWidget *TunnelOpener::window() const
{
    return m_owner ? m_owner->window() : nullptr;
}

void TunnelOpener::open(const profiles::ConnectionProfile &profile)
{
    cancel();
    m_route = profile.ssh.bastion; // as written, until it is parsed
    const auto target = ssh::parseTarget(
        {profile.ssh.bastion, profile.ssh.jump, profile.ssh.identityFile, profile.ssh.useSshConfig},
        core::Wording::Translated);
    if (!target.ok()) {
        fail(tr("The SSH settings cannot be used: %1. Fix them on the SSH tab.")
                 .arg(target.error()));
        return;
    }
    m_route = target->bastion.display();
    if (target->jump)
        m_route = tr("%1 through the jump host %2").arg(m_route, target->jump->display());
    m_identityFile = target->identityFile;
    // An unlabelled server behind a bastion is production; a label this version cannot read
    // counts as production too.
    m_production = profile.startsReadOnly();
    m_trusts = 0;
    m_passphrases = 0;
    ssh::SshOptions options = m_options;
    options.connectTimeoutSec = qBound(1, profile.timeoutMs / 1000, 60);
    m_tunnel = std::make_shared<ssh::SshTunnel>(target.value(), options);
    connect(m_tunnel.get(), &ssh::SshTunnel::established, this, [this] {
        auto tunnel = m_tunnel;
        disconnect(tunnel.get(), nullptr, this, nullptr);
        finish();
        emit opened(tunnel);
        releaseLater(std::move(tunnel));
    });
    connect(m_tunnel.get(), &ssh::SshTunnel::failed, this, &TunnelOpener::onFailed);
    start(tr("Opening the SSH tunnel via %1…").arg(m_route));
}

void TunnelOpener::start(const QString &step)
{
    if (!m_progress) {
        m_progress = new QProgressDialog(window());
        m_progress->setObjectName(QStringLiteral("sshProgress"));
        m_progress->setWindowTitle(tr("SSH tunnel"));
        m_progress->setRange(0, 0); // busy: ssh says nothing about how far it got
        m_progress->setMinimumDuration(0);
        m_progress->setAutoReset(false);
        m_progress->setWindowModality(Qt::WindowModal);
        m_progress->setMinimumWidth(460);
        connect(m_progress, &QProgressDialog::canceled, this, [this] {
            cancel();
            emit cancelled();
        });
    }
    m_progress->setLabelText(step);
    m_progress->show();
    m_tunnel->start();
}

void TunnelOpener::cancel()
{
    if (!m_tunnel)
        return;
    disconnect(m_tunnel.get(), nullptr, this, nullptr);
    m_tunnel->close();
    finish();
}

void TunnelOpener::finish()
{
    releaseLater(std::move(m_tunnel));
    m_tunnel.reset();
    if (m_progress) {
        m_progress->disconnect(this);
        m_progress->hide();
        m_progress->deleteLater();
        m_progress = nullptr;
    }
}

void TunnelOpener::onFailed(const ssh::SshError &failure)
{
    const ssh::SshError error = failure; // the tunnel's own, which fail() may let go of
    if (m_progress)
        m_progress->hide();
    if (error.isHostKeyProblem() && m_trusts < MaxTrusts) {
        askToTrust(error);
        return;
    }
    if (error.kind == ssh::SshFailure::AuthenticationRefused && !m_identityFile.isEmpty()
        && m_passphrases < MaxPassphrases) {
        askPassphrase();
        return;
    }
    fail(error.message.text, error.sshOutput);
}

void TunnelOpener::askToTrust(const ssh::SshError &error)
{
    auto *dialog = new HostKeyDialog(error, m_route, m_production, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::finished, this, [this, dialog](int result) {
        if (!m_tunnel)
            return; // cancelled meanwhile
        const QString fingerprint = dialog->confirmedFingerprint();
        if (result != QDialog::Accepted || fingerprint.isEmpty()) {
            fail(dialog->canTrust()
                     ? tr("The host key was not trusted. Get its fingerprint from the host's "
                          "administrator, then connect again.")
                     : tr("The host key has changed, and a production profile does not replace "
                          "a trusted key. Once the host's administrator confirms the new key, "
                          "remove the old lines from the console's known_hosts and connect "
                          "again."));
            return;
        }
        trust(fingerprint, dialog->replacesChangedKey());
    });
    dialog->open();
}

void TunnelOpener::trust(const QString &fingerprint, bool replaceChanged)
{
    ++m_trusts;
    // A short local ssh run that does not log in; the key is written only when the host
    // offers exactly this fingerprint now.
    const auto mode = replaceChanged && !m_production ? ssh::SshTunnel::TrustMode::ReplaceChanged
                                                      : ssh::SshTunnel::TrustMode::UnknownOnly;
    const auto trusted = m_tunnel->trustHostKey(fingerprint, mode);
    if (!trusted.ok()) {
        fail(trusted.error().message.text, trusted.error().sshOutput);
        return;
    }
    start(tr("Host key trusted. Opening the SSH tunnel via %1…").arg(m_route));
}

void TunnelOpener::askPassphrase()
{
    auto *dialog = new PassphraseDialog(m_identityFile, m_route, m_passphrases > 0, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::finished, this, [this, dialog](int result) {
        if (!m_tunnel)
            return;
        if (result != QDialog::Accepted) {
            fail(tr("No passphrase was given for %1: nothing was connected.").arg(m_identityFile));
            return;
        }
        ++m_passphrases;
        m_tunnel->setPassphrase(dialog->takePassphrase());
        start(tr("Opening the SSH tunnel via %1 with the key's passphrase…").arg(m_route));
    });
    dialog->open();
}

void TunnelOpener::fail(QString why, QString details)
{
    if (m_tunnel) {
        disconnect(m_tunnel.get(), nullptr, this, nullptr);
        m_tunnel->close();
    }
    finish();
    auto *box = new QMessageBox(QMessageBox::Warning, tr("SSH tunnel not opened"),
                                tr("The SSH tunnel via %1 could not be opened; nothing was "
                                   "connected.")
                                    .arg(m_route),
                                QMessageBox::Close, window());
    box->setObjectName(QStringLiteral("sshFailureBox"));
    box->setInformativeText(why);
    if (!details.trimmed().isEmpty())
        box->setDetailedText(details);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    emit failed(why);
}

} // namespace ui
