// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QList>
#include <QString>

class QPalette;

namespace ui {

// The console's status colours: one meaning per shade, so that "failed" is the same red in
// a dialog, a table, a banner and the connection bar, and a change of shade is one line.
// Environments (EnvironmentStyle) and deduction outcomes (OutcomeStyle) use them too.
//
// Each meaning has a light and a dark shade; which one a call returns follows the
// application's palette (isDark()), so a dark system palette or View > Theme > Dark gets
// shades that read on dark backgrounds. Text shades reach a WCAG contrast of 4.5 on the
// window and base colours of their variant (tests/ui/tst_theme_contrast). No two meanings
// share a shade within a variant: that is what lets a theme switch find each colour a widget
// holds and give it its other shade (ThemeRetint).
struct Palette
{
    // failed, refused, production, a field that needs fixing
    static QColor error();
    // the background behind error text, an anomalous row
    static QColor errorTint();
    // connected, passed, deducted, test
    static QColor ok();
    // needs a look: a stale file, a shortfall, an acknowledgement
    static QColor warning();
    // the background behind warning text
    static QColor warningTint();
    // behind something that needs acting on soon, though nothing is broken (a receipt
    // about to expire): stronger than warningTint, so that it is seen in a long table
    static QColor soonTint();
    // between the two: reconnecting, staging, a breaking change
    static QColor attention();
    // connecting
    static QColor pending();
    // closed, not sent, no description, no change
    static QColor muted();
    // already applied: nothing went wrong and nothing was done
    static QColor applied();
    // outcome unknown: what happened needs a person to check
    static QColor unknown();
    // the background behind an unknown outcome
    static QColor unknownTint();
    // a local server
    static QColor local();
    // text on a strong colour (the environment strip and badges, a verdict badge): white on
    // the light variant's deep shades, near-black on the dark variant's bright ones
    static QColor onStrong();
    // the background of a card with nothing to report yet
    static QColor idleTint();

    // Banners (NoticeBanner), one set per kind: a pale tint, a softer border and dark text of
    // the same hue, so that the words read easily and the hue still says what kind it is.
    static QColor infoTint();
    static QColor infoBannerBorder();
    static QColor infoBannerText();
    static QColor okTint();
    static QColor okBannerBorder();
    static QColor okBannerText();
    static QColor warningBannerBorder();
    static QColor warningBannerText();
    static QColor errorBannerBorder();
    static QColor errorBannerText();

    // The contract diff's rows (added on okTint): pale backgrounds, near-black text.
    static QColor noticeText();
    static QColor noticeWarning();
    static QColor noticeError();

    // Lua code: the paper (the palette's Base colour), and the diff views' line tints, faint
    // enough that the highlighting stays readable on them
    static QColor paper();
    static QColor codeAdded();
    static QColor codeRemoved();
    static QColor codeChanged();
    static QColor codeFiller();

    // Charts: a series of bars, and a slow log row that is a script
    static QColor series();
    static QColor scriptTint();

    // "color: #c62828;": the style sheet that writes a label in that colour.
    static QString textStyle(const QColor &colour)
    {
        return QStringLiteral("color: %1;").arg(colour.name());
    }

    // Whether the application's palette (or `palette`) is a dark one: its window colour is
    // darker than mid-grey. Decides which shade every function above returns.
    static bool isDark();
    static bool isDark(const QPalette &palette);

    // One meaning's two shades.
    struct Shades
    {
        QColor light;
        QColor dark;
    };
    // Every meaning's shades (paper aside: it is the palette's own Base).
    static const QList<Shades> &allShades();
    // The same meaning's shade in the other variant when `colour` is one of the `fromDark`
    // variant's shades (alpha kept), else an invalid QColor.
    static QColor counterpart(const QColor &colour, bool fromDark);
};

} // namespace ui
