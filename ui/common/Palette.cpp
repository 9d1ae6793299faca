// SPDX-License-Identifier: GPL-3.0-or-later
#include "Palette.h"

#include <QGuiApplication>
#include <QPalette>

#include <array>

namespace ui {

namespace {

enum PaletteMeaning {
    Error,
    ErrorTint,
    Ok,
    Warning,
    WarningTint,
    SoonTint,
    Attention,
    Pending,
    Muted,
    Applied,
    Unknown,
    UnknownTint,
    Local,
    OnStrong,
    IdleTint,
    InfoTint,
    InfoBannerBorder,
    InfoBannerText,
    OkTint,
    OkBannerBorder,
    OkBannerText,
    WarningBannerBorder,
    WarningBannerText,
    ErrorBannerBorder,
    ErrorBannerText,
    NoticeText,
    NoticeWarning,
    NoticeError,
    CodeAdded,
    CodeRemoved,
    CodeChanged,
    CodeFiller,
    Series,
    ScriptTint,
    MeaningCount
};

struct RgbPair
{
    QRgb light;
    QRgb dark;
};

// In PaletteMeaning's order. The light shades sit on Fusion's light window (#efefef) and
// white; the dark ones on a Breeze-like dark window (#31363b) and base (#232629).
constexpr std::array<RgbPair, MeaningCount> PaletteShades = {{
    {0xc62828, 0xff7b72}, // Error
    {0xfdecea, 0x4b2326}, // ErrorTint
    {0x2a7530, 0x56d364}, // Ok
    {0x975700, 0xe3b341}, // Warning
    {0xfff4e5, 0x47381b}, // WarningTint
    {0xffe096, 0x5c4a12}, // SoonTint
    {0xb04c00, 0xffa657}, // Attention
    {0x856400, 0xd8c05a}, // Pending
    {0x5f6368, 0xa0a7b0}, // Muted
    {0x1f5fa8, 0x79b8ff}, // Applied
    {0x7b1fa2, 0xd2a8ff}, // Unknown
    {0xf3e5f5, 0x3b2a4d}, // UnknownTint
    {0x4a6385, 0x9bb3d1}, // Local
    {0xffffff, 0x15181a}, // OnStrong
    {0xf5f5f5, 0x2a2e32}, // IdleTint
    {0xe4effb, 0x1c3350}, // InfoTint
    {0x9ec5fe, 0x3d6da8}, // InfoBannerBorder
    {0x052c65, 0xcfe2ff}, // InfoBannerText
    {0xe2f5e2, 0x1f3d26}, // OkTint
    {0xa3cfbb, 0x3f7f52}, // OkBannerBorder
    {0x0a3622, 0xd1f0da}, // OkBannerText
    {0xffc078, 0x9a6a1f}, // WarningBannerBorder
    {0x5c3300, 0xffe2b3}, // WarningBannerText
    {0xf1aeb5, 0xa3454c}, // ErrorBannerBorder
    {0x58151c, 0xffd7da}, // ErrorBannerText
    {0x202020, 0xeceff1}, // NoticeText
    {0xfff4d6, 0x4a3f1a}, // NoticeWarning
    {0xfde2e2, 0x4f2629}, // NoticeError
    {0xd8f5d8, 0x23402a}, // CodeAdded
    {0xfadbdb, 0x4d2528}, // CodeRemoved
    {0xfbefc9, 0x4a4020}, // CodeChanged
    {0xeeeeee, 0x2c2f33}, // CodeFiller
    {0x1a73e8, 0x8ab4f8}, // Series
    {0xe8f0fe, 0x1e2f4a}, // ScriptTint
}};

QColor shadeFor(PaletteMeaning meaning)
{
    const RgbPair &pair = PaletteShades[meaning];
    return QColor::fromRgb(Palette::isDark() ? pair.dark : pair.light);
}

} // namespace

QColor Palette::error()
{
    return shadeFor(Error);
}
QColor Palette::errorTint()
{
    return shadeFor(ErrorTint);
}
QColor Palette::ok()
{
    return shadeFor(Ok);
}
QColor Palette::warning()
{
    return shadeFor(Warning);
}
QColor Palette::warningTint()
{
    return shadeFor(WarningTint);
}
QColor Palette::soonTint()
{
    return shadeFor(SoonTint);
}
QColor Palette::attention()
{
    return shadeFor(Attention);
}
QColor Palette::pending()
{
    return shadeFor(Pending);
}
QColor Palette::muted()
{
    return shadeFor(Muted);
}
QColor Palette::applied()
{
    return shadeFor(Applied);
}
QColor Palette::unknown()
{
    return shadeFor(Unknown);
}
QColor Palette::unknownTint()
{
    return shadeFor(UnknownTint);
}
QColor Palette::local()
{
    return shadeFor(Local);
}
QColor Palette::onStrong()
{
    return shadeFor(OnStrong);
}
QColor Palette::idleTint()
{
    return shadeFor(IdleTint);
}
QColor Palette::infoTint()
{
    return shadeFor(InfoTint);
}
QColor Palette::infoBannerBorder()
{
    return shadeFor(InfoBannerBorder);
}
QColor Palette::infoBannerText()
{
    return shadeFor(InfoBannerText);
}
QColor Palette::okTint()
{
    return shadeFor(OkTint);
}
QColor Palette::okBannerBorder()
{
    return shadeFor(OkBannerBorder);
}
QColor Palette::okBannerText()
{
    return shadeFor(OkBannerText);
}
QColor Palette::warningBannerBorder()
{
    return shadeFor(WarningBannerBorder);
}
QColor Palette::warningBannerText()
{
    return shadeFor(WarningBannerText);
}
QColor Palette::errorBannerBorder()
{
    return shadeFor(ErrorBannerBorder);
}
QColor Palette::errorBannerText()
{
    return shadeFor(ErrorBannerText);
}
QColor Palette::noticeText()
{
    return shadeFor(NoticeText);
}
QColor Palette::noticeWarning()
{
    return shadeFor(NoticeWarning);
}
QColor Palette::noticeError()
{
    return shadeFor(NoticeError);
}
QColor Palette::codeAdded()
{
    return shadeFor(CodeAdded);
}
QColor Palette::codeRemoved()
{
    return shadeFor(CodeRemoved);
}
QColor Palette::codeChanged()
{
    return shadeFor(CodeChanged);
}
QColor Palette::codeFiller()
{
    return shadeFor(CodeFiller);
}
QColor Palette::series()
{
    return shadeFor(Series);
}
QColor Palette::scriptTint()
{
    return shadeFor(ScriptTint);
}

QColor Palette::paper()
{
    return QGuiApplication::palette().color(QPalette::Base);
}

bool Palette::isDark()
{
    return isDark(QGuiApplication::palette());
}

bool Palette::isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

const QList<Palette::Shades> &Palette::allShades()
{
    static const QList<Shades> all = [] {
        QList<Shades> list;
        for (const RgbPair &pair : PaletteShades)
            list.append({QColor::fromRgb(pair.light), QColor::fromRgb(pair.dark)});
        return list;
    }();
    return all;
}

QColor Palette::counterpart(const QColor &colour, bool fromDark)
{
    if (!colour.isValid())
        return {};
    const QRgb shade = colour.rgb() & RGB_MASK; // the shade, whatever its alpha
    for (const RgbPair &pair : PaletteShades) {
        if ((fromDark ? pair.dark : pair.light) == shade) {
            QColor other = QColor::fromRgb(fromDark ? pair.light : pair.dark);
            other.setAlpha(colour.alpha());
            return other;
        }
    }
    return {};
}

} // namespace ui
