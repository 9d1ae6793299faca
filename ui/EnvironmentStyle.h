#pragma once

#include "session/Environment.h"

#include <QColor>
#include <QString>

namespace ui {

// The colour that marks an environment everywhere in the window: local grey-blue, test green,
// staging orange, production red (as the Foundation issue specifies; session::environmentColour
// still has local and test the other way round).
QColor environmentColor(session::Environment env);
// "LOCAL", "TEST", ...: what the badge says.
QString environmentBadgeText(session::Environment env);
// A style sheet for a QLabel drawn as a filled badge in the environment's colour.
QString environmentBadgeStyle(session::Environment env);

} // namespace ui
