#pragma once

#include "session/Environment.h"

#include <QColor>
#include <QString>

namespace ui {

// The colour that marks an environment everywhere in the window: local grey-blue, test green,
// staging orange, production red. The one place the UI maps environments to colours.
QColor environmentColor(session::Environment env);
// "LOCAL", "TEST", ...: what the badge says.
QString environmentBadgeText(session::Environment env);
// A style sheet for a QLabel drawn as a filled badge in the environment's colour.
QString environmentBadgeStyle(session::Environment env);

} // namespace ui
