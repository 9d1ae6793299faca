// SPDX-License-Identifier: GPL-3.0-or-later
#include "ConnectionStatusWidget.h"

#include "ui/common/Palette.h"

#include "ui/common/EnvironmentStyle.h"
#include "ui/common/TextStyle.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>

namespace ui {

namespace {

QLabel *field(QWidget *parent, const char *name, const QString &tip)
{
    auto *l = new QLabel(parent);
    l->setObjectName(QLatin1String(name));
    l->setToolTip(tip);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

QFrame *separator(QWidget *parent)
{
    auto *line = new QFrame(parent);
    line->setFrameShape(QFrame::VLine);
    line->setFrameShadow(QFrame::Sunken);
    return line;
}

struct StateLook
{
    QColor colour;
    QString text;
};

StateLook lookOf(redis::ConnectionState s)
{
    using S = redis::ConnectionState;
    switch (s) {
    case S::Ready:
        return {Palette::ok(), QObject::tr("Connected")};
    case S::Connecting:
        return {Palette::pending(), QObject::tr("Connecting")};
    case S::Reconnecting:
        return {Palette::attention(), QObject::tr("Reconnecting")};
    case S::Failed:
        return {Palette::error(), QObject::tr("Connection failed")};
    case S::Closed:
        return {Palette::muted(), QObject::tr("Closed")};
    case S::Idle:
        break;
    }
    return {Palette::muted(), QObject::tr("Not connected")};
}

} // namespace

ConnectionStatusWidget::ConnectionStatusWidget(QWidget *parent)
    : QWidget(parent)
    , m_badge(field(this, "environmentBadge", tr("Environment of this connection")))
    , m_state(field(this, "connectionState", QString()))
    , m_address(field(this, "serverAddress", tr("Server address")))
    , m_tunnel(field(this, "tunnelStatus", QString()))
    , m_sentinel(field(this, "sentinelStatus", QString()))
    , m_version(field(this, "serverVersion", tr("redis_version from INFO")))
    , m_mode(field(this, "serverMode", tr("redis_mode from INFO")))
    , m_role(field(this, "serverRole", tr("Replication role from INFO")))
    , m_activity(field(this, "statusActivity", QString()))
{
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(4, 0, 4, 0);
    row->setSpacing(8);
    row->addWidget(m_badge);
    row->addWidget(m_state);
    row->addWidget(separator(this));
    row->addWidget(m_address);
    row->addWidget(m_tunnel);
    m_tunnel->hide(); // a direct connection has no route to name
    row->addWidget(m_sentinel);
    m_sentinel->hide();
    // What the server said when last read: hidden while the tunnel to it is down.
    m_serverFacts = new QWidget(this);
    auto *facts = new QHBoxLayout(m_serverFacts);
    facts->setContentsMargins(0, 0, 0, 0);
    facts->setSpacing(8);
    for (QLabel *l : {m_version, m_mode, m_role}) {
        facts->addWidget(separator(this));
        facts->addWidget(l);
    }
    row->addWidget(m_serverFacts);
    row->addStretch(1);
    row->addWidget(m_activity);
    setTextColour(m_activity, Palette::muted());
    m_version->setText(tr("Server –"));
    m_mode->setText(tr("mode –"));
    m_role->setText(tr("role –"));
    setEnvironment(profiles::Environment::Local);
    setConnectionState(redis::ConnectionState::Idle, {});
}

void ConnectionStatusWidget::setEnvironment(profiles::Environment env)
{
    setEnvironmentBadge(m_badge, env);
}

void ConnectionStatusWidget::setAddress(const QString &address, const QString &user, bool tls)
{
    const QString who = user.isEmpty() ? address : QStringLiteral("%1@%2").arg(user, address);
    m_address->setText(tls ? tr("%1 · TLS").arg(who) : tr("%1 · no TLS").arg(who));
    m_address->setToolTip(tr("ACL user, server address, and whether the connection uses TLS"));
}

void ConnectionStatusWidget::setConnectionState(redis::ConnectionState state, const QString &detail)
{
    m_lastState = state;
    m_lastDetail = detail;
    // The transport's retries say nothing new while the tunnel under them is down.
    if (m_tunnelDown) {
        showState(Palette::error(), tr("Not connected"));
        return;
    }
    const StateLook look = lookOf(state);
    QString text = look.text;
    // While connected the detail is just the address, already shown next to it.
    if (!detail.isEmpty() && state != redis::ConnectionState::Ready)
        text += QStringLiteral(": ") + detail;
    showState(look.colour, text);
}

void ConnectionStatusWidget::showState(const QColor &colour, const QString &text)
{
    const QString shown = fontMetrics().elidedText(text, Qt::ElideRight, 720);
    m_state->setText(QStringLiteral("<span style=\"color:%1\">&#9679;</span> %2")
                         .arg(colour.name(), shown.toHtmlEscaped()));
    m_state->setToolTip(text);
    m_state->setProperty("plainText", text); // what tests and accessibility read
    m_state->setAccessibleName(text);
}

void ConnectionStatusWidget::setServer(const overview::ServerOverview &o)
{
    // Dashes read as "not known yet"; a user who may not run INFO never will know.
    if (o.denied(QStringLiteral("INFO"))) {
        m_version->setText(
            tr("Redis: INFO not allowed for %1").arg(o.user.isEmpty() ? tr("this user") : o.user));
        m_mode->hide();
        m_role->hide();
        return;
    }
    m_mode->show();
    m_version->setText(o.server.label().isEmpty() ? tr("Server –") : o.server.label());
    // The seed's own mode and role would say "cluster" and "primary" about one node of many.
    if (!m_cluster.isEmpty())
        return;
    m_role->show();
    m_mode->setText(o.server.mode.isEmpty() ? tr("mode –") : o.server.mode);
    m_role->setText(o.roleLabel().isEmpty() ? tr("role –") : o.roleLabel());
}

void ConnectionStatusWidget::setCluster(const QString &summary, const QStringList &downPrimaries)
{
    m_cluster = summary;
    m_clusterDown = !downPrimaries.isEmpty();
    if (summary.isEmpty()) {
        setTextColour(m_mode, QColor());
        setBold(m_mode, false);
        m_mode->setToolTip(tr("redis_mode from INFO"));
        return;
    }
    m_role->hide();
    m_mode->setText(summary);
    setTextColour(m_mode, m_clusterDown ? Palette::error() : QColor());
    setBold(m_mode, m_clusterDown);
    m_mode->setToolTip(m_clusterDown
                           ? tr("Primaries not reachable: %1. Keys in their slots cannot be "
                                "read or written until they are back.")
                                 .arg(downPrimaries.join(QStringLiteral(", ")))
                           : tr("Redis Cluster: every command goes to the primary owning "
                                "its keys' slot"));
}

void ConnectionStatusWidget::setSentinel(SentinelNews news, const QString &text, const QString &tip)
{
    const QColor colour = news == SentinelNews::Following ? Palette::ok()
                          : news == SentinelNews::Moved   ? Palette::attention()
                                                          : Palette::error();
    m_sentinel->setText(QStringLiteral("<span style=\"color:%1\">&#9679;</span> %2")
                            .arg(colour.name(), text.toHtmlEscaped()));
    m_sentinel->setToolTip(tip);
    m_sentinel->setProperty("plainText", text);
    m_sentinel->setAccessibleName(text);
    m_sentinel->show();
}

void ConnectionStatusWidget::setTunnel(Tunnel state, const QString &bastion, const QString &why)
{
    QColor colour = Palette::ok();
    QString text = tr("via SSH %1").arg(bastion);
    QString tip = tr("Every connection goes through the SSH tunnel via %1.").arg(bastion);
    switch (state) {
    case Tunnel::Up:
        break;
    case Tunnel::Closed:
        // Short enough for a 1366-pixel screen; the window title and the tooltip name it.
        colour = Palette::error();
        text = tr("SSH tunnel closed · commands in flight: outcome unknown · Ctrl+R reconnects");
        tip = why;
        break;
    case Tunnel::Reopening:
        colour = Palette::pending();
        text = tr("reopening the SSH tunnel via %1…").arg(bastion);
        break;
    case Tunnel::Failed:
        colour = Palette::error();
        text = tr("SSH tunnel via %1 not reopened · Ctrl+R tries again").arg(bastion);
        tip = why;
        break;
    }
    m_tunnel->setText(QStringLiteral("<span style=\"color:%1\">&#9679;</span> %2")
                          .arg(colour.name(), text.toHtmlEscaped()));
    m_tunnel->setToolTip(tip);
    m_tunnel->setProperty("plainText", text); // what tests and accessibility read
    m_tunnel->setAccessibleName(text);
    m_tunnel->show();
    m_tunnelDown = state != Tunnel::Up;
    m_serverFacts->setVisible(!m_tunnelDown);
    setConnectionState(m_lastState, m_lastDetail);
}

void ConnectionStatusWidget::setActivity(const QString &text)
{
    // A long message (a scan stopped short, an error) would widen the bar past the window and
    // cut its end off: the bar shows its start, the tooltip all of it.
    const QString shown = fontMetrics().elidedText(text, Qt::ElideRight, 480);
    m_activity->setText(shown);
    m_activity->setToolTip(shown == text ? QString() : text);
}

} // namespace ui
