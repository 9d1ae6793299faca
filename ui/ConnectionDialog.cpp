#include "ConnectionDialog.h"

#include "ui/common/Palette.h"

#include "ProfileListPanel.h"
#include "UiLog.h"
#include "session/AnnouncedMapField.h"
#include "session/ConnectionProbe.h"
#include "session/ProfileStore.h"
#include "session/RedisUrl.h"
#include "session/SecretStore.h"
#include "session/ServerOverview.h"
#include "ui/common/EnvironmentStyle.h"

#include <QAbstractItemView>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSpinBox>
#include <QStyle>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ui {

namespace {

const QList<session::Environment> Environments{
    session::Environment::Local, session::Environment::Test, session::Environment::Staging,
    session::Environment::Production};

QIcon swatchIcon(const QColor &colour)
{
    QPixmap pixmap(14, 14);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setBrush(colour);
    painter.setPen(colour.darker(130));
    painter.drawRoundedRect(QRectF(0.5, 0.5, 13, 13), 3, 3);
    return QIcon(pixmap);
}

// A smaller, softer line under a field; still readable (text colour, partly transparent).
QLabel *noteLabel(const QString &text = {})
{
    auto *label = new QLabel(text);
    label->setWordWrap(true);
    QFont f = label->font();
    f.setPointSizeF(f.pointSizeF() * 0.92);
    label->setFont(f);
    QPalette pal = label->palette();
    QColor c = pal.color(QPalette::WindowText);
    c.setAlpha(170);
    pal.setColor(QPalette::WindowText, c);
    label->setPalette(pal);
    return label;
}

// A field with its note right under it, in one form cell.
QWidget *withNote(QWidget *field, QLabel *note)
{
    auto *w = new QWidget;
    auto *v = new QVBoxLayout(w);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    v->addWidget(field);
    v->addWidget(note);
    return w;
}

QWidget *row(std::initializer_list<QWidget *> widgets, int stretchIndex = 0)
{
    auto *w = new QWidget;
    auto *h = new QHBoxLayout(w);
    h->setContentsMargins(0, 0, 0, 0);
    int i = 0;
    for (QWidget *child : widgets)
        h->addWidget(child, i++ == stretchIndex ? 1 : 0);
    return w;
}

const QString ErrorStyle = Palette::textStyle(Palette::error());

} // namespace

ConnectionDialog::ConnectionDialog(session::ProfileStore &profiles, session::SecretStore &secrets,
                                   QWidget *parent)
    : QDialog(parent)
    , m_profiles(profiles)
    , m_secrets(secrets)
    , m_probe(new session::ConnectionProbe(this))
{
    setWindowTitle(tr("Connection profile"));
    setObjectName(QStringLiteral("connectionDialog"));

    m_url = new QLineEdit;
    m_url->setObjectName(QStringLiteral("urlEdit"));
    m_url->setPlaceholderText(tr("redis://user:password@host:6379/0  or  rediss://… for TLS"));
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

    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("profileTabs"));
    m_tabs->addTab(buildConnectionTab(), tr("Connection"));
    m_tabs->addTab(buildTlsTab(), tr("TLS"));
    m_tabs->addTab(buildKeysTab(), tr("Key schema"));
    m_tabs->addTab(buildClusterTab(), tr("Cluster && replicas"));

    m_problems = new QLabel;
    m_problems->setObjectName(QStringLiteral("problems"));
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(ErrorStyle);
    m_problems->hide();

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

    // The saved profiles on the left, the form of the chosen one on the right.
    m_list = new ProfileListPanel(m_profiles);
    m_list->setMinimumWidth(230);
    connect(m_list, &ProfileListPanel::profileChosen, this, &ConnectionDialog::setProfile);
    connect(m_list, &ProfileListPanel::newRequested, this,
            [this] { setProfile(session::ConnectionProfile{}); });
    connect(m_list, &ProfileListPanel::duplicateRequested, this, [this] {
        // Saving the copy must not rename the original.
        m_previousName.clear();
        m_name->setText(tr("%1 copy").arg(m_name->text().trimmed()));
        m_name->setFocus();
        m_name->selectAll();
    });
    connect(m_list, &ProfileListPanel::deleteRequested, this, &ConnectionDialog::removeProfile);

    auto *form = new QWidget;
    auto *formLayout = new QVBoxLayout(form);
    formLayout->setContentsMargins(0, 0, 0, 0);
    formLayout->addWidget(urlBox);
    formLayout->addWidget(m_tabs);
    formLayout->addWidget(buildTestArea(), 1);
    auto *columns = new QHBoxLayout;
    columns->addWidget(m_list);
    columns->addWidget(form, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(m_problems);
    layout->addLayout(buttons);

    connect(m_probe, &session::ConnectionProbe::finished, this, &ConnectionDialog::showTestResult);
    connect(&m_secrets, &session::SecretStore::backendChanged, this,
            &ConnectionDialog::updateStorageNote);
    applyDefaultEnvironment();
    updateStorageNote();
    updateKeyPreview();
    updateTlsState();
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

QWidget *ConnectionDialog::buildConnectionTab()
{
    auto *page = new QWidget;
    auto *form = new QFormLayout(page);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    m_name = new QLineEdit;
    m_name->setObjectName(QStringLiteral("nameEdit"));
    m_name->setPlaceholderText(tr("e.g. staging-eu"));
    form->addRow(tr("Profile &name:"), m_name);

    m_environment = new QComboBox;
    m_environment->setObjectName(QStringLiteral("environmentCombo"));
    for (session::Environment env : Environments)
        m_environment->addItem(swatchIcon(environmentColor(env)), session::environmentName(env),
                               session::environmentName(env));
    m_environmentSwatch = new QLabel;
    m_environmentSwatch->setObjectName(QStringLiteral("environmentSwatch"));
    m_environment->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    // The list shows whole names ("prod…tion" was elided beside its swatch).
    m_environment->view()->setTextElideMode(Qt::ElideNone);
    m_environment->view()->setMinimumWidth(m_environment->view()->sizeHintForColumn(0)
                                           + m_environment->iconSize().width() + 24);
    connect(m_environment, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_applyingDefault)
            m_environmentChosen = true;
        updateEnvironmentSwatch();
    });
    // Picking the label the host already gave is a choice too: it stops following the host.
    connect(m_environment, &QComboBox::activated, this, [this] {
        m_environmentChosen = true;
        updateEnvironmentSwatch();
    });
    m_environmentSwatch->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
    auto *envRow = row({m_environment, m_environmentSwatch, new QWidget}, 2);
    m_environmentNote = noteLabel();
    m_environmentNote->setObjectName(QStringLiteral("environmentNote"));
    // Its text changes with the label and the host: room for two lines keeps the form still.
    m_environmentNote->setMinimumHeight(2 * m_environmentNote->fontMetrics().lineSpacing() + 2);
    auto *envLabel = new QLabel(tr("&Environment:"));
    envLabel->setBuddy(m_environment);
    form->addRow(envLabel, withNote(envRow, m_environmentNote));

    m_host = new QLineEdit(QStringLiteral("127.0.0.1"));
    m_host->setObjectName(QStringLiteral("hostEdit"));
    connect(m_host, &QLineEdit::textChanged, this, &ConnectionDialog::applyDefaultEnvironment);
    m_port = new QSpinBox;
    m_port->setObjectName(QStringLiteral("portSpin"));
    m_port->setRange(1, 65535);
    m_port->setValue(6379);
    m_port->setGroupSeparatorShown(false);
    m_database = new QSpinBox;
    m_database->setObjectName(QStringLiteral("databaseSpin"));
    m_database->setRange(0, 65535);
    auto *portLabel = new QLabel(tr("&Port:"));
    portLabel->setBuddy(m_port);
    auto *dbLabel = new QLabel(tr("&Database:"));
    dbLabel->setBuddy(m_database);
    // addRow(text, row) would make the row's container the buddy, which takes no focus.
    auto *hostLabel = new QLabel(tr("&Host:"));
    hostLabel->setBuddy(m_host);
    form->addRow(hostLabel, row({m_host, portLabel, m_port, dbLabel, m_database}));

    m_user = new QLineEdit;
    m_user->setObjectName(QStringLiteral("userEdit"));
    m_user->setPlaceholderText(tr("default"));
    form->addRow(tr("&User:"), m_user);
    m_password = new QLineEdit;
    m_password->setObjectName(QStringLiteral("passwordEdit"));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("none"));
    m_passwordNote = noteLabel();
    m_passwordNote->setObjectName(QStringLiteral("passwordNote"));
    auto *passwordLabel = new QLabel(tr("Pass&word:"));
    passwordLabel->setBuddy(m_password);
    form->addRow(passwordLabel, withNote(m_password, m_passwordNote));

    m_releaseUser = new QLineEdit;
    m_releaseUser->setObjectName(QStringLiteral("releaseUserEdit"));
    m_releaseUser->setPlaceholderText(tr("optional: the ACL user that loads libraries"));
    form->addRow(tr("&Release user:"), m_releaseUser);
    m_releasePassword = new QLineEdit;
    m_releasePassword->setObjectName(QStringLiteral("releasePasswordEdit"));
    m_releasePassword->setEchoMode(QLineEdit::Password);
    form->addRow(tr("Release passw&ord:"), m_releasePassword);
    connect(m_releaseUser, &QLineEdit::textChanged, this,
            [this](const QString &t) { m_releasePassword->setEnabled(!t.isEmpty()); });
    m_releasePassword->setEnabled(false);

    m_timeout = new QSpinBox;
    m_timeout->setObjectName(QStringLiteral("timeoutSpin"));
    m_timeout->setRange(100, 600000);
    m_timeout->setSingleStep(500);
    m_timeout->setValue(5000);
    m_timeout->setSuffix(tr(" ms"));
    form->addRow(tr("T&imeout:"), m_timeout); // Alt+T is "Test connection"
    return page;
}

QWidget *ConnectionDialog::buildTlsTab()
{
    auto *page = new QWidget;
    auto *form = new QFormLayout(page);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_tlsEnabled = new QCheckBox(tr("Connect with TLS (rediss://)"));
    m_tlsEnabled->setObjectName(QStringLiteral("tlsEnabled"));
    form->addRow(m_tlsEnabled);
    const auto fileRow = [this, form](QLineEdit *&edit, const char *name, const QString &label,
                                      const QString &placeholder) {
        edit = new QLineEdit;
        edit->setObjectName(QLatin1String(name));
        edit->setPlaceholderText(placeholder);
        auto *browse = new QPushButton(tr("Browse…"));
        browse->setAutoDefault(false);
        QLineEdit *target = edit;
        connect(browse, &QPushButton::clicked, this,
                [this, target, label] { browseForFile(target, label); });
        QWidget *r = row({edit, browse});
        form->addRow(label, r);
        m_tlsFields << r;
    };
    fileRow(m_tlsCa, "tlsCaEdit", tr("CA certificate:"), tr("system trust store"));
    fileRow(m_tlsCert, "tlsCertEdit", tr("Client certificate:"), tr("none"));
    fileRow(m_tlsKey, "tlsKeyEdit", tr("Client key:"), tr("none"));
    m_tlsServerName = new QLineEdit;
    m_tlsServerName->setObjectName(QStringLiteral("tlsServerNameEdit"));
    m_tlsServerName->setPlaceholderText(tr("the host name"));
    form->addRow(tr("Server name:"), m_tlsServerName);
    m_tlsFields << m_tlsServerName;
    m_tlsVerify = new QCheckBox(tr("Verify the server certificate"));
    m_tlsVerify->setObjectName(QStringLiteral("tlsVerify"));
    m_tlsVerify->setChecked(true);
    form->addRow(m_tlsVerify);
    m_tlsFields << m_tlsVerify;
    m_tlsWarning = noteLabel(tr("Without verification anyone on the path can pose as the server "
                                "and read the password."));
    m_tlsWarning->setStyleSheet(ErrorStyle);
    form->addRow(m_tlsWarning);
    connect(m_tlsEnabled, &QCheckBox::toggled, this, &ConnectionDialog::updateTlsState);
    connect(m_tlsVerify, &QCheckBox::toggled, this, &ConnectionDialog::updateTlsState);
    return page;
}

QWidget *ConnectionDialog::buildKeysTab()
{
    auto *page = new QWidget;
    auto *form = new QFormLayout(page);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(noteLabel(tr("<sku> and <order> are replaced by the SKU and the order id. Keep "
                              "the same {hash tag} in both so that they share a cluster slot.")));
    m_stockTemplate =
        new QLineEdit(QLatin1String(session::ConnectionProfile::DefaultStockTemplate));
    m_stockTemplate->setObjectName(QStringLiteral("stockTemplateEdit"));
    form->addRow(tr("Stock key:"), m_stockTemplate);
    m_receiptTemplate =
        new QLineEdit(QLatin1String(session::ConnectionProfile::DefaultReceiptTemplate));
    m_receiptTemplate->setObjectName(QStringLiteral("receiptTemplateEdit"));
    form->addRow(tr("Receipt key:"), m_receiptTemplate);
    m_receiptTtl = new QSpinBox;
    m_receiptTtl->setObjectName(QStringLiteral("receiptTtlSpin"));
    m_receiptTtl->setRange(1, int(session::ConnectionProfile::MaxReceiptTtlSeconds));
    m_receiptTtl->setValue(int(session::ConnectionProfile::DefaultReceiptTtlSeconds));
    m_receiptTtl->setSuffix(tr(" s"));
    auto *ttlHuman = new QLabel;
    form->addRow(tr("Receipt TTL:"), row({m_receiptTtl, ttlHuman}, 1));
    connect(m_receiptTtl, &QSpinBox::valueChanged, ttlHuman, [ttlHuman](int s) {
        ttlHuman->setText(QStringLiteral("= %1").arg(session::formatDuration(s)));
    });
    ttlHuman->setText(QStringLiteral("= %1").arg(session::formatDuration(m_receiptTtl->value())));
    m_keyPreview = noteLabel();
    m_keyPreview->setObjectName(QStringLiteral("keyPreview"));
    m_keyPreview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Example:"), m_keyPreview);
    connect(m_stockTemplate, &QLineEdit::textChanged, this, &ConnectionDialog::updateKeyPreview);
    connect(m_receiptTemplate, &QLineEdit::textChanged, this, &ConnectionDialog::updateKeyPreview);
    return page;
}

QWidget *ConnectionDialog::buildClusterTab()
{
    auto *page = new QWidget;
    auto *form = new QFormLayout(page);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(noteLabel(
        tr("A cluster is found from any of its nodes, a server's replicas from the server; "
           "nothing to set here when the addresses they announce can be reached from this "
           "machine. Behind NAT, in containers or with cluster-announce-hostname or "
           "replica-announce-ip they may not be: map each announced address to one "
           "that can be reached, one a line, e.g. <tt>10.0.0.5:6379 = 127.0.0.1:7001</tt>, or "
           "a host alone to keep the port: <tt>redis-node-1 = 127.0.0.1</tt>.")));
    m_announcedMap = new QPlainTextEdit;
    m_announcedMap->setObjectName(QStringLiteral("announcedMapEdit"));
    m_announcedMap->setPlaceholderText(tr("announced host:port = reachable host:port"));
    m_announcedMap->setTabChangesFocus(true);
    form->addRow(tr("Announced addresses:"), m_announcedMap);
    m_announcedNote = noteLabel();
    m_announcedNote->setObjectName(QStringLiteral("announcedMapNote"));
    form->addRow(QString(), m_announcedNote);
    // Checked as typed: a bad line is named before anyone presses Connect.
    connect(m_announcedMap, &QPlainTextEdit::textChanged, this, [this] {
        const auto entries = session::parseAnnouncedEntries(m_announcedMap->toPlainText());
        m_announcedNote->setStyleSheet(entries.ok() ? QString() : ErrorStyle);
        m_announcedNote->setText(
            !entries.ok()          ? entries.error()
            : entries->isEmpty()   ? tr("No mapping: the announced addresses are used.")
            : entries->size() == 1 ? tr("1 address mapped.")
                                   : tr("%1 addresses mapped.").arg(entries->size()));
    });
    emit m_announcedMap->textChanged();
    return page;
}

QWidget *ConnectionDialog::buildTestArea()
{
    auto *box = new QWidget;
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    m_testButton = new QPushButton(tr("&Test connection"));
    m_testButton->setObjectName(QStringLiteral("testButton"));
    m_testButton->setAutoDefault(false);
    m_testStatus = new QLabel(tr("Not tested yet."));
    m_testStatus->setObjectName(QStringLiteral("testStatus"));
    m_testStatus->setWordWrap(true);
    m_testStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *top = new QHBoxLayout;
    top->addWidget(m_testButton, 0, Qt::AlignTop);
    top->addWidget(m_testStatus, 1);
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
    connect(m_testButton, &QPushButton::clicked, this, &ConnectionDialog::startTest);
    return box;
}

void ConnectionDialog::applyDefaultEnvironment()
{
    if (m_environmentChosen)
        return updateEnvironmentSwatch(); // the note depends on the host too
    setEnvironment(session::environmentName(session::defaultEnvironmentForHost(m_host->text())),
                   false);
}

void ConnectionDialog::setEnvironment(const QString &label, bool chosen)
{
    m_applyingDefault = !chosen;
    m_environment->setCurrentIndex(m_environment->findData(label));
    m_applyingDefault = false;
    m_environmentChosen = chosen;
    updateEnvironmentSwatch();
}

void ConnectionDialog::updateEnvironmentSwatch()
{
    const auto env = session::parseEnvironment(m_environment->currentData().toString());
    if (!env)
        return;
    m_environmentSwatch->setText(environmentBadgeText(*env));
    m_environmentSwatch->setStyleSheet(environmentBadgeStyle(*env));
    const bool loopback = session::isWrittenAsLoopback(m_host->text());
    QString note = *env == session::Environment::Production
                       ? tr("Sessions on this profile start read-only: writes need the profile "
                            "name typed to unlock them.")
                   : *env == session::Environment::Local
                       ? tr("Local once proven: after connecting, the server's process must be "
                            "found on this machine owning the port; a tunnel, port-forward or "
                            "container is treated as production.")
                       : tr("Writes are allowed. Label a server production when a mistake "
                            "there costs real stock.");
    if (!m_environmentChosen)
        note.prepend(loopback ? tr("Default for a loopback host. ")
                              : tr("Default for a host not written as localhost, 127.x.x.x or "
                                   "::1, until you pick a label. "));
    else if (*env == session::Environment::Local && !loopback)
        note = tr("This host is not written as loopback, yet labelled local: it is local only "
                  "if, after connecting, the server's process is found on this machine; "
                  "otherwise the session is production.");
    m_environmentNote->setText(note);
    // The palette, not a style sheet: a style sheet changes the note's size hint and the form
    // row then cuts its second line.
    const bool warn = m_environmentChosen && *env == session::Environment::Local && !loopback;
    QPalette pal = m_environmentNote->palette();
    QColor colour = warn ? Palette::error() : palette().color(QPalette::WindowText);
    if (!warn)
        colour.setAlpha(170); // as noteLabel()
    pal.setColor(QPalette::WindowText, colour);
    m_environmentNote->setPalette(pal);
}

void ConnectionDialog::updateStorageNote()
{
    m_passwordNote->setText(m_secrets.storageNote());
}

void ConnectionDialog::updateKeyPreview()
{
    session::ConnectionProfile p;
    p.stockKeyTemplate = m_stockTemplate->text();
    p.receiptKeyTemplate = m_receiptTemplate->text();
    m_keyPreview->setText(tr("SKU 42, order 9001: %1 and %2")
                              .arg(QString::fromUtf8(p.stockKey("42")),
                                   QString::fromUtf8(p.receiptKey("42", "9001"))));
}

void ConnectionDialog::updateTlsState()
{
    const bool on = m_tlsEnabled->isChecked();
    for (QWidget *w : m_tlsFields)
        w->setEnabled(on);
    m_tlsWarning->setVisible(on && !m_tlsVerify->isChecked());
}

void ConnectionDialog::browseForFile(QLineEdit *target, const QString &title)
{
    const QString file = QFileDialog::getOpenFileName(this, title, target->text(),
                                                      tr("PEM files (*.pem *.crt *.key);;All "
                                                         "files (*)"));
    if (!file.isEmpty())
        target->setText(file);
}

void ConnectionDialog::removeProfile(const QString &name)
{
    if (name.isEmpty()
        || QMessageBox::question(this, tr("Delete profile"),
                                 tr("Delete the profile '%1' and its saved passwords?").arg(name))
               != QMessageBox::Yes)
        return;
    m_profiles.remove(name);
    m_secrets.remove(session::SecretStore::keyFor(name));
    m_secrets.remove(session::SecretStore::keyFor(name, session::SecretStore::Account::Release));
    m_list->reload();
    setProfile(session::ConnectionProfile{});
}

void ConnectionDialog::setProfile(const session::ConnectionProfile &p)
{
    m_previousName = p.name;
    // Another profile's passwords never stay in the fields.
    m_password->clear();
    m_releasePassword->clear();
    m_results->clear();
    m_testStatus->setText(tr("Not tested yet."));
    m_testStatus->setStyleSheet(QString());
    clearProblems();
    m_name->setText(p.name);
    m_host->setText(p.host);
    // A saved label is the user's choice; an unlabelled profile keeps following its host. A
    // label this version cannot read is shown as production, the careful choice.
    m_environmentChosen = false;
    if (p.isLabelled())
        setEnvironment(session::environmentName(
                           p.environmentKind().value_or(session::Environment::Production)),
                       true);
    else
        applyDefaultEnvironment();
    m_port->setValue(p.port);
    m_database->setValue(p.database);
    m_user->setText(p.username);
    m_releaseUser->setText(p.releaseUsername);
    m_timeout->setValue(p.timeoutMs);
    m_announcedMap->setPlainText(session::announcedEntriesText(p.announcedMap));
    m_tlsEnabled->setChecked(p.tls.enabled);
    m_tlsCa->setText(p.tls.caFile);
    m_tlsCert->setText(p.tls.certFile);
    m_tlsKey->setText(p.tls.keyFile);
    m_tlsServerName->setText(p.tls.serverName);
    m_tlsVerify->setChecked(p.tls.verifyPeer);
    m_stockTemplate->setText(p.stockKeyTemplate);
    m_receiptTemplate->setText(p.receiptKeyTemplate);
    m_receiptTtl->setValue(int(p.receiptTtlSeconds));
    if (p.name.isEmpty())
        return; // a new profile has no saved passwords
    m_secrets.load(session::SecretStore::keyFor(p.name), this,
                   [this](const std::optional<QString> &s) {
                       if (s && m_password->text().isEmpty())
                           m_password->setText(*s);
                   });
    m_secrets.load(session::SecretStore::keyFor(p.name, session::SecretStore::Account::Release),
                   this, [this](const std::optional<QString> &s) {
                       if (s && m_releasePassword->text().isEmpty())
                           m_releasePassword->setText(*s);
                   });
}

session::ConnectionProfile ConnectionDialog::profile() const
{
    session::ConnectionProfile p;
    p.name = m_name->text().trimmed();
    // Unchosen, the label stays empty: the host decides, wherever the profile is used.
    p.environment = m_environmentChosen ? m_environment->currentData().toString() : QString();
    p.host = m_host->text().trimmed();
    p.port = m_port->value();
    p.database = m_database->value();
    p.username = m_user->text().trimmed();
    p.releaseUsername = m_releaseUser->text().trimmed();
    p.timeoutMs = m_timeout->value();
    // A bad line is kept as written: validate() then names it, and nothing is saved.
    const QString map = m_announcedMap->toPlainText();
    const auto entries = session::parseAnnouncedEntries(map);
    p.announcedMap =
        entries.ok() ? entries.value() : map.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    p.tls.enabled = m_tlsEnabled->isChecked();
    if (p.tls.enabled) {
        p.tls.caFile = m_tlsCa->text().trimmed();
        p.tls.certFile = m_tlsCert->text().trimmed();
        p.tls.keyFile = m_tlsKey->text().trimmed();
        p.tls.serverName = m_tlsServerName->text().trimmed();
    }
    p.tls.verifyPeer = m_tlsVerify->isChecked();
    p.stockKeyTemplate = m_stockTemplate->text().trimmed();
    p.receiptKeyTemplate = m_receiptTemplate->text().trimmed();
    p.receiptTtlSeconds = m_receiptTtl->value();
    return p;
}

QString ConnectionDialog::password() const
{
    return m_password->text();
}

QString ConnectionDialog::releasePassword() const
{
    return m_releaseUser->text().trimmed().isEmpty() ? QString() : m_releasePassword->text();
}

bool ConnectionDialog::fillFromUrl(const QString &url)
{
    const auto parsed = session::parseRedisUrl(url);
    m_urlError->show();
    if (!parsed.ok()) {
        m_urlError->setStyleSheet(ErrorStyle);
        m_urlError->setText(tr("Cannot read this URL: %1").arg(parsed.error().message));
        return false;
    }
    const session::ConnectionProfile &p = parsed->profile;
    m_host->setText(p.host);
    m_port->setValue(p.port);
    m_database->setValue(p.database);
    m_user->setText(p.username);
    if (parsed->hasPassword)
        m_password->setText(parsed->password);
    m_tlsEnabled->setChecked(p.tls.enabled);
    if (p.tls.enabled)
        m_tlsVerify->setChecked(true);
    if (m_name->text().trimmed().isEmpty())
        m_name->setText(p.host);
    // The URL may hold a password: it does not stay on screen.
    m_url->clear();
    m_urlError->setStyleSheet(QString());
    m_urlError->setText(parsed->hasPassword
                            ? tr("Filled from the URL; its password is in the password field.")
                            : tr("Filled from the URL."));
    m_tabs->setCurrentIndex(0);
    return true;
}

void ConnectionDialog::startTest()
{
    const session::ConnectionProfile p = profile();
    m_results->clear();
    m_testButton->setEnabled(false);
    m_testStatus->setStyleSheet(QString());
    m_testStatus->setText(tr("Testing %1…").arg(p.toConnectionOptions({}).address()));
    qCDebug(lcUi) << "testing connection profile" << p.name;
    // With a release user, its own login and permissions are tested too.
    m_probe->start(p, password(),
                   p.releaseUsername.isEmpty() ? std::nullopt
                                               : std::optional<QString>(releasePassword()));
}

bool ConnectionDialog::isTesting() const
{
    return m_probe->isRunning();
}

void ConnectionDialog::showTestResult(const session::ProbeResult &result)
{
    m_testButton->setEnabled(true);
    m_results->clear();
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    if (!result.ok()) {
        m_testStatus->setStyleSheet(ErrorStyle);
        m_testStatus->setText(tr("Could not connect: %1").arg(result.error().message));
        auto *item = new QTreeWidgetItem(
            m_results, {tr("Connection"), session::failureHeadline(result.error().kind)});
        item->setIcon(0, warning);
        item->setToolTip(1, result.error().message);
        emit testFinished(result);
        return;
    }
    const session::ProbeReport &report = result.value();
    QString status =
        tr("Connected to %1 in %2 ms.").arg(report.server.label()).arg(report.latencyMs, 0, 'f', 2);
    const bool releaseFailed = report.release.tried && !report.release.ok;
    if (releaseFailed) // found now, not halfway through a release
        status += QLatin1Char(' ')
                  + tr("The release user '%1' could not log in: %2.")
                        .arg(report.release.user, report.release.failure);
    m_testStatus->setStyleSheet(releaseFailed ? ErrorStyle : Palette::textStyle(Palette::ok()));
    m_testStatus->setText(status);
    for (const session::ProbeRow &r : report.rows()) {
        auto *item = new QTreeWidgetItem(m_results, {r.label, r.value});
        item->setToolTip(1, r.value);
        if (r.warning)
            item->setIcon(0, warning);
    }
    emit testFinished(result);
}

QWidget *ConnectionDialog::fieldWidget(const QString &field) const
{
    const QHash<QString, QWidget *> fields{
        {QStringLiteral("name"), m_name},
        {QStringLiteral("host"), m_host},
        {QStringLiteral("port"), m_port},
        {QStringLiteral("database"), m_database},
        {QStringLiteral("environment"), m_environment},
        {QStringLiteral("username"), m_user},
        {QStringLiteral("releaseUsername"), m_releaseUser},
        {QStringLiteral("timeoutMs"), m_timeout},
        {QStringLiteral("announcedMap"), m_announcedMap},
        {QStringLiteral("tls.enabled"), m_tlsEnabled},
        {QStringLiteral("tls.caFile"), m_tlsCa},
        {QStringLiteral("tls.certFile"), m_tlsCert},
        {QStringLiteral("tls.keyFile"), m_tlsKey},
        {QStringLiteral("stockKeyTemplate"), m_stockTemplate},
        {QStringLiteral("receiptKeyTemplate"), m_receiptTemplate},
        {QStringLiteral("receiptTtlSeconds"), m_receiptTtl},
    };
    return fields.value(field);
}

void ConnectionDialog::clearProblems()
{
    m_problems->setStyleSheet(ErrorStyle);
    for (int i = 0; i < m_tabs->count(); ++i)
        m_tabs->setTabIcon(i, QIcon());
    for (QWidget *w : m_flagged)
        w->setStyleSheet(QString());
    m_flagged.clear();
    m_problems->clear();
    m_problems->hide();
}

void ConnectionDialog::showProblems(const QList<session::ProfileProblem> &problems)
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
    if (save())
        QDialog::accept();
}

bool ConnectionDialog::save()
{
    clearProblems();
    const session::ConnectionProfile p = profile();
    const auto saved = m_profiles.save(p, m_previousName);
    if (!saved.ok()) {
        showProblems(saved.error());
        return false;
    }
    using Account = session::SecretStore::Account;
    const auto keep = [this](const QString &key, const QString &secret) {
        if (secret.isEmpty()) {
            m_secrets.remove(key);
            return;
        }
        // The store outlives the dialog: the keyring may answer after it has closed.
        m_secrets.store(key, secret, &m_secrets, [](const session::SecretStore::StoreResult &r) {
            qCInfo(lcUi) << "password:" << r.note;
        });
    };
    keep(session::SecretStore::keyFor(p.name), password());
    keep(session::SecretStore::keyFor(p.name, Account::Release), releasePassword());
    if (!m_previousName.isEmpty() && m_previousName != p.name) {
        m_secrets.remove(session::SecretStore::keyFor(m_previousName));
        m_secrets.remove(session::SecretStore::keyFor(m_previousName, Account::Release));
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
