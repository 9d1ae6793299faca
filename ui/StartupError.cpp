// SPDX-License-Identifier: GPL-3.0-or-later
#include "StartupError.h"

#include <QMessageBox>

#include <cstdio>

namespace ui {

void reportStartupError(const QString &summary, const QString &detail)
{
    std::fprintf(stderr, "inventory-console: %s %s\n", qPrintable(summary), qPrintable(detail));
    QMessageBox box(QMessageBox::Critical, QStringLiteral("Inventory Console"), summary,
                    QMessageBox::Close);
    box.setObjectName(QStringLiteral("startupError"));
    box.setInformativeText(detail);
    box.exec();
}

} // namespace ui
