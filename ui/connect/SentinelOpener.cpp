// SPDX-License-Identifier: GPL-3.0-or-later
#include "SentinelOpener.h"

#include <QMessageBox>
#include <QProgressDialog>
#include <QWidget>

namespace ui {

namespace {
// What to look at next, by the way resolving failed.
QString nextStep(sentinel::ResolveFailure failure)
{
    using F = sentinel::ResolveFailure;
    switch (failure) {
    case F::NoSentinelReachable:
        return QObject::tr("Check the sentinels' hosts and ports (26379 by default) on the "
                           "Sentinel tab, and any firewall or SSH bastion in between.");
    case F::SentinelAuthRefused:
        return QObject::tr("Give the sentinels' own user and password on the Sentinel tab; "
                           "the data node's password goes on the Connection tab.");
    case F::MasterUnknown:
        return QObject::tr("Check the master name: SENTINEL MASTERS on a sentinel lists the "
                           "names it monitors.");
    case F::SentinelRefused:
        return QObject::tr("These ports answer, but not as sentinels: check the ports on the "
                           "Sentinel tab.");
    case F::NotPrimary:
    case F::SentinelsDisagree:
        return QObject::tr("A failover may be under way: try again in a few seconds.");
    case F::PrimaryUnreadable:
        return QObject::tr("The sentinels named a primary this machine could not ask: check "
                           "the data node's password, TLS and whether its address is "
                           "reachable from here.");
    }
    return {};
}
} // namespace

SentinelOpener::SentinelOpener(QWidget *owner, QObject *parent)
    : QObject(parent ? parent : owner)
    , m_owner(owner)
{}

SentinelOpener::~SentinelOpener()
{
    cancel();
}

void SentinelOpener::open(const sentinel::ResolverConfig &config)
{
    cancel();
    m_resolver = new sentinel::SentinelResolver(config, this);
    connect(m_resolver, &sentinel::SentinelResolver::resolved, this,
            [this, config](const sentinel::Resolution &resolution) {
                finish();
                emit resolved(FoundPrimary{config, resolution.primary});
            });
    connect(m_resolver, &sentinel::SentinelResolver::failed, this, &SentinelOpener::fail);
    m_progress = new QProgressDialog(m_owner ? m_owner->window() : nullptr);
    m_progress->setObjectName(QStringLiteral("sentinelProgress"));
    m_progress->setWindowTitle(tr("Sentinel"));
    m_progress->setLabelText(
        tr("Asking %n sentinel(s) for the primary of '%1'…", nullptr, int(config.sentinels.size()))
            .arg(config.masterName));
    m_progress->setRange(0, 0);
    m_progress->setMinimumDuration(0);
    m_progress->setAutoReset(false);
    m_progress->setWindowModality(Qt::WindowModal);
    m_progress->setMinimumWidth(460);
    connect(m_progress, &QProgressDialog::canceled, this, [this] {
        cancel();
        emit cancelled();
    });
    m_progress->show();
    m_resolver->resolve();
}

void SentinelOpener::cancel()
{
    finish();
}

void SentinelOpener::finish()
{
    if (m_resolver) {
        m_resolver->disconnect(this);
        m_resolver->deleteLater();
        m_resolver = nullptr;
    }
    if (m_progress) {
        m_progress->disconnect(this);
        m_progress->hide();
        m_progress->deleteLater();
        m_progress = nullptr;
    }
}

void SentinelOpener::fail(const sentinel::ResolveError &error)
{
    const QString master = m_resolver ? m_resolver->config().masterName : QString();
    finish();
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Primary not found"),
                                tr("The sentinels did not name a primary for '%1' that this "
                                   "console could confirm; nothing was connected.")
                                    .arg(master),
                                QMessageBox::Close, m_owner ? m_owner->window() : nullptr);
    box->setObjectName(QStringLiteral("sentinelFailureBox"));
    box->setInformativeText(nextStep(error.failure));
    box->setDetailedText(error.message.text);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    emit failed(error.message.english);
}

} // namespace ui
