// SPDX-License-Identifier: GPL-3.0-or-later
#include "FormParts.h"

#include "ui/common/Palette.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace ui {

QLabel *noteLabel(const QString &text)
{
    auto *label = new QLabel(text);
    label->setWordWrap(true);
    QFont f = label->font();
    f.setPointSizeF(f.pointSizeF() * 0.92);
    label->setFont(f);
    QPalette pal = label->palette();
    QColor c = pal.color(QPalette::WindowText);
    c.setAlpha(170);
    pal.setColor(QPalette::WindowText, c);
    label->setPalette(pal);
    return label;
}

QWidget *withNote(QWidget *field, QLabel *note, QWidget *into)
{
    QWidget *w = into ? into : new QWidget;
    auto *v = new QVBoxLayout(w);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    v->addWidget(field);
    v->addWidget(note);
    return w;
}

QWidget *row(std::initializer_list<QWidget *> widgets, int stretchIndex)
{
    auto *w = new QWidget;
    auto *h = new QHBoxLayout(w);
    h->setContentsMargins(0, 0, 0, 0);
    int i = 0;
    for (QWidget *child : widgets)
        h->addWidget(child, i++ == stretchIndex ? 1 : 0);
    return w;
}

QString errorStyle()
{
    return Palette::textStyle(Palette::error());
}

} // namespace ui
