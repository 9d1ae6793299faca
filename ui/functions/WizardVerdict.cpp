// SPDX-License-Identifier: GPL-3.0-or-later
#include "WizardVerdict.h"

#include "ui/common/Palette.h"

#include <QObject>

namespace ui {

using functions::Verdict;

QString verdictText(Verdict v)
{
    switch (v) {
    case Verdict::NoChange:
        return QObject::tr("No change");
    case Verdict::Compatible:
        return QObject::tr("Compatible change");
    case Verdict::Breaking:
        return QObject::tr("Breaking change");
    case Verdict::Refused:
        return QObject::tr("Refused");
    }
    return {};
}

QString verdictStyle(Verdict v)
{
    const QColor bg = v == Verdict::NoChange     ? Palette::muted()
                      : v == Verdict::Compatible ? Palette::ok()
                      : v == Verdict::Breaking   ? Palette::attention()
                                                 : Palette::error();
    return QStringLiteral("QLabel { background: %1; color: %2; font-weight: bold; "
                          "border-radius: 4px; padding: 3px 8px; }")
        .arg(bg.name(), Palette::onStrong().name());
}

} // namespace ui
