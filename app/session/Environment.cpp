#include "Environment.h"

namespace session {

QString environmentName(Environment env)
{
    switch (env) {
    case Environment::Local:
        return QStringLiteral("local");
    case Environment::Test:
        return QStringLiteral("test");
    case Environment::Staging:
        return QStringLiteral("staging");
    case Environment::Production:
        return QStringLiteral("production");
    }
    return {};
}

std::optional<Environment> parseEnvironment(const QString &name)
{
    for (auto env :
         {Environment::Local, Environment::Test, Environment::Staging, Environment::Production}) {
        if (name.compare(environmentName(env), Qt::CaseInsensitive) == 0)
            return env;
    }
    return std::nullopt;
}

} // namespace session
