// SPDX-License-Identifier: GPL-3.0-or-later
#include "ProfileListPanel.h"

#include "profiles/ProfileStore.h"
#include "ui/common/EnvironmentStyle.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace ui {

ProfileListPanel::ProfileListPanel(profiles::ProfileStore &profiles, QWidget *parent)
    : QWidget(parent)
    , m_profiles(profiles)
    , m_list(new QListWidget(this))
    , m_new(new QPushButton(tr("New"), this))
    , m_duplicate(new QPushButton(tr("Duplicate"), this))
    , m_delete(new QPushButton(tr("Delete…"), this))
{
    m_list->setObjectName(QStringLiteral("profileList"));
    // Long host names are shortened in the middle (the tooltip has all), never scrolled.
    m_list->setTextElideMode(Qt::ElideMiddle);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setAccessibleName(tr("Saved profiles"));
    m_new->setObjectName(QStringLiteral("newProfileButton"));
    m_duplicate->setObjectName(QStringLiteral("duplicateProfileButton"));
    m_delete->setObjectName(QStringLiteral("deleteProfileButton"));
    for (QPushButton *b : {m_new, m_duplicate, m_delete})
        b->setAutoDefault(false);
    auto *buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(m_new);
    buttons->addWidget(m_duplicate);
    buttons->addWidget(m_delete);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Saved profiles:"), this));
    layout->addWidget(m_list, 1);
    m_empty = new QLabel(tr("None yet. Fill in the form (or paste a URL), then Save or "
                            "Connect: the profile appears here."),
                         this);
    m_empty->setWordWrap(true);
    layout->addWidget(m_empty);
    layout->addLayout(buttons);

    connect(m_list, &QListWidget::currentRowChanged, this, [this] {
        updateButtons();
        if (const auto p = m_profiles.find(currentName()))
            emit profileChosen(*p);
    });
    connect(m_new, &QPushButton::clicked, this, [this] {
        m_list->setCurrentRow(-1);
        emit newRequested();
    });
    connect(m_duplicate, &QPushButton::clicked, this, &ProfileListPanel::duplicateRequested);
    connect(m_delete, &QPushButton::clicked, this, [this] { emit deleteRequested(currentName()); });
    reload();
}

void ProfileListPanel::reload(const QString &name)
{
    const QSignalBlocker quiet(m_list); // reloading is not choosing
    m_list->clear();
    for (const profiles::ConnectionProfile &p : m_profiles.list()) {
        const profiles::Environment env =
            p.environmentKind().value_or(profiles::Environment::Production);
        QString text = QStringLiteral("%1\n%2 · %3:%4")
                           .arg(p.name, environmentBadgeText(env), p.host)
                           .arg(p.port);
        // The host of a profile behind a bastion is as the bastion sees it.
        if (p.ssh.enabled())
            text += tr(" · SSH");
        auto *item = new QListWidgetItem(text, m_list);
        item->setData(Qt::UserRole, p.name);
        item->setForeground(environmentColor(env).darker(140));
        item->setToolTip(
            p.ssh.enabled() ? tr("%1, through the SSH bastion %2").arg(text, p.ssh.bastion) : text);
        if (p.name == name)
            m_list->setCurrentItem(item);
    }
    m_empty->setVisible(m_list->count() == 0);
    updateButtons();
}

QString ProfileListPanel::currentName() const
{
    const QListWidgetItem *item = m_list->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

void ProfileListPanel::updateButtons()
{
    const bool chosen = !currentName().isEmpty();
    m_duplicate->setEnabled(chosen);
    m_delete->setEnabled(chosen);
}

} // namespace ui
