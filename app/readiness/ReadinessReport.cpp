// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReadinessReport.h"
#include "core/DataPaths.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QSaveFile>

#include <sys/stat.h>

namespace readiness {

namespace {

// The HTML report's colours: the same shades as the console's ui/common/Palette.h (the core cannot
// include a ui/ header), so a FAIL in the ticket is the red of the Readiness tab.
QString verdictColour(Verdict v)
{
    switch (v) {
    case Verdict::Pass:
        return QStringLiteral("#2e7d32");
    case Verdict::Warn:
        return QStringLiteral("#a86200");
    case Verdict::Fail:
        return QStringLiteral("#c62828");
    case Verdict::CouldNotCheck:
        break;
    }
    return QStringLiteral("#5f6368");
}

// A Markdown table cell: no line breaks, pipes escaped.
QString cell(QString s)
{
    return s.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
        .replace(QLatin1Char('|'), QLatin1String("\\|"))
        .replace(QLatin1Char('\n'), QLatin1Char(' '));
}

QString counts(const QList<Finding> &findings)
{
    int n[4] = {0, 0, 0, 0};
    for (const Finding &f : findings)
        ++n[int(f.verdict)];
    return QStringLiteral("%1 pass, %2 warn, %3 fail, %4 could not check")
        .arg(n[0])
        .arg(n[1])
        .arg(n[2])
        .arg(n[3]);
}

constexpr const char *ReportContext = "readiness::ReadinessReport";

core::Sentence couldNotWrite(const QString &path, const QString &why)
{
    return core::Sentence::translated(ReportContext, QT_TRANSLATE_NOOP("readiness::ReadinessReport",
                                                                       "could not write %1: %2"))
        .arg(path, why);
}

core::Sentence write(const QString &path, const QByteArray &bytes)
{
    // QSaveFile writes beside the target and renames over it: a device node or a FIFO given
    // as the report (as root, /dev/full) would be replaced by a regular file. Reports go only
    // to regular files, new or existing (a link is judged by what it points to).
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &st) == 0 && !S_ISREG(st.st_mode))
        return core::Sentence::translated(ReportContext,
                                          QT_TRANSLATE_NOOP("readiness::ReadinessReport",
                                                            "could not write %1: it is not a "
                                                            "regular file (a device, FIFO, "
                                                            "socket or directory); give a file "
                                                            "name"))
            .arg(path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !core::makeOpenFilePrivate(file)
        || file.write(bytes) != bytes.size() || !file.commit())
        return couldNotWrite(path, file.errorString());
    return {};
}

} // namespace

ReadinessReport::ReadinessReport(QList<Finding> findings, ReportHeading heading)
    : m_findings(std::move(findings))
    , m_heading(std::move(heading))
{}

void ReadinessReport::addImage(const QString &title, const QImage &image)
{
    m_images << qMakePair(title, image);
}

QString ReadinessReport::text() const
{
    QString out;
    out +=
        QStringLiteral("Readiness of %1 (user %2): %3\n%4\n\n")
            .arg(m_heading.server, m_heading.user, counts(m_findings), auditExitSentence(result()));
    if (!m_heading.note.isEmpty())
        out += m_heading.note + QStringLiteral("\n\n");
    for (const Finding &f : m_findings) {
        out += QStringLiteral("%1  %2\n    %3\n")
                   .arg(verdictLabel(f.verdict).leftJustified(15), f.title, f.why);
        if (!f.evidence.isEmpty())
            out += QStringLiteral("    read: %1\n").arg(f.evidenceText());
    }
    return out;
}

QJsonObject ReadinessReport::json() const
{
    QJsonArray rules;
    for (const Finding &f : m_findings)
        rules.append(f.toJson());
    return {{QStringLiteral("server"), m_heading.server},
            {QStringLiteral("user"), m_heading.user},
            {QStringLiteral("environment"), m_heading.environment},
            {QStringLiteral("time"), m_heading.when.toString(Qt::ISODate)},
            {QStringLiteral("exit"), int(result())},
            {QStringLiteral("summary"), auditExitSentence(result())},
            {QStringLiteral("findings"), rules}};
}

QString ReadinessReport::markdown(const QStringList &imagePaths) const
{
    QString md;
    md += QStringLiteral("# Readiness audit: %1\n\n").arg(m_heading.server);
    md += QStringLiteral("- **Result:** %1 (%2)\n")
              .arg(auditExitSentence(result()), counts(m_findings));
    md += QStringLiteral("- **User:** %1\n").arg(m_heading.user);
    if (!m_heading.environment.isEmpty())
        md += QStringLiteral("- **Environment:** %1\n").arg(m_heading.environment);
    md += QStringLiteral("- **Checked:** %1\n\n").arg(m_heading.when.toString(Qt::ISODate));
    if (!m_heading.note.isEmpty())
        md += QStringLiteral("> %1\n\n").arg(m_heading.note);
    md += QStringLiteral("| Verdict | Rule | Why, and what to do | Values read |\n"
                         "|---|---|---|---|\n");
    for (const Finding &f : m_findings)
        md += QStringLiteral("| **%1** | %2 | %3 | %4 |\n")
                  .arg(verdictLabel(f.verdict), cell(f.title), cell(f.why), cell(f.evidenceText()));
    for (qsizetype i = 0; i < m_images.size(); ++i)
        md += QStringLiteral("\n## %1\n\n![%1](%2)\n")
                  .arg(m_images[i].first,
                       imagePaths.value(i, QStringLiteral("image-%1.png").arg(i + 1)));
    return md;
}

QString ReadinessReport::html() const
{
    const auto e = [](const QString &s) {
        return s.toHtmlEscaped();
    };
    QString h;
    h += QStringLiteral(
             "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
             "<title>Readiness audit: %1</title>\n<style>"
             "body{font-family:sans-serif;margin:2em;max-width:80em}"
             "table{border-collapse:collapse;width:100%}"
             "td,th{border:1px solid #ccc;padding:.4em;vertical-align:top;text-align:left}"
             ".v{font-weight:bold;white-space:nowrap}.ev{color:#5f6368;font-size:90%}"
             "</style></head><body>\n")
             .arg(e(m_heading.server));
    h += QStringLiteral("<h1>Readiness audit: %1</h1>\n<p><b>%2</b> (%3)<br>User: %4")
             .arg(e(m_heading.server), e(auditExitSentence(result())), e(counts(m_findings)),
                  e(m_heading.user));
    if (!m_heading.environment.isEmpty())
        h += QStringLiteral("<br>Environment: %1").arg(e(m_heading.environment));
    h += QStringLiteral("<br>Checked: %1</p>\n").arg(e(m_heading.when.toString(Qt::ISODate)));
    if (!m_heading.note.isEmpty())
        h += QStringLiteral("<blockquote>%1</blockquote>\n").arg(e(m_heading.note));
    h += QStringLiteral("<table><tr><th>Verdict</th><th>Rule</th><th>Why, and what to do</th>"
                        "<th>Values read</th></tr>\n");
    for (const Finding &f : m_findings)
        h += QStringLiteral("<tr><td class=\"v\" style=\"color:%1\">%2</td><td>%3</td><td>%4</td>"
                            "<td class=\"ev\">%5</td></tr>\n")
                 .arg(verdictColour(f.verdict), e(verdictLabel(f.verdict)), e(f.title), e(f.why),
                      e(f.evidenceText()));
    h += QStringLiteral("</table>\n");
    for (const auto &[title, image] : m_images) {
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        image.save(&buffer, "PNG");
        h += QStringLiteral("<h2>%1</h2>\n<img alt=\"%1\" src=\"data:image/png;base64,%2\">\n")
                 .arg(e(title), QString::fromLatin1(png.toBase64()));
    }
    h += QStringLiteral("</body></html>\n");
    return h;
}

core::Sentence ReadinessReport::writeMarkdown(const QString &path) const
{
    const QFileInfo info(path);
    QStringList imagePaths;
    if (!m_images.isEmpty()) {
        const QString dirName = info.completeBaseName() + QStringLiteral("-images");
        QDir dir = info.absoluteDir();
        if (!dir.mkpath(dirName))
            return core::Sentence::translated(ReportContext,
                                              QT_TRANSLATE_NOOP("readiness::ReadinessReport",
                                                                "could not create the folder %1"))
                .arg(dir.filePath(dirName));
        for (qsizetype i = 0; i < m_images.size(); ++i) {
            const QString relative = QStringLiteral("%1/%2.png").arg(dirName).arg(i + 1);
            QByteArray png;
            QBuffer buffer(&png);
            buffer.open(QIODevice::WriteOnly);
            if (!m_images[i].second.save(&buffer, "PNG"))
                return core::Sentence::translated(
                           ReportContext, QT_TRANSLATE_NOOP("readiness::ReadinessReport",
                                                            "could not encode the chart image "
                                                            "%1 as PNG"))
                    .arg(dir.filePath(relative));
            if (auto written = core::writePrivateFile(dir.filePath(relative), png); !written)
                return written.error();
            imagePaths << relative;
        }
    }
    return write(path, markdown(imagePaths).toUtf8());
}

core::Sentence ReadinessReport::writeHtml(const QString &path) const
{
    return write(path, html().toUtf8());
}

} // namespace readiness
