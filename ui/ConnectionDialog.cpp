// SPDX-License-Identifier: GPL-3.0-or-later
#include "ConnectionDialog.h"

#include "ui/common/Palette.h"

#include "ProfileListPanel.h"
#include "UiLog.h"
#include "profiles/ProfileStore.h"
#include "profiles/RedisUrl.h"
#include "profiles/SecretStore.h"
#include "sentinel/SentinelUrl.h"
#include "session/SentinelConfig.h"
#include "ui/connect/ClusterForm.h"
#include "ui/connect/ConnectionForm.h"
#include "ui/connect/ConnectionTestArea.h"
#include "ui/connect/FormParts.h"
#include "ui/connect/KeySchemaForm.h"
#include "ui/connect/ProfileForm.h"
#include "ui/connect/SentinelForm.h"
#include "ui/connect/SshForm.h"
#include "ui/connect/TlsForm.h"
#include "ui/connect/TunnelOpener.h"

#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QStyle>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ui {

ConnectionDialog::ConnectionDialog(profiles::ProfileStore &profiles, profiles::SecretStore &secrets,
                                   QWidget *parent)
    : QDialog(parent)
    , m_profiles(profiles)
    , m_secrets(secrets)
{
    setWindowTitle(tr("Connection profile"));
    setObjectName(QStringLiteral("connectionDialog"));

    QWidget *form = buildForm();
    m_problems = new QLabel;
    m_problems->setObjectName(QStringLiteral("problems"));
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(errorStyle());
    m_problems->hide();
    QHBoxLayout *buttons = buildButtons();
    buildProfileList();

    // The saved profiles on the left, the form of the chosen one on the right.
    auto *columns = new QHBoxLayout;
    columns->addWidget(m_list);
    columns->addWidget(form, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(m_problems);
    layout->addLayout(buttons);

    connect(&m_secrets, &profiles::SecretStore::backendChanged, this,
            &ConnectionDialog::updateStorageNote);
    updateStorageNote();
    // Open on the first saved profile, ready to connect; a new user sees an empty form.
    if (m_list->list()->count() > 0) {
        m_list->list()->setCurrentRow(0);
        m_list->list()->setFocus();
    } else {
        m_url->setFocus(); // most first connections start from a URL
    }
    // At most what the screen offers: at 1366x768 the dialog (760 px at y=40) put Save,
    // Cancel and Connect on the last pixels of the screen.
    QSize size(980, 760);
    if (const QScreen *screen = parent ? parent->screen() : QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableGeometry().size() * 0.9);
    resize(size.expandedTo(minimumSizeHint()));
}

ConnectionDialog::~ConnectionDialog() = default;

QWidget *ConnectionDialog::buildUrlBox()
{
    m_url = new QLineEdit;
    m_url->setObjectName(QStringLiteral("urlEdit"));
    m_url->setPlaceholderText(tr(
        "redis://user:password@host:6379/0, rediss://… for TLS, or redis-sentinel://s1,s2#name"));
    m_url->setClearButtonEnabled(true);
    auto *fill = new QPushButton(tr("Fill form"));
    fill->setObjectName(QStringLiteral("fillButton"));
    fill->setAutoDefault(false);
    m_urlError = noteLabel();
    m_urlError->setObjectName(QStringLiteral("urlNote"));
    m_urlError->hide();
    connect(fill, &QPushButton::clicked, this, [this] { fillFromUrl(m_url->text()); });
    connect(m_url, &QLineEdit::returnPressed, this, [this] { fillFromUrl(m_url->text()); });

    auto *urlBox = new QWidget;
    auto *urlLayout = new QVBoxLayout(urlBox);
    urlLayout->setContentsMargins(0, 0, 0, 0);
    urlLayout->addWidget(new QLabel(tr("Paste a URL to fill the form:")));
    urlLayout->addWidget(row({m_url, fill}));
    urlLayout->addWidget(m_urlError);
    return urlBox;
}

// The URL above the tabs, the tabs, the test below them.
QWidget *ConnectionDialog::buildForm()
{
    QWidget *urlBox = buildUrlBox();
    m_connection = new ConnectionForm;
    m_tls = new TlsForm;
    auto *keys = new KeySchemaForm;
    auto *cluster = new ClusterForm;
    auto *sshForm = new SshForm;
    connect(sshForm, &SshForm::bastionSet, m_connection, &ConnectionForm::setThroughBastion);
    m_sentinel = new SentinelForm;
    connect(m_sentinel, &SentinelForm::masterSet, m_connection, &ConnectionForm::setBehindSentinel);
    m_forms = {m_connection, m_tls, sshForm, m_sentinel, keys, cluster};
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("profileTabs"));
    m_tabs->addTab(m_connection, tr("Connection"));
    m_tabs->addTab(m_tls, tr("TLS"));
    m_tabs->addTab(sshForm, tr("SSH"));
    m_tabs->addTab(m_sentinel, tr("Sentinel"));
    m_tabs->addTab(keys, tr("Key schema"));
    m_tabs->addTab(cluster, tr("Cluster && replicas"));
    m_test = new ConnectionTestArea;
    connect(m_test, &ConnectionTestArea::testRequested, this, &ConnectionDialog::startTest);
    connect(m_test, &ConnectionTestArea::finished, this, &ConnectionDialog::testFinished);

    auto *form = new QWidget;
    auto *formLayout = new QVBoxLayout(form);
    formLayout->setContentsMargins(0, 0, 0, 0);
    formLayout->addWidget(urlBox);
    formLayout->addWidget(m_tabs);
    formLayout->addWidget(m_test, 1);
    return form;
}

QHBoxLayout *ConnectionDialog::buildButtons()
{
    // Save keeps the dialog open; Connect saves too, then opens the session. Plain buttons,
    // none of them default: Enter must not look as if it would press one.
    auto *save = new QPushButton(tr("&Save"));
    save->setObjectName(QStringLiteral("saveButton"));
    auto *connectButton = new QPushButton(tr("&Connect"));
    connectButton->setObjectName(QStringLiteral("connectButton"));
    auto *cancel = new QPushButton(tr("Cancel")); // Alt+C is Connect; Escape cancels
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(save);
    buttons->addStretch(1);
    buttons->addWidget(cancel);
    buttons->addWidget(connectButton);
    for (QPushButton *b : {save, connectButton, cancel})
        b->setAutoDefault(false);
    connect(save, &QPushButton::clicked, this, [this] { this->save(); });
    connect(connectButton, &QPushButton::clicked, this, &ConnectionDialog::accept);
    connect(cancel, &QPushButton::clicked, this, &ConnectionDialog::reject);
    return buttons;
}

void ConnectionDialog::buildProfileList()
{
    m_list = new ProfileListPanel(m_profiles);
    m_list->setMinimumWidth(230);
    connect(m_list, &ProfileListPanel::profileChosen, this, &ConnectionDialog::setProfile);
    connect(m_list, &ProfileListPanel::newRequested, this,
            [this] { setProfile(profiles::ConnectionProfile{}); });
    connect(m_list, &ProfileListPanel::duplicateRequested, this, [this] {
        // Saving the copy must not rename the original.
        m_previousName.clear();
        m_connection->nameAsCopy();
    });
    connect(m_list, &ProfileListPanel::deleteRequested, this, &ConnectionDialog::removeProfile);
}

void ConnectionDialog::updateStorageNote()
{
    m_connection->setStorageNote(m_secrets.storageNote());
}

void ConnectionDialog::removeProfile(const QString &name)
{
    if (name.isEmpty()
        || QMessageBox::question(this, tr("Delete profile"),
                                 tr("Delete the profile '%1' and its saved passwords?").arg(name))
               != QMessageBox::Yes)
        return;
    m_profiles.remove(name);
    using Account = profiles::SecretStore::Account;
    for (Account account : {Account::Main, Account::Release, Account::Sentinel, Account::Ledger})
        m_secrets.remove(profiles::SecretStore::keyFor(name, account));
    m_list->reload();
    setProfile(profiles::ConnectionProfile{});
}

void ConnectionDialog::setProfile(const profiles::ConnectionProfile &p)
{
    m_previousName = p.name;
    m_ledger = p.ledger; // kept by the Reconcile tab; no field of this dialog edits it
    m_test->reset();
    clearProblems();
    for (ProfileForm *form : std::as_const(m_forms))
        form->load(p);
    if (p.name.isEmpty())
        return; // a new profile has no saved passwords
    m_secrets.load(profiles::SecretStore::keyFor(p.name), this,
                   [this](const std::optional<QString> &s) {
                       if (s)
                           m_connection->offerPassword(*s);
                   });
    m_secrets.load(profiles::SecretStore::keyFor(p.name, profiles::SecretStore::Account::Release),
                   this, [this](const std::optional<QString> &s) {
                       if (s)
                           m_connection->offerReleasePassword(*s);
                   });
    m_secrets.load(profiles::SecretStore::keyFor(p.name, profiles::SecretStore::Account::Sentinel),
                   this, [this](const std::optional<QString> &s) {
                       if (s)
                           m_sentinel->offerPassword(*s);
                   });
}

profiles::ConnectionProfile ConnectionDialog::profile() const
{
    profiles::ConnectionProfile p;
    for (const ProfileForm *form : m_forms)
        form->apply(p);
    p.ledger = m_ledger;
    return p;
}

QString ConnectionDialog::password() const
{
    return m_connection->password();
}

QString ConnectionDialog::releasePassword() const
{
    return m_connection->releasePassword();
}

QString ConnectionDialog::sentinelPassword() const
{
    return m_sentinel->password();
}

bool ConnectionDialog::fillFromUrl(const QString &url)
{
    if (sentinel::isSentinelUrl(url))
        return fillFromSentinelUrl(url);
    const auto parsed = profiles::parseRedisUrl(url);
    m_urlError->show();
    if (!parsed.ok()) {
        m_urlError->setStyleSheet(errorStyle());
        m_urlError->setText(tr("Cannot read this URL: %1").arg(parsed.error().message));
        return false;
    }
    m_connection->fillFromUrl(*parsed);
    m_tls->fillFromUrl(*parsed);
    // The URL may hold a password: it does not stay on screen.
    m_url->clear();
    m_urlError->setStyleSheet(QString());
    m_urlError->setText(parsed->hasPassword
                            ? tr("Filled from the URL; its password is in the password field.")
                            : tr("Filled from the URL."));
    m_tabs->setCurrentIndex(0);
    return true;
}

bool ConnectionDialog::fillFromSentinelUrl(const QString &url)
{
    const auto parsed = sentinel::parseSentinelUrl(url, core::Wording::Translated);
    m_urlError->show();
    if (!parsed.ok()) {
        m_urlError->setStyleSheet(errorStyle());
        m_urlError->setText(tr("Cannot read this URL: %1").arg(parsed.error()));
        return false;
    }
    // The data node's user, password and database, as Lettuce reads them; the host and port
    // stay as they are (the sentinels name the server).
    profiles::ParsedRedisUrl dataNode;
    dataNode.profile = profile();
    dataNode.profile.username = parsed->username;
    dataNode.profile.database = parsed->database;
    dataNode.profile.tls.enabled = parsed->tls;
    dataNode.password = parsed->password;
    dataNode.hasPassword = parsed->hasPassword;
    m_connection->fillFromUrl(dataNode, parsed->masterName);
    m_tls->fillFromUrl(dataNode);
    m_sentinel->fillFromUrl(parsed.value());
    m_url->clear();
    m_urlError->setStyleSheet(QString());
    m_urlError->setText(
        parsed->hasPassword
            ? tr("Filled the Sentinel tab from the URL; the data node's password is in the "
                 "password field. Give the sentinels' own password on the Sentinel tab.")
            : tr("Filled the Sentinel tab from the URL. Give the sentinels' own user and "
                 "password there if they need one."));
    m_tabs->setCurrentWidget(m_sentinel);
    return true;
}

void ConnectionDialog::startTest()
{
    const profiles::ConnectionProfile p = profile();
    qCDebug(lcUi) << "testing connection profile" << p.name;
    // With a release user, its own login and permissions are tested too.
    m_test->start(p, password(),
                  p.releaseUsername.isEmpty() ? std::nullopt
                                              : std::optional<QString>(releasePassword()),
                  sentinelPassword());
}

bool ConnectionDialog::isTesting() const
{
    return m_test->isRunning();
}

QWidget *ConnectionDialog::fieldWidget(const QString &field) const
{
    for (const ProfileForm *form : m_forms)
        if (QWidget *w = form->fieldWidget(field))
            return w;
    return nullptr;
}

void ConnectionDialog::clearProblems()
{
    m_problems->setStyleSheet(errorStyle());
    for (int i = 0; i < m_tabs->count(); ++i)
        m_tabs->setTabIcon(i, QIcon());
    for (QWidget *w : m_flagged)
        w->setStyleSheet(QString());
    m_flagged.clear();
    m_problems->clear();
    m_problems->hide();
}

void ConnectionDialog::showProblems(const QList<profiles::ProfileProblem> &problems)
{
    QStringList lines;
    QWidget *first = nullptr;
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    for (const auto &p : problems) {
        QWidget *w = fieldWidget(p.field);
        int tab = -1;
        for (int i = 0; w && i < m_tabs->count(); ++i)
            if (m_tabs->widget(i)->isAncestorOf(w))
                tab = i;
        // Say which tab, so that a problem on a hidden tab can be found. The title as shown:
        // a mnemonic's "&" dropped, a "&&" one "&".
        const auto shown = [](QString title) {
            static const QRegularExpression mnemonic(QStringLiteral("&(.)"));
            return title.replace(mnemonic, QStringLiteral("\\1"));
        };
        lines << QStringLiteral("• %1%2").arg(
            tab >= 0 ? shown(m_tabs->tabText(tab)) + QStringLiteral(": ") : QString(), p.message);
        if (w) {
            w->setStyleSheet(QStringLiteral("border: 1px solid %1;").arg(Palette::error().name()));
            m_flagged << w;
            if (tab >= 0)
                m_tabs->setTabIcon(tab, warning);
            if (!first)
                first = w;
        }
    }
    m_problems->setText(tr("Not saved:\n%1").arg(lines.join(QLatin1Char('\n'))));
    m_problems->show();
    if (first) {
        for (int i = 0; i < m_tabs->count(); ++i)
            if (m_tabs->widget(i)->isAncestorOf(first))
                m_tabs->setCurrentIndex(i);
        first->setFocus();
    }
}

void ConnectionDialog::keyPressEvent(QKeyEvent *event)
{
    // Enter in a field must never save and connect (a pasted URL plus Enter used to connect
    // before anyone looked at the label): saving takes a click or Alt+S. Escape still cancels.
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        event->accept();
        return;
    }
    QDialog::keyPressEvent(event);
}

void ConnectionDialog::accept()
{
    if (!save())
        return;
    m_tunnel.reset();
    m_found.reset();
    const profiles::ConnectionProfile p = profile();
    if (!p.ssh.enabled()) {
        findPrimary(p);
        return;
    }
    // Behind a bastion the session starts only once its tunnel is up; a failure (already
    // explained by the opener) leaves the form open.
    if (!m_opener) {
        m_opener = new TunnelOpener(this);
        connect(m_opener, &TunnelOpener::opened, this,
                [this](std::shared_ptr<ssh::SshTunnel> tunnel) {
                    m_tunnel = std::move(tunnel);
                    findPrimary(profile());
                });
    }
    m_opener->open(p);
}

void ConnectionDialog::findPrimary(const profiles::ConnectionProfile &p)
{
    if (!p.sentinel.enabled()) {
        QDialog::accept();
        return;
    }
    const auto config = session::sentinelConfig(p, password(), sentinelPassword(), m_tunnel);
    if (!config.ok()) {
        showProblems({{QStringLiteral("sentinel.sentinels"), config.error()}});
        return;
    }
    if (!m_sentinelOpener) {
        m_sentinelOpener = new SentinelOpener(this);
        connect(m_sentinelOpener, &SentinelOpener::resolved, this,
                [this](const FoundPrimary &found) {
                    m_found = found;
                    QDialog::accept();
                });
    }
    m_sentinelOpener->open(config.value());
}

// A password this dialog does not show (the ledger's) follows a renamed profile.
void ConnectionDialog::moveSecret(const QString &from, const QString &to)
{
    profiles::SecretStore *secrets = &m_secrets;
    m_secrets.load(from, secrets, [secrets, from, to](const std::optional<QString> &secret) {
        if (!secret)
            return;
        secrets->store(
            to, *secret, secrets,
            [secrets, from](const profiles::SecretStore::StoreResult &) { secrets->remove(from); });
    });
}

bool ConnectionDialog::save()
{
    clearProblems();
    const profiles::ConnectionProfile p = profile();
    const auto saved = m_profiles.save(p, m_previousName);
    if (!saved.ok()) {
        showProblems(saved.error());
        return false;
    }
    using Account = profiles::SecretStore::Account;
    const auto keep = [this](const QString &key, const QString &secret) {
        if (secret.isEmpty()) {
            m_secrets.remove(key);
            return;
        }
        // The store outlives the dialog: the keyring may answer after it has closed.
        m_secrets.store(key, secret, &m_secrets, [](const profiles::SecretStore::StoreResult &r) {
            qCInfo(lcUi) << "password:" << r.note;
        });
    };
    keep(profiles::SecretStore::keyFor(p.name), password());
    keep(profiles::SecretStore::keyFor(p.name, Account::Release), releasePassword());
    keep(profiles::SecretStore::keyFor(p.name, Account::Sentinel), sentinelPassword());
    if (!m_previousName.isEmpty() && m_previousName != p.name) {
        m_secrets.remove(profiles::SecretStore::keyFor(m_previousName));
        m_secrets.remove(profiles::SecretStore::keyFor(m_previousName, Account::Release));
        m_secrets.remove(profiles::SecretStore::keyFor(m_previousName, Account::Sentinel));
        moveSecret(profiles::SecretStore::keyFor(m_previousName, Account::Ledger),
                   profiles::SecretStore::keyFor(p.name, Account::Ledger));
    }
    m_previousName = p.name;
    m_list->reload(p.name);
    m_problems->setStyleSheet(Palette::textStyle(Palette::ok()));
    m_problems->setText(tr("Saved as '%1' (%2).").arg(p.name, p.environmentLabel()));
    m_problems->show();
    emit profileSaved(p);
    return true;
}

} // namespace ui
