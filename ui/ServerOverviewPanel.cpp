// SPDX-License-Identifier: GPL-3.0-or-later
#include "ServerOverviewPanel.h"

#include "ClusterNodesBox.h"
#include "LibraryTableModel.h"
#include "ui/common/NoticeBanner.h"
#include "ui/common/Palette.h"
#include "ui/common/TableSizing.h"
#include "ui/common/TextStyle.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace ui {

namespace {

NoticeBanner *banner(QWidget *parent, const char *name, NoticeBanner::Kind kind)
{
    auto *b = new NoticeBanner(kind, parent);
    b->setObjectName(QLatin1String(name));
    b->setTextFormat(Qt::RichText);
    return b;
}

QGroupBox *group(const QString &title, QFormLayout **form, QWidget *parent)
{
    auto *box = new QGroupBox(title, parent);
    *form = new QFormLayout(box);
    (*form)->setLabelAlignment(Qt::AlignRight);
    (*form)->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    (*form)->setHorizontalSpacing(16);
    (*form)->setVerticalSpacing(8);
    return box;
}

} // namespace

QLabel *ServerOverviewPanel::value(const char *name)
{
    auto *l = new QLabel(QStringLiteral("–"), this);
    l->setObjectName(QLatin1String(name));
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

ServerOverviewPanel::ServerOverviewPanel(QWidget *parent)
    : QWidget(parent)
    , m_stamp(new QLabel(this))
    , m_error(banner(this, "overviewError", NoticeBanner::Kind::Danger))
    , m_reconnect(new QPushButton(tr("Reconnect"), this))
    , m_evictionWarning(banner(this, "evictionWarning", NoticeBanner::Kind::Warning))
    , m_denied(banner(this, "deniedReads", NoticeBanner::Kind::Warning))
    , m_identity(banner(this, "identityChanged", NoticeBanner::Kind::Danger))
    , m_address(value("addressValue"))
    , m_version(value("versionValue"))
    , m_mode(value("modeValue"))
    , m_role(value("roleValue"))
    , m_uptime(value("uptimeValue"))
    , m_memoryUsed(value("memoryUsedValue"))
    , m_memoryLimit(value("memoryLimitValue"))
    , m_memoryBar(new QProgressBar(this))
    , m_policy(value("evictionPolicyValue"))
    , m_keysLabel(new QLabel(this))
    , m_keys(value("keyCountValue"))
    , m_libraryCount(value("libraryCountValue"))
    , m_libraries(new QTableView(this))
    , m_librariesMessage(new QLabel(this))
    , m_libraryModel(new LibraryTableModel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(10);
    layout->addLayout(createHeader());
    // The failure banner with its way out next to it.
    auto *errorRow = new QHBoxLayout;
    errorRow->addWidget(m_error, 1);
    errorRow->addWidget(m_reconnect, 0, Qt::AlignTop);
    m_reconnect->setObjectName(QStringLiteral("reconnectButton"));
    m_reconnect->setToolTip(tr("File > Reconnect (Ctrl+R)"));
    m_reconnect->hide();
    connect(m_reconnect, &QPushButton::clicked, this, &ServerOverviewPanel::reconnectRequested);
    layout->addLayout(errorRow);
    layout->addWidget(m_identity);
    layout->addWidget(m_denied);
    layout->addWidget(m_evictionWarning);
    layout->addLayout(createCards());
    m_nodes = new ClusterNodesBox(this);
    layout->addWidget(m_nodes);
    layout->addWidget(createLibraryBox());
    fitHeightToRows(m_libraries, 1, 10);
    boldGroupTitles(this);
    updateStamp();
}

QHBoxLayout *ServerOverviewPanel::createHeader()
{
    auto *title = new QLabel(tr("Server overview"), this);
    QFont big = title->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    title->setFont(big);
    m_stamp->setObjectName(QStringLiteral("overviewUpdated"));
    setTextColour(m_stamp, Palette::muted());
    auto *header = new QHBoxLayout;
    header->addWidget(title);
    header->addStretch(1);
    header->addWidget(m_stamp);
    return header;
}

// Server, memory and keyspace, side by side.
QHBoxLayout *ServerOverviewPanel::createCards()
{
    QFormLayout *form = nullptr;
    QGroupBox *server = group(tr("Server"), &form, this);
    form->addRow(tr("Address:"), m_address);
    form->addRow(tr("Version:"), m_version);
    form->addRow(tr("Mode:"), m_mode);
    form->addRow(tr("Role:"), m_role);
    form->addRow(tr("Uptime:"), m_uptime);

    QGroupBox *memory = group(tr("Memory and eviction"), &form, this);
    m_memoryBar->setObjectName(QStringLiteral("memoryBar"));
    m_memoryBar->setRange(0, 1000);
    m_memoryBar->setTextVisible(true);
    m_memoryBar->setMaximumWidth(320);
    m_memoryBar->hide();
    m_memoryBar->setToolTip(tr("used_memory as a share of maxmemory"));
    form->addRow(tr("Used:"), m_memoryUsed);
    form->addRow(tr("Limit (maxmemory):"), m_memoryLimit);
    form->addRow(QString(), m_memoryBar);
    form->addRow(tr("Eviction policy:"), m_policy);

    QGroupBox *keyspace = group(tr("Keyspace"), &form, this);
    setDatabase(0);
    form->addRow(m_keysLabel, m_keys);
    form->addRow(tr("Function libraries:"), m_libraryCount);

    auto *cards = new QHBoxLayout;
    cards->setSpacing(12);
    cards->addWidget(server, 1);
    cards->addWidget(memory, 1);
    cards->addWidget(keyspace, 1);
    return cards;
}

QGroupBox *ServerOverviewPanel::createLibraryBox()
{
    auto *libBox = new QGroupBox(tr("Loaded function libraries (FUNCTION LIST)"), this);
    auto *libLayout = new QVBoxLayout(libBox);
    m_libraries->setObjectName(QStringLiteral("librariesTable"));
    m_libraries->setModel(m_libraryModel);
    m_libraries->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_libraries->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_libraries->setAlternatingRowColors(true);
    m_libraries->verticalHeader()->hide();
    m_libraries->horizontalHeader()->setStretchLastSection(true);
    m_libraries->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_libraries->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_libraries->horizontalHeader()->setSectionResizeMode(LibraryTableModel::Names,
                                                          QHeaderView::Stretch);
    m_librariesMessage->setObjectName(QStringLiteral("librariesMessage"));
    m_librariesMessage->setAlignment(Qt::AlignCenter);
    m_librariesMessage->setWordWrap(true);
    m_librariesMessage->setText(tr("Waiting for the first answer from the server…"));
    libLayout->addWidget(m_librariesMessage);
    libLayout->addWidget(m_libraries);
    m_libraries->hide();
    return libBox;
}

void ServerOverviewPanel::setNodes(const QList<overview::NodeOverview> &nodes, const QString &seed)
{
    m_nodes->setNodes(nodes, seed);
    // On a cluster the list below is one node's: say which (the nodes table has them all).
    if (auto *box = qobject_cast<QGroupBox *>(m_libraries->parentWidget()))
        box->setTitle(nodes.isEmpty()
                          ? tr("Loaded function libraries (FUNCTION LIST)")
                          : tr("Loaded function libraries on %1 (FUNCTION LIST)").arg(seed));
}

void ServerOverviewPanel::setDatabase(int db)
{
    m_keysLabel->setText(tr("Keys in db %1:").arg(db));
}

void ServerOverviewPanel::setRefreshInterval(int ms)
{
    m_intervalMs = ms;
    updateStamp();
}

void ServerOverviewPanel::setRefreshing(bool refreshing)
{
    m_refreshing = refreshing;
    updateStamp();
}

void ServerOverviewPanel::updateStamp()
{
    QString text = m_lastUpdate.isValid()
                       ? tr("Updated %1").arg(m_lastUpdate.toString(QStringLiteral("HH:mm:ss")))
                       : tr("Not loaded yet");
    if (m_refreshing)
        text += tr(" · refreshing…");
    text += tr(" · every %1 s · F5 refreshes now").arg(m_intervalMs / 1000);
    m_stamp->setText(text);
}

void ServerOverviewPanel::setOverview(const overview::ServerOverview &o, const QDateTime &when)
{
    m_lastUpdate = when;
    m_refreshing = false;
    updateStamp();
    m_error->hide();
    m_reconnect->hide();

    // A restart seen between two overviews stays said for the rest of the session.
    if (const QString changed =
            overview::identityChangeSentence(m_previous, o, QDateTime::currentDateTime());
        !changed.isEmpty()) {
        m_identity->setText(changed.toHtmlEscaped());
        m_identity->show();
        m_identityChange = overview::identityChange(m_previous, o);
    }
    if (!o.runId.isEmpty())
        m_previous = o;
    // Reads this user may not run: one banner says which and for whom, and the values they
    // would fill say "not allowed" rather than a misleading zero.
    m_denied->setText(o.deniedSummary().toHtmlEscaped());
    m_denied->setVisible(!o.deniedReads.isEmpty());
    showServer(o);
    showMemory(o);
    showEvictionWarning(o);
    m_keys->setText(o.denied(QStringLiteral("DBSIZE")) ? notAllowed(o)
                    : o.keyCount < 0                   ? tr("unknown")
                                                       : QLocale().toString(o.keyCount));
    showLibraries(o);
}

QString ServerOverviewPanel::notAllowed(const overview::ServerOverview &o) const
{
    return tr("not allowed for user %1").arg(o.user);
}

void ServerOverviewPanel::showServer(const overview::ServerOverview &o)
{
    const bool noInfo = o.denied(QStringLiteral("INFO"));
    m_address->setText(o.address);
    const auto known = [&](const QString &v) {
        return noInfo ? notAllowed(o) : v.isEmpty() ? tr("unknown") : v;
    };
    m_version->setText(known(o.server.label()));
    m_mode->setText(known(o.server.mode));
    m_role->setText(known(o.roleLabel()));
    m_uptime->setText(noInfo
                          ? notAllowed(o)
                          : overview::formatDuration(o.uptimeSeconds, core::Wording::Translated));
}

void ServerOverviewPanel::showMemory(const overview::ServerOverview &o)
{
    const bool noInfo = o.denied(QStringLiteral("INFO"));
    m_memoryUsed->setText(noInfo ? notAllowed(o) : overview::formatBytes(o.usedMemory));
    if (noInfo) {
        m_memoryLimit->setText(notAllowed(o));
        m_memoryBar->hide();
    } else if (o.maxMemory > 0) {
        m_memoryLimit->setText(overview::formatBytes(o.maxMemory));
        const double share = double(o.usedMemory) / double(o.maxMemory);
        m_memoryBar->setValue(int(qBound(0.0, share, 1.0) * 1000));
        m_memoryBar->setFormat(tr("%1 % of the limit").arg(share * 100, 0, 'f', 1));
        m_memoryBar->show();
    } else {
        m_memoryLimit->setText(tr("no limit"));
        m_memoryBar->hide();
    }
    m_policy->setText(!o.evictionPolicy.isEmpty()              ? o.evictionPolicy
                      : o.denied(QStringLiteral("CONFIG GET")) ? notAllowed(o)
                                                               : tr("unknown"));
}

void ServerOverviewPanel::showEvictionWarning(const overview::ServerOverview &o)
{
    if (!o.evictionCanDropReceipts()) {
        m_evictionWarning->hide();
        return;
    }
    const QString when = o.maxMemory > 0
                             ? tr("When memory reaches the %1 limit, Redis may delete")
                                   .arg(overview::formatBytes(o.maxMemory))
                             : tr("No memory limit is set now, but once one is, Redis may "
                                  "delete");
    m_evictionWarning->setText(
        tr("<b>Eviction can drop idempotency receipts.</b> The policy is <b>%1</b>. %2 "
           "receipts (<tt>idem:{sku}:order</tt>, which have TTLs) before they expire. A "
           "receipt's TTL is the whole window of protection against a double deduction: an "
           "evicted receipt lets a retried order deduct stock again. Prefer "
           "<tt>noeviction</tt> on servers that hold receipts.")
            .arg(o.evictionPolicy.toHtmlEscaped(), when));
    m_evictionWarning->show();
}

void ServerOverviewPanel::showLibraries(const overview::ServerOverview &o)
{
    if (o.denied(QStringLiteral("FUNCTION LIST"))) {
        m_libraryCount->setText(notAllowed(o));
        m_librariesMessage->setText(
            tr("FUNCTION LIST is not allowed for user %1: the loaded libraries are unknown here. "
               "The Libraries tab reads them as the release user, when the profile has one.")
                .arg(o.user));
        showLibraryMessage(true);
        m_libraryModel->setLibraries({});
        return;
    }
    if (!o.librariesError.isEmpty()) {
        m_libraryCount->setText(tr("unknown"));
        m_librariesMessage->setText(tr("FUNCTION LIST failed: %1").arg(o.librariesError));
        showLibraryMessage(true);
        m_libraryModel->setLibraries({});
        return;
    }
    m_libraryModel->setLibraries(o.libraries);
    m_libraryCount->setText(QLocale().toString(qsizetype(o.libraries.size())));
    if (o.libraries.isEmpty())
        m_librariesMessage->setText(tr("No function libraries are loaded on this server."));
    showLibraryMessage(o.libraries.isEmpty());
    fitHeightToRows(m_libraries, 1, 10);
}

QString ServerOverviewPanel::identityText() const
{
    return m_identity->isHidden() ? QString() : m_identity->text();
}

QString ServerOverviewPanel::deniedText() const
{
    return m_denied->isHidden() ? QString() : m_denied->text();
}

void ServerOverviewPanel::showLibraryMessage(bool message)
{
    m_librariesMessage->setVisible(message);
    m_libraries->setVisible(!message);
}

void ServerOverviewPanel::setFetchError(const redis::RedisError &error)
{
    if (!m_tunnelProblem.isEmpty())
        return setTunnelProblem(m_tunnelProblem);
    m_refreshing = false;
    updateStamp();
    const QString shown = m_lastUpdate.isValid()
                              ? tr("The values below are from %1.")
                                    .arg(m_lastUpdate.toString(QStringLiteral("HH:mm:ss")))
                              : tr("Nothing has been loaded yet.");
    m_error->setNotice(
        tr("<b>Could not refresh the overview</b> (%1): %2")
            .arg(error.kindName().text.toHtmlEscaped(), error.toString().text.toHtmlEscaped()),
        shown);
    m_reconnect->show();
}

void ServerOverviewPanel::setTunnelProblem(const QString &why)
{
    m_tunnelProblem = why;
    if (why.isEmpty())
        return; // the next refresh clears the notice
    m_refreshing = false;
    updateStamp();
    const QString next = tr("Reconnect (Ctrl+R) opens the tunnel again.");
    m_error->setNotice(
        tr("<b>Not connected: the SSH tunnel closed.</b> %1").arg(why.toHtmlEscaped()),
        m_lastUpdate.isValid() ? tr("The values below are from %1. %2")
                                     .arg(m_lastUpdate.toString(QStringLiteral("HH:mm:ss")), next)
                               : next);
    m_reconnect->show();
}

void ServerOverviewPanel::setConnectionProblem(const QString &detail)
{
    if (!m_tunnelProblem.isEmpty())
        return setTunnelProblem(m_tunnelProblem);
    m_refreshing = false;
    updateStamp();
    if (m_error->isHidden()) { // a failed refresh already says what went wrong
        m_error->setNotice(tr("<b>Not connected</b>: %1").arg(detail.toHtmlEscaped()),
                           tr("Reconnect (Ctrl+R) tries again now."));
    }
    m_reconnect->show();
    if (!m_lastUpdate.isValid()) { // nothing will come until the connection is back
        m_librariesMessage->setText(tr("No answer from the server: %1").arg(detail));
        showLibraryMessage(true);
    }
}

} // namespace ui
