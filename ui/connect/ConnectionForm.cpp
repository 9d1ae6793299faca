// SPDX-License-Identifier: GPL-3.0-or-later
#include "ConnectionForm.h"

#include "EnvironmentField.h"
#include "FormParts.h"
#include "profiles/RedisUrl.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace ui {

ConnectionForm::ConnectionForm(QWidget *parent)
    : ProfileForm(parent)
{
    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_name = new QLineEdit;
    m_name->setObjectName(QStringLiteral("nameEdit"));
    m_name->setPlaceholderText(tr("e.g. staging-eu"));
    form->addRow(tr("Profile &name:"), m_name);
    addServerRows(form);
    addAccountRows(form);
    m_timeout = new QSpinBox;
    m_timeout->setObjectName(QStringLiteral("timeoutSpin"));
    m_timeout->setRange(100, 600000);
    m_timeout->setSingleStep(500);
    m_timeout->setValue(5000);
    m_timeout->setSuffix(tr(" ms"));
    form->addRow(tr("T&imeout:"), m_timeout); // Alt+T is "Test connection"
    m_environment->setHost(m_host->text());
    setFieldWidget(QStringLiteral("name"), m_name);
    setFieldWidget(QStringLiteral("host"), m_host);
    setFieldWidget(QStringLiteral("port"), m_port);
    setFieldWidget(QStringLiteral("database"), m_database);
    setFieldWidget(QStringLiteral("environment"), m_environment->combo());
    setFieldWidget(QStringLiteral("username"), m_user);
    setFieldWidget(QStringLiteral("releaseUsername"), m_releaseUser);
    setFieldWidget(QStringLiteral("timeoutMs"), m_timeout);
}

void ConnectionForm::addServerRows(QFormLayout *form)
{
    m_environment = new EnvironmentField;
    auto *envLabel = new QLabel(tr("&Environment:"));
    envLabel->setBuddy(m_environment->combo());
    form->addRow(envLabel, m_environment);

    m_host = new QLineEdit(QStringLiteral("127.0.0.1"));
    m_host->setObjectName(QStringLiteral("hostEdit"));
    connect(m_host, &QLineEdit::textChanged, m_environment, &EnvironmentField::setHost);
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
}

void ConnectionForm::addAccountRows(QFormLayout *form)
{
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
}

void ConnectionForm::load(const profiles::ConnectionProfile &p)
{
    m_password->clear();
    m_releasePassword->clear();
    m_name->setText(p.name);
    m_host->setText(p.host);
    m_environment->load(p);
    m_port->setValue(p.port);
    m_database->setValue(p.database);
    m_user->setText(p.username);
    m_releaseUser->setText(p.releaseUsername);
    m_timeout->setValue(p.timeoutMs);
}

void ConnectionForm::apply(profiles::ConnectionProfile &p) const
{
    p.name = m_name->text().trimmed();
    m_environment->apply(p);
    p.host = m_host->text().trimmed();
    p.port = m_port->value();
    p.database = m_database->value();
    p.username = m_user->text().trimmed();
    p.releaseUsername = m_releaseUser->text().trimmed();
    p.timeoutMs = m_timeout->value();
}

void ConnectionForm::setThroughBastion(bool through)
{
    m_environment->setThroughBastion(through);
}

void ConnectionForm::setBehindSentinel(bool behind)
{
    m_environment->setBehindSentinel(behind);
    for (QWidget *w : {static_cast<QWidget *>(m_host), static_cast<QWidget *>(m_port)}) {
        w->setEnabled(!behind);
        w->setToolTip(behind ? tr("Behind Sentinel the sentinels name the primary (Sentinel "
                                  "tab): host and port are not used.")
                             : QString());
    }
}

QString ConnectionForm::password() const
{
    return m_password->text();
}

QString ConnectionForm::releasePassword() const
{
    return m_releaseUser->text().trimmed().isEmpty() ? QString() : m_releasePassword->text();
}

void ConnectionForm::offerPassword(const QString &password)
{
    if (m_password->text().isEmpty())
        m_password->setText(password);
}

void ConnectionForm::offerReleasePassword(const QString &password)
{
    if (m_releasePassword->text().isEmpty())
        m_releasePassword->setText(password);
}

void ConnectionForm::fillFromUrl(const profiles::ParsedRedisUrl &url, const QString &unnamedAs)
{
    const profiles::ConnectionProfile &p = url.profile;
    m_host->setText(p.host);
    m_port->setValue(p.port);
    m_database->setValue(p.database);
    m_user->setText(p.username);
    if (url.hasPassword)
        m_password->setText(url.password);
    if (m_name->text().trimmed().isEmpty())
        m_name->setText(unnamedAs.isEmpty() ? p.host : unnamedAs);
}

void ConnectionForm::setStorageNote(const QString &note)
{
    m_passwordNote->setText(note);
}

void ConnectionForm::nameAsCopy()
{
    m_name->setText(tr("%1 copy").arg(m_name->text().trimmed()));
    m_name->setFocus();
    m_name->selectAll();
}

} // namespace ui
