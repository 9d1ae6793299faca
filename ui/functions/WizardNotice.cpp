#include "WizardNotice.h"

#include "ui/common/Palette.h"

#include <QLabel>

namespace ui {

using functions::Verdict;

QLabel *noticeLabel(QWidget *parent)
{
    auto *l = new QLabel(parent);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setVisible(false);
    return l;
}

void setNotice(QLabel *label, const QString &kind, const QString &text)
{
    static const QHash<QString, QString> colours{
        {QStringLiteral("warning"), QStringLiteral("#fff4d6; border: 1px solid #e0b040")},
        {QStringLiteral("error"), QStringLiteral("#fde2e2; border: 1px solid #d05050")},
        {QStringLiteral("info"), QStringLiteral("#e4effb; border: 1px solid #6a9fd8")},
        {QStringLiteral("ok"), QStringLiteral("#e2f5e2; border: 1px solid #5aa55a")}};
    label->setStyleSheet(QStringLiteral("QLabel { background: %1; border-radius: 4px; "
                                        "padding: 6px; color: #202020; }")
                             .arg(colours.value(kind)));
    label->setText(text);
    label->setVisible(!text.isEmpty());
}

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
    return QStringLiteral("QLabel { background: %1; color: white; font-weight: bold; "
                          "border-radius: 4px; padding: 3px 8px; }")
        .arg(bg.name());
}

} // namespace ui
