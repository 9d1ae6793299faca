// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QString>

namespace ui {

// The console's status colours: one shade per meaning, so that "failed" is the same red in
// a dialog, a table, a banner and the connection bar, and a change of shade is one line.
// Environments (EnvironmentStyle) and deduction outcomes (OutcomeStyle) use them too.
struct Palette
{
    // failed, refused, production, a field that needs fixing
    static QColor error() { return QColor(0xc62828); }
    // the background behind error text, an anomalous row
    static QColor errorTint() { return QColor(0xfdecea); }
    // connected, passed, deducted, test
    static QColor ok() { return QColor(0x2e7d32); }
    // needs a look: a stale file, a shortfall, an acknowledgement
    static QColor warning() { return QColor(0xa86200); }
    // the background behind warning text
    static QColor warningTint() { return QColor(0xfff4e5); }
    // behind something that needs acting on soon, though nothing is broken (a receipt
    // about to expire): stronger than warningTint, so that it is seen in a long table
    static QColor soonTint() { return QColor(0xffe096); }
    // between the two: reconnecting, staging, a breaking change
    static QColor attention() { return QColor(0xe66a00); }
    // connecting
    static QColor pending() { return QColor(0xb8860b); }
    // closed, not sent, no description, no change
    static QColor muted() { return QColor(0x5f6368); }
    // already applied: nothing went wrong and nothing was done
    static QColor applied() { return QColor(0x1f5fa8); }
    // outcome unknown: what happened needs a person to check
    static QColor unknown() { return QColor(0x7b1fa2); }
    // a local server
    static QColor local() { return QColor(0x4a6385); }
    // text on a strong colour (the environment strip and badges, a verdict badge)
    static QColor onStrong() { return QColor(0xffffff); }
    // the background of a card with nothing to report yet
    static QColor idleTint() { return QColor(0xf5f5f5); }

    // Banners (NoticeBanner), one set per kind: a pale tint, a softer border and dark text of
    // the same hue, so that the words read easily and the hue still says what kind it is.
    static QColor infoTint() { return QColor(0xe4effb); }
    static QColor infoBannerBorder() { return QColor(0x9ec5fe); }
    static QColor infoBannerText() { return QColor(0x052c65); }
    static QColor okTint() { return QColor(0xe2f5e2); }
    static QColor okBannerBorder() { return QColor(0xa3cfbb); }
    static QColor okBannerText() { return QColor(0x0a3622); }
    static QColor warningBannerBorder() { return QColor(0xffc078); }
    static QColor warningBannerText() { return QColor(0x5c3300); }
    static QColor errorBannerBorder() { return QColor(0xf1aeb5); }
    static QColor errorBannerText() { return QColor(0x58151c); }

    // The contract diff's rows (added on okTint): pale backgrounds, near-black text.
    static QColor noticeText() { return QColor(0x202020); }
    static QColor noticeWarning() { return QColor(0xfff4d6); }
    static QColor noticeError() { return QColor(0xfde2e2); }

    // Lua code: the paper, and the diff views' line tints (light, so that the highlighting
    // stays readable on them)
    static QColor paper() { return QColor(0xffffff); }
    static QColor codeAdded() { return QColor(0xd8f5d8); }
    static QColor codeRemoved() { return QColor(0xfadbdb); }
    static QColor codeChanged() { return QColor(0xfbefc9); }
    static QColor codeFiller() { return QColor(0xeeeeee); }

    // Charts: a series of bars, and a slow log row that is a script
    static QColor series() { return QColor(0x1a73e8); }
    static QColor scriptTint() { return QColor(0xe8f0fe); }

    // "color: #c62828;": the style sheet that writes a label in that colour.
    static QString textStyle(const QColor &colour)
    {
        return QStringLiteral("color: %1;").arg(colour.name());
    }
};

} // namespace ui
