// SPDX-License-Identifier: GPL-3.0-or-later
#include "LabSettings.h"

#include <QCoreApplication>

namespace lab {

namespace {
// The strategies' titles the Lab tab shows are translated there; the CLI prints the English.
struct LabSettingsText
{
    Q_DECLARE_TR_FUNCTIONS(lab::LabSettings)
};
} // namespace

QString strategyName(Strategy s)
{
    switch (s) {
    case Strategy::Naive:
        return QStringLiteral("naive");
    case Strategy::Script:
        return QStringLiteral("script");
    case Strategy::FunctionV1:
        return QStringLiteral("fcall-v1");
    case Strategy::FunctionV2:
        return QStringLiteral("fcall-v2");
    }
    return {};
}

QString strategyTitle(Strategy s)
{
    switch (s) {
    case Strategy::Naive:
        return LabSettingsText::tr("Naive GET, compare, DECRBY");
    case Strategy::Script:
        return LabSettingsText::tr("Script (EVALSHA stock_decrement.lua)");
    case Strategy::FunctionV1:
        return LabSettingsText::tr("Function v1 (FCALL inventory_deduct_v1)");
    case Strategy::FunctionV2:
        return LabSettingsText::tr("Function v2 (FCALL inventory_deduct_v2)");
    }
    return {};
}

std::optional<Strategy> parseStrategy(const QString &name)
{
    for (Strategy s : allStrategies())
        if (strategyName(s).compare(name.trimmed(), Qt::CaseInsensitive) == 0)
            return s;
    return std::nullopt;
}

QList<Strategy> allStrategies()
{
    return {Strategy::Naive, Strategy::Script, Strategy::FunctionV1, Strategy::FunctionV2};
}

QString faultName(Fault f)
{
    switch (f) {
    case Fault::None:
        return QStringLiteral("none");
    case Fault::Pause:
        return QStringLiteral("pause");
    case Fault::ShortTimeout:
        return QStringLiteral("timeout");
    }
    return {};
}

std::optional<Fault> parseFault(const QString &name)
{
    for (Fault f : {Fault::None, Fault::Pause, Fault::ShortTimeout})
        if (faultName(f).compare(name.trimmed(), Qt::CaseInsensitive) == 0)
            return f;
    return std::nullopt;
}

QStringList LabSettings::problems() const
{
    QStringList p;
    const auto range = [&p](const QString &name, qint64 value, qint64 min, qint64 max) {
        if (value < min || value > max)
            p << LabSettingsText::tr("%1: give %2 to %3, not %4")
                     .arg(name)
                     .arg(min)
                     .arg(max)
                     .arg(value);
    };
    range(LabSettingsText::tr("stock"), initialStock, 0, MaxStock);
    range(LabSettingsText::tr("connections"), connections, 1, MaxConnections);
    range(LabSettingsText::tr("attempts"), attempts, 1, MaxAttempts);
    range(LabSettingsText::tr("pipeline"), pipeline, 1, MaxPipeline);
    if (!(retryShare >= 0.0 && retryShare <= 1.0))
        p << LabSettingsText::tr("retry share: give a fraction from 0 to 1 (0.1 = one attempt in "
                                 "ten reuses an earlier order id), not %1")
                 .arg(retryShare);
    if (fault != Fault::None)
        range(LabSettingsText::tr("pause (ms)"), pauseMs, 10, 10000);
    if (fault == Fault::ShortTimeout) {
        range(LabSettingsText::tr("client timeout (ms)"), clientTimeoutMs, 10, 5000);
        if (clientTimeoutMs >= pauseMs)
            p << LabSettingsText::tr("client timeout: make it shorter than the pause (%1 ms), or "
                                     "no reply comes too late")
                     .arg(pauseMs);
    }
    if (strategies.isEmpty())
        p << LabSettingsText::tr("strategies: choose at least one");
    return p;
}

} // namespace lab
