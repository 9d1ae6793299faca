// SPDX-License-Identifier: GPL-3.0-or-later
#include "NoticeBanner.h"

#include "Palette.h"

namespace ui {

namespace {

struct BannerColours
{
    QColor background;
    QColor border;
    QColor text;
};

BannerColours coloursOf(NoticeBanner::Kind kind)
{
    switch (kind) {
    case NoticeBanner::Kind::Info:
        return {Palette::infoTint(), Palette::infoBannerBorder(), Palette::infoBannerText()};
    case NoticeBanner::Kind::Success:
        return {Palette::okTint(), Palette::okBannerBorder(), Palette::okBannerText()};
    case NoticeBanner::Kind::Warning:
        return {Palette::warningTint(), Palette::warningBannerBorder(),
                Palette::warningBannerText()};
    case NoticeBanner::Kind::Danger:
        break;
    }
    return {Palette::errorTint(), Palette::errorBannerBorder(), Palette::errorBannerText()};
}

} // namespace

NoticeBanner::NoticeBanner(Kind kind, QWidget *parent)
    : QLabel(parent)
    , m_kind(kind)
{
    setWordWrap(true);
    // What a banner says is often what gets pasted into a ticket.
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setKind(kind);
    hide();
}

void NoticeBanner::setKind(Kind kind)
{
    m_kind = kind;
    const BannerColours c = coloursOf(kind);
    // A style sheet rather than a palette: the rounded border has no palette role.
    setStyleSheet(QStringLiteral("QLabel { background: %1; border: 1px solid %2; color: %3;"
                                 " border-radius: 4px; padding: 6px 8px; }")
                      .arg(c.background.name(), c.border.name(), c.text.name()));
}

void NoticeBanner::setNotice(const QString &text, const QString &detail)
{
    const QString newLine =
        textFormat() == Qt::PlainText ? QStringLiteral("\n") : QStringLiteral("<br>");
    setText(detail.isEmpty() || text.isEmpty() ? text : text + newLine + detail);
    setVisible(!text.isEmpty());
}

void NoticeBanner::setNotice(Kind kind, const QString &text, const QString &detail)
{
    if (kind != m_kind)
        setKind(kind);
    setNotice(text, detail);
}

} // namespace ui
