// SPDX-License-Identifier: GPL-3.0-or-later
// The readiness audit's overall verdict and its report formats (no server needed).
#include "FileMode.h"
#include "readiness/ReadinessReport.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using readiness::Finding;
using readiness::Verdict;

namespace {
Finding finding(Verdict v, const QString &why = QStringLiteral("because"))
{
    return Finding{QStringLiteral("rule"),
                   QStringLiteral("A | rule"),
                   v,
                   why,
                   {{QStringLiteral("param"), QStringLiteral("a|b")}}};
}
readiness::ReportHeading heading()
{
    readiness::ReportHeading h;
    h.server = QStringLiteral("h:1");
    h.user = QStringLiteral("u");
    return h;
}
} // namespace

class TstReadinessReport : public QObject
{
    Q_OBJECT

private slots:
    void exitCodes()
    {
        using namespace readiness;
        QCOMPARE(auditExit({}), AuditPassed);
        QCOMPARE(auditExit({finding(Verdict::Pass)}), AuditPassed);
        QCOMPARE(auditExit({finding(Verdict::Pass), finding(Verdict::Warn)}), AuditWarnings);
        // Could not check outranks warnings: the audit is incomplete.
        QCOMPARE(auditExit({finding(Verdict::Warn), finding(Verdict::CouldNotCheck)}),
                 AuditIncomplete);
        // A failure outranks everything: the release is blocked and it says what to fix.
        QCOMPARE(auditExit({finding(Verdict::CouldNotCheck), finding(Verdict::Fail),
                            finding(Verdict::Warn)}),
                 AuditFailures);
    }

    void markdownEscapesCellsAndLinksImages()
    {
        readiness::ReadinessReport report({finding(Verdict::Fail, QStringLiteral("x | y\nz"))},
                                          heading());
        const QString md = report.markdown();
        QVERIFY2(
            md.contains(QStringLiteral("| **FAIL** | A \\| rule | x \\| y z | param = a\\|b |")),
            qPrintable(md));
        QImage image(8, 8, QImage::Format_RGB32);
        image.fill(Qt::red);
        report.addImage(QStringLiteral("Memory"), image);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ticket.md"));
        QCOMPARE(report.writeMarkdown(path).english, QString());
        QVERIFY(QImage(dir.filePath(QStringLiteral("ticket-images/1.png"))).size() == QSize(8, 8));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("![Memory](ticket-images/1.png)"));
        // Private like every file the console writes, whatever the umask.
        QCOMPARE(testsupport::fileMode(path), 0600);
        QCOMPARE(testsupport::fileMode(dir.filePath(QStringLiteral("ticket-images/1.png"))), 0600);
        // Under a plain file no folder can be made, even as root: an error, not a silent loss.
        QVERIFY(!report.writeMarkdown(path + QStringLiteral("/x.md")).isEmpty());
    }

    void htmlIsEscapedAndSelfContained()
    {
        readiness::ReadinessReport report({finding(Verdict::Warn, QStringLiteral("<script>"))},
                                          heading());
        QImage image(4, 4, QImage::Format_RGB32);
        image.fill(Qt::green);
        report.addImage(QStringLiteral("Chart <1>"), image);
        const QString html = report.html();
        QVERIFY(!html.contains(QStringLiteral("<script>")));
        QVERIFY(html.contains(QStringLiteral("&lt;script&gt;")));
        QVERIFY(html.contains(QStringLiteral("Chart &lt;1&gt;")));
        QVERIFY(html.contains(QStringLiteral("src=\"data:image/png;base64,")));
        QVERIFY(html.contains(QStringLiteral("width:100%}")));
        QCOMPARE(report.json()[QStringLiteral("exit")].toInt(), 1);
        QCOMPARE(report.json()[QStringLiteral("findings")].toArray().size(), 1);
    }
};

QTEST_GUILESS_MAIN(TstReadinessReport)
#include "tst_readiness_report.moc"
