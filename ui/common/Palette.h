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

    // "color: #c62828;": the style sheet that writes a label in that colour.
    static QString textStyle(const QColor &colour)
    {
        return QStringLiteral("color: %1;").arg(colour.name());
    }
};

} // namespace ui
