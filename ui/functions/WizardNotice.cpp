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
    // background, border
    static const QHash<QString, std::pair<QColor, QColor>> colours{
        {QStringLiteral("warning"), {Palette::noticeWarning(), Palette::noticeWarningBorder()}},
        {QStringLiteral("error"), {Palette::noticeError(), Palette::noticeErrorBorder()}},
        {QStringLiteral("info"), {Palette::noticeInfo(), Palette::noticeInfoBorder()}},
        {QStringLiteral("ok"), {Palette::noticeOk(), Palette::noticeOkBorder()}}};
    const auto [background, border] = colours.value(kind);
    label->setStyleSheet(QStringLiteral("QLabel { background: %1; border: 1px solid %2; "
                                        "border-radius: 4px; padding: 6px; color: %3; }")
                             .arg(background.name(), border.name(), Palette::noticeText().name()));
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
    return QStringLiteral("QLabel { background: %1; color: %2; font-weight: bold; "
                          "border-radius: 4px; padding: 3px 8px; }")
        .arg(bg.name(), Palette::onStrong().name());
}

} // namespace ui
