// SPDX-License-Identifier: GPL-3.0-or-later
#include "ConnectionTestArea.h"

#include "FormParts.h"
#include "TunnelOpener.h"
#include "sentinel/SentinelResolver.h"
#include "session/ConnectionProbe.h"
#include "session/SentinelConfig.h"
#include "session/TunnelRoute.h"
#include "ui/common/Palette.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ui {

ConnectionTestArea::ConnectionTestArea(QWidget *parent)
    : QWidget(parent)
    , m_probe(new session::ConnectionProbe(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_button = new QPushButton(tr("&Test connection"));
    m_button->setObjectName(QStringLiteral("testButton"));
    m_button->setAutoDefault(false);
    m_status = new QLabel(tr("Not tested yet."));
    m_status->setObjectName(QStringLiteral("testStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *top = new QHBoxLayout;
    top->addWidget(m_button, 0, Qt::AlignTop);
    top->addWidget(m_status, 1);
    layout->addLayout(top);
    m_results = new QTreeWidget;
    m_results->setObjectName(QStringLiteral("testResults"));
    m_results->setColumnCount(2);
    m_results->setHeaderLabels({tr("Check"), tr("Result")});
    m_results->setRootIsDecorated(false);
    m_results->setAlternatingRowColors(true);
    m_results->setWordWrap(true);
    m_results->setUniformRowHeights(false);
    m_results->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_results->header()->setStretchLastSection(true);
    m_results->setMinimumHeight(150);
    layout->addWidget(m_results, 1);
    connect(m_button, &QPushButton::clicked, this, &ConnectionTestArea::testRequested);
    connect(m_probe, &session::ConnectionProbe::finished, this, &ConnectionTestArea::showResult);
}

ConnectionTestArea::~ConnectionTestArea()
{
    closeTunnel();
}

void ConnectionTestArea::start(const profiles::ConnectionProfile &profile, const QString &password,
                               const std::optional<QString> &releasePassword,
                               const QString &sentinelPassword)
{
    m_probe->cancel();
    stopResolving();
    closeTunnel();
    m_results->clear();
    m_status->setStyleSheet(QString());
    if (!profile.ssh.enabled()) {
        findPrimary(profile, password, releasePassword, sentinelPassword);
        return;
    }
    // Through the bastion or not at all: the server as written is as the bastion sees it.
    m_button->setEnabled(false);
    m_status->setText(tr("Opening the SSH tunnel via %1 for the test…").arg(profile.ssh.bastion));
    delete m_opener;
    m_opener = new TunnelOpener(this);
    connect(m_opener, &TunnelOpener::opened, this,
            [this, profile, password, releasePassword,
             sentinelPassword](std::shared_ptr<ssh::SshTunnel> tunnel) {
                m_tunnel = std::move(tunnel);
                profiles::ConnectionProfile routed = profile;
                routed.route = session::tunnelRoute(m_tunnel);
                findPrimary(routed, password, releasePassword, sentinelPassword);
            });
    connect(m_opener, &TunnelOpener::failed, this, [this](const QString &why) {
        showNotTested(tr("Not tested: the SSH tunnel could not be opened. %1").arg(why));
    });
    connect(m_opener, &TunnelOpener::cancelled, this,
            [this] { showNotTested(tr("Not tested: opening the SSH tunnel was cancelled.")); });
    m_opener->open(profile);
}

void ConnectionTestArea::findPrimary(const profiles::ConnectionProfile &profile,
                                     const QString &password,
                                     const std::optional<QString> &releasePassword,
                                     const QString &sentinelPassword)
{
    m_sentinelFinding.clear();
    if (!profile.sentinel.enabled()) {
        startProbe(profile, password, releasePassword);
        return;
    }
    const auto config = session::sentinelConfig(profile, password, sentinelPassword);
    if (!config.ok()) {
        showNotTested(tr("Not tested: %1").arg(config.error()));
        return;
    }
    m_button->setEnabled(false);
    m_status->setText(tr("Asking the sentinels for the primary of '%1'…").arg(config->masterName));
    m_resolver = new sentinel::SentinelResolver(config.value(), this);
    connect(m_resolver, &sentinel::SentinelResolver::resolved, this,
            [this, profile, password, releasePassword](const sentinel::Resolution &r) {
                stopResolving();
                m_sentinelFinding = tr("%1 named %2 the primary of '%3' (ROLE confirmed)")
                                        .arg(r.answeredBy.toString(), r.primary.toString(),
                                             profile.sentinel.masterName);
                profiles::ConnectionProfile primary = profile;
                primary.host = r.primary.host;
                primary.port = r.primary.port;
                startProbe(primary, password, releasePassword);
            });
    connect(m_resolver, &sentinel::SentinelResolver::failed, this,
            [this](const sentinel::ResolveError &e) {
                stopResolving();
                showNotTested(tr("Not tested: %1").arg(e.message.text));
            });
    m_resolver->resolve();
}

void ConnectionTestArea::stopResolving()
{
    if (!m_resolver)
        return;
    m_resolver->disconnect(this);
    m_resolver->deleteLater();
    m_resolver = nullptr;
}

void ConnectionTestArea::startProbe(const profiles::ConnectionProfile &profile,
                                    const QString &password,
                                    const std::optional<QString> &releasePassword)
{
    m_button->setEnabled(false);
    const QString address = profile.toConnectionOptions({}).address();
    m_status->setText(m_tunnel ? tr("Testing %1 through the SSH tunnel via %2…")
                                     .arg(address, m_tunnel->bastionDisplay())
                               : tr("Testing %1…").arg(address));
    m_probe->start(profile, password, releasePassword);
}

void ConnectionTestArea::showNotTested(const QString &why)
{
    m_button->setEnabled(true);
    m_status->setStyleSheet(errorStyle());
    m_status->setText(why);
}

void ConnectionTestArea::closeTunnel()
{
    if (m_tunnel)
        m_tunnel->close();
    m_tunnel.reset();
}

bool ConnectionTestArea::isRunning() const
{
    return m_probe->isRunning() || (m_opener && m_opener->isRunning()) || m_resolver;
}

void ConnectionTestArea::reset()
{
    m_probe->cancel();
    if (m_opener)
        m_opener->cancel();
    stopResolving();
    closeTunnel();
    m_button->setEnabled(true);
    m_results->clear();
    m_status->setText(tr("Not tested yet."));
    m_status->setStyleSheet(QString());
}

void ConnectionTestArea::showResult(const session::ProbeResult &result)
{
    m_button->setEnabled(true);
    m_results->clear();
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    const QString route = m_tunnel ? m_tunnel->bastionDisplay() : QString();
    closeTunnel(); // the test is over; Connect opens the session's own
    if (!route.isEmpty())
        new QTreeWidgetItem(m_results, {tr("Route"), tr("through the SSH tunnel via %1 (closed "
                                                        "after the test)")
                                                         .arg(route)});
    if (!m_sentinelFinding.isEmpty())
        (new QTreeWidgetItem(m_results, {tr("Sentinel"), m_sentinelFinding}))
            ->setToolTip(1, m_sentinelFinding);
    if (!result.ok()) {
        m_status->setStyleSheet(errorStyle());
        m_status->setText(tr("Could not connect: %1").arg(result.error().message.text));
        auto *item = new QTreeWidgetItem(
            m_results, {tr("Connection"), session::failureHeadline(result.error().kind)});
        item->setIcon(0, warning);
        item->setToolTip(1, result.error().message.text);
        emit finished(result);
        return;
    }
    const session::ProbeReport &report = result.value();
    QString status = route.isEmpty() ? tr("Connected to %1 in %2 ms.")
                                     : tr("Connected to %1 in %2 ms, through the SSH tunnel via "
                                          "%3.")
                                           .arg(QStringLiteral("%1"), QStringLiteral("%2"), route);
    status = status.arg(report.server.label()).arg(report.latencyMs, 0, 'f', 2);
    const bool releaseFailed = report.release.tried && !report.release.ok;
    if (releaseFailed) // found now, not halfway through a release
        status += QLatin1Char(' ')
                  + tr("The release user '%1' could not log in: %2.")
                        .arg(report.release.user, report.release.failure.text);
    m_status->setStyleSheet(releaseFailed ? errorStyle() : Palette::textStyle(Palette::ok()));
    m_status->setText(status);
    for (const session::ProbeRow &r : report.rows()) {
        auto *item = new QTreeWidgetItem(m_results, {r.label, r.value});
        item->setToolTip(1, r.value);
        if (r.warning)
            item->setIcon(0, warning);
    }
    emit finished(result);
}

} // namespace ui
