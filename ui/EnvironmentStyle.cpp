#include "EnvironmentStyle.h"

#include "Palette.h"

namespace ui {

QColor environmentColor(session::Environment env)
{
    switch (env) {
    case session::Environment::Local:
        return QColor(0x4a, 0x63, 0x85);
    case session::Environment::Test:
        return Palette::ok();
    case session::Environment::Staging:
        return Palette::attention();
    case session::Environment::Production:
        return Palette::error();
    }
    return Qt::gray;
}

QString environmentBadgeText(session::Environment env)
{
    return session::environmentName(env).toUpper();
}

QString environmentBadgeStyle(session::Environment env)
{
    return QStringLiteral("QLabel { background: %1; color: white; font-weight: bold;"
                          " border-radius: 3px; padding: 1px 8px; }")
        .arg(environmentColor(env).name());
}

} // namespace ui
