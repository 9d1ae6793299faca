#include "EnvironmentStyle.h"

namespace ui {

QColor environmentColor(session::Environment env)
{
    switch (env) {
    case session::Environment::Local:
        return QColor(0x4a, 0x63, 0x85);
    case session::Environment::Test:
        return QColor(0x2e, 0x7d, 0x32);
    case session::Environment::Staging:
        return QColor(0xe6, 0x6a, 0x00);
    case session::Environment::Production:
        return QColor(0xc6, 0x28, 0x28);
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
