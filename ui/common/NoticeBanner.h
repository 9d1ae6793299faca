// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLabel>

namespace ui {

// The strip over a panel or a page that says what must not be missed: a refusal, a failure, a
// warning, how a step went. Every banner in the console is one, so that a warning looks the
// same wherever it appears and a change of colour (Palette's banner roles) is one place.
// A QLabel, so that text(), the text format and the object name work as on any label (the
// GUI tests find banners as labels). Hidden until it has something to say.
class NoticeBanner : public QLabel
{
    Q_OBJECT
public:
    enum class Kind { Info, Success, Warning, Danger };

    explicit NoticeBanner(Kind kind, QWidget *parent = nullptr);

    Kind kind() const { return m_kind; }
    void setKind(Kind kind);
    // Shows `text`, with `detail` on a line of its own under it (a new line in plain text, <br>
    // otherwise); an empty text hides the banner.
    void setNotice(const QString &text, const QString &detail = {});
    void setNotice(Kind kind, const QString &text, const QString &detail = {});

private:
    Kind m_kind;
};

} // namespace ui
