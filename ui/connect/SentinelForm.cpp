// SPDX-License-Identifier: GPL-3.0-or-later
#include "SentinelForm.h"

#include "FormParts.h"
#include "sentinel/SentinelUrl.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

namespace ui {

SentinelForm::SentinelForm(QWidget *parent)
    : ProfileForm(parent)
{
    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(noteLabel(
        tr("When Redis Sentinel chooses the primary, give the master name and the sentinels: "
           "the console asks them for the primary, confirms it with ROLE, and moves every "
           "connection to the new primary after a failover. Unlabelled, such a server is "
           "production.")));
    m_master = new QLineEdit;
    m_master->setObjectName(QStringLiteral("sentinelMasterEdit"));
    m_master->setPlaceholderText(tr("e.g. orders; empty: connect to the host directly"));
    auto *masterLabel = new QLabel(tr("&Master name:"));
    masterLabel->setBuddy(m_master);
    form->addRow(masterLabel, m_master);

    m_sentinels = new QLineEdit;
    m_sentinels->setObjectName(QStringLiteral("sentinelListEdit"));
    m_sentinels->setPlaceholderText(tr("10.0.4.7, 10.0.4.8:26380, sentinel-3.example.com"));
    m_sentinelsNote = noteLabel();
    m_sentinelsNote->setObjectName(QStringLiteral("sentinelListNote"));
    auto *listLabel = new QLabel(tr("Sentine&ls:"));
    listLabel->setBuddy(m_sentinels);
    form->addRow(listLabel, withNote(m_sentinels, m_sentinelsNote));

    m_user = new QLineEdit;
    m_user->setObjectName(QStringLiteral("sentinelUserEdit"));
    m_user->setPlaceholderText(tr("none, or the default user"));
    auto *userLabel = new QLabel(tr("Sentinel &ACL user:"));
    userLabel->setBuddy(m_user);
    form->addRow(userLabel, m_user);
    m_password = new QLineEdit;
    m_password->setObjectName(QStringLiteral("sentinelPasswordEdit"));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("none"));
    auto *passwordNote = noteLabel(tr("The sentinels' own password, not the data node's: kept "
                                      "like the other passwords of this profile."));
    // addRow(text, row) would make the row's container the buddy, which takes no focus.
    auto *passwordLabel = new QLabel(tr("Sentinel password:"));
    passwordLabel->setBuddy(m_password);
    form->addRow(passwordLabel, withNote(m_password, passwordNote));

    connect(m_master, &QLineEdit::textChanged, this, &SentinelForm::updateNotes);
    connect(m_sentinels, &QLineEdit::textChanged, this, &SentinelForm::updateNotes);
    setFieldWidget(QStringLiteral("sentinel.masterName"), m_master);
    setFieldWidget(QStringLiteral("sentinel.sentinels"), m_sentinels);
    setFieldWidget(QStringLiteral("sentinel.username"), m_user);
    updateNotes();
}

void SentinelForm::load(const profiles::ConnectionProfile &p)
{
    m_master->setText(p.sentinel.masterName);
    m_sentinels->setText(p.sentinel.sentinels);
    m_user->setText(p.sentinel.username);
    m_password->clear();
    updateNotes();
}

void SentinelForm::apply(profiles::ConnectionProfile &p) const
{
    p.sentinel.masterName = m_master->text().trimmed();
    p.sentinel.sentinels = m_sentinels->text().trimmed();
    p.sentinel.username = m_user->text().trimmed();
}

QString SentinelForm::password() const
{
    return m_master->text().trimmed().isEmpty() ? QString() : m_password->text();
}

void SentinelForm::offerPassword(const QString &password)
{
    if (m_password->text().isEmpty())
        m_password->setText(password);
}

void SentinelForm::fillFromUrl(const sentinel::SentinelUrl &url)
{
    QStringList sentinels;
    for (const sentinel::NodeAddress &a : url.sentinels)
        sentinels << a.toString();
    m_master->setText(url.masterName);
    m_sentinels->setText(sentinels.join(QStringLiteral(", ")));
}

void SentinelForm::updateNotes()
{
    const bool enabled = !m_master->text().trimmed().isEmpty();
    emit masterSet(enabled);
    QString problem;
    if (enabled)
        if (const auto list =
                sentinel::parseSentinelList(m_sentinels->text(), core::Wording::Translated);
            !list.ok())
            problem = list.error();
    m_sentinelsNote->setStyleSheet(problem.isEmpty() ? QString() : errorStyle());
    m_sentinelsNote->setText(problem.isEmpty()
                                 ? tr("host[:port], 26379 by default; list every sentinel you "
                                      "know, so that one down does not stop you.")
                                 : problem);
}

} // namespace ui
