// SPDX-License-Identifier: GPL-3.0-or-later
#include "StartupError.h"

#include <QMessageBox>

#include <cstdio>

namespace ui {

void reportStartupError(const core::Sentence &summary, const core::Sentence &detail)
{
    std::fprintf(stderr, "inventory-console: %s %s\n", qPrintable(summary.english),
                 qPrintable(detail.english));
    QMessageBox box(QMessageBox::Critical, QStringLiteral("Inventory Console"), summary.text,
                    QMessageBox::Close);
    box.setObjectName(QStringLiteral("startupError"));
    box.setInformativeText(detail.text);
    box.exec();
}

} // namespace ui
