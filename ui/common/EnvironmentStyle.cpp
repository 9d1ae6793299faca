// SPDX-License-Identifier: GPL-3.0-or-later
#include "EnvironmentStyle.h"

#include "Palette.h"

#include <QHBoxLayout>
#include <QLabel>

namespace ui {

QColor environmentColor(profiles::Environment env)
{
    switch (env) {
    case profiles::Environment::Local:
        return Palette::local();
    case profiles::Environment::Test:
        return Palette::ok();
    case profiles::Environment::Staging:
        return Palette::attention();
    case profiles::Environment::Production:
        return Palette::error();
    }
    return Palette::muted();
}

QString environmentBadgeText(profiles::Environment env)
{
    return profiles::environmentName(env).toUpper();
}

QString environmentBadgeStyle(profiles::Environment env)
{
    return QStringLiteral("QLabel { background: %1; color: %2; font-weight: bold;"
                          " border-radius: 3px; padding: 1px 8px; }")
        .arg(environmentColor(env).name(), Palette::onStrong().name());
}

void setEnvironmentBadge(QLabel *badge, profiles::Environment env)
{
    badge->setText(environmentBadgeText(env));
    badge->setStyleSheet(environmentBadgeStyle(env));
}

QString environmentStripStyle(profiles::Environment env)
{
    return QStringLiteral("QLabel { background: %1; color: %2; font-weight: bold;"
                          " padding: 3px 16px; }")
        .arg(environmentColor(env).name(), Palette::onStrong().name());
}

QLayout *environmentBadgeRow(profiles::Environment env, const QString &node, QWidget *parent)
{
    auto *row = new QHBoxLayout;
    auto *badge = new QLabel(parent);
    badge->setObjectName(QStringLiteral("environmentBadge"));
    setEnvironmentBadge(badge, env);
    // A badge, not a panel: a dialog's spare height (longer translated text) must not stretch it.
    badge->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    row->addWidget(badge);
    if (!node.isEmpty()) {
        auto *where = new QLabel(QObject::tr("Runs on %1").arg(node), parent);
        where->setObjectName(QStringLiteral("commandNode"));
        where->setTextInteractionFlags(Qt::TextSelectableByMouse);
        row->addWidget(where);
    }
    row->addStretch(1);
    return row;
}

} // namespace ui
