// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "profiles/Environment.h"

#include <QColor>
#include <QString>

class QLabel;
class QLayout;
class QWidget;

namespace ui {

// The colour that marks an environment everywhere in the window: local grey-blue, test green,
// staging orange, production red. The one place the UI maps environments to colours.
QColor environmentColor(profiles::Environment env);
// "LOCAL", "TEST", ...: what the badge says.
QString environmentBadgeText(profiles::Environment env);
// A style sheet for a QLabel drawn as a filled badge in the environment's colour.
QString environmentBadgeStyle(profiles::Environment env);
// Makes `badge` the environment's badge: its words and its colours.
void setEnvironmentBadge(QLabel *badge, profiles::Environment env);
// A style sheet for the QLabel that spans the window in the environment's colour.
QString environmentStripStyle(profiles::Environment env);
// The row every confirmation starts with: the badge (object name "environmentBadge") and, when
// given, the node that will run the command ("Runs on 127.0.0.1:30103").
QLayout *environmentBadgeRow(profiles::Environment env, const QString &node, QWidget *parent);

} // namespace ui
