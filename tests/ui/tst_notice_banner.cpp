// SPDX-License-Identifier: GPL-3.0-or-later
// The one notice banner of the console: each kind keeps its meaning's hue from the palette, an
// empty text hides it, and a detail goes on a line of its own in either text format.
#include "ui/common/NoticeBanner.h"
#include "ui/common/Palette.h"

#include <QTest>

using ui::NoticeBanner;
using ui::Palette;

class TstNoticeBanner : public QObject
{
    Q_OBJECT

private slots:
    void eachKindTakesItsHueFromThePalette()
    {
        NoticeBanner banner(NoticeBanner::Kind::Warning);
        QVERIFY(banner.styleSheet().contains(Palette::warningTint().name()));
        QVERIFY(banner.styleSheet().contains(Palette::warningBannerText().name()));
        banner.setNotice(NoticeBanner::Kind::Danger, QStringLiteral("Refused"));
        QCOMPARE(banner.kind(), NoticeBanner::Kind::Danger);
        QVERIFY(banner.styleSheet().contains(Palette::errorTint().name()));
        QVERIFY(!banner.styleSheet().contains(Palette::warningTint().name()));
        banner.setKind(NoticeBanner::Kind::Info);
        QVERIFY(banner.styleSheet().contains(Palette::infoTint().name()));
        banner.setKind(NoticeBanner::Kind::Success);
        QVERIFY(banner.styleSheet().contains(Palette::okTint().name()));
    }

    void anEmptyTextHidesIt()
    {
        QWidget parent;
        auto *banner = new NoticeBanner(NoticeBanner::Kind::Info, &parent);
        parent.show();
        QVERIFY(!banner->isVisible()); // nothing said yet
        banner->setNotice(QStringLiteral("Working…"));
        QVERIFY(banner->isVisible());
        QCOMPARE(banner->text(), QStringLiteral("Working…"));
        banner->setNotice(QString(), QStringLiteral("a detail alone says nothing"));
        QVERIFY(!banner->isVisible());
        QCOMPARE(banner->text(), QString());
    }

    void theDetailGoesOnALineOfItsOwn()
    {
        NoticeBanner plain(NoticeBanner::Kind::Warning);
        plain.setTextFormat(Qt::PlainText);
        plain.setNotice(QStringLiteral("2 lines could not be read:"), QStringLiteral("a\nb"));
        QCOMPARE(plain.text(), QStringLiteral("2 lines could not be read:\na\nb"));
        NoticeBanner rich(NoticeBanner::Kind::Danger);
        rich.setTextFormat(Qt::RichText);
        rich.setNotice(QStringLiteral("<b>Not connected</b>: refused"), QStringLiteral("Retry"));
        QCOMPARE(rich.text(), QStringLiteral("<b>Not connected</b>: refused<br>Retry"));
    }
};

QTEST_MAIN(TstNoticeBanner)
#include "tst_notice_banner.moc"
