// SPDX-License-Identifier: GPL-3.0-or-later
#include "TextStyle.h"

#include <QColor>
#include <QWidget>

namespace ui {

void setTextColour(QWidget *widget, const QColor &colour)
{
    if (colour.isValid()) {
        QPalette p = widget->palette();
        // A label or a check box writes with WindowText, an edit or a view with Text.
        p.setColor(QPalette::WindowText, colour);
        p.setColor(QPalette::Text, colour);
        widget->setPalette(p);
    } else {
        widget->setPalette(QPalette()); // nothing of its own: the parent's again
    }
}

void setBold(QWidget *widget, bool bold)
{
    QFont f = widget->font();
    f.setBold(bold);
    widget->setFont(f);
}

void setHeading(QWidget *widget)
{
    QFont f = widget->font();
    f.setPixelSize(15);
    f.setBold(true);
    widget->setFont(f);
}

void boldGroupTitles(QWidget *container)
{
    container->setStyleSheet(QStringLiteral("QGroupBox { font-weight: bold; }"));
}

} // namespace ui
