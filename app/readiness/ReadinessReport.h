// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Finding.h"
#include "core/Wording.h"

#include <QDateTime>
#include <QImage>
#include <QJsonObject>

namespace readiness {

// Where and when an audit ran, for the report's heading.
struct ReportHeading
{
    QString server;      // host:port (the first primary of a cluster)
    QString user;        // the audited user
    QString environment; // the profile's label
    QDateTime when = QDateTime::currentDateTimeUtc();
    QString note; // a paragraph under the heading (the demo explains itself here); may be empty
};

// The audit as a document for a release ticket: the verdict, then one entry per rule with its
// why sentence and evidence, then any images (charts). Markdown and self-contained HTML for
// the ticket, plain text and JSON for `inventory-cli audit`.
class ReadinessReport
{
public:
    ReadinessReport(QList<Finding> findings, ReportHeading heading);

    // A picture for the report (a chart): inlined as a data: URI in HTML, written as a PNG
    // next to the Markdown file. Charts views add theirs here.
    void addImage(const QString &title, const QImage &image);

    const QList<Finding> &findings() const { return m_findings; }
    AuditExit result() const { return auditExit(m_findings); }

    QString text() const;
    QJsonObject json() const;
    // imagePaths: the file each image is written to, relative to the Markdown file.
    QString markdown(const QStringList &imagePaths = {}) const;
    QString html() const;

    // Writes the Markdown to `path` and the images beside it (<name>-images/1.png ...);
    // empty when it worked, else why not.
    core::Sentence writeMarkdown(const QString &path) const;
    core::Sentence writeHtml(const QString &path) const;

private:
    QList<Finding> m_findings;
    ReportHeading m_heading;
    QList<QPair<QString, QImage>> m_images;
};

} // namespace readiness
