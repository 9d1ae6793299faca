// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReadinessPanel.h"

#include "FindingsModel.h"
#include "browse/InventoryScan.h"
#include "readiness/ReadinessAudit.h"
#include "ui/common/NoticeBanner.h"
#include "ui/common/Palette.h"
#include "ui/common/TextStyle.h"

#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace ui {

ReadinessPanel::ReadinessPanel(redis::CommandSender &sender, browse::InventoryScan &scan,
                               ReadinessContext context, QWidget *parent)
    : QWidget(parent)
    , m_scan(scan)
    , m_context(std::move(context))
{
    setObjectName(QStringLiteral("readinessPanel"));
    m_audit = new readiness::ReadinessAudit(sender, this);
    connect(m_audit, &readiness::ReadinessAudit::finished, this, &ReadinessPanel::showFindings);
    followScan();
    auto *top = buildHeader();
    m_note = new NoticeBanner(NoticeBanner::Kind::Warning);
    m_note->setObjectName(QStringLiteral("readinessNote"));
    m_note->setTextFormat(Qt::PlainText);
    auto *table = buildTable();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    layout->addLayout(top);
    layout->addWidget(m_note);
    layout->addWidget(table, 1);
}

void ReadinessPanel::followScan()
{
    m_scanSeen = m_scan.isRunning() || m_scan.isComplete() || !m_scan.lastError().isEmpty();
    connect(&m_scan, &browse::InventoryScan::started, this, [this] { m_scanSeen = true; });
    connect(&m_scan, &browse::InventoryScan::finished, this, [this] {
        if (m_scan.isRunning())
            return; // restarted meanwhile: wait for that one
        if (m_waitingScan) {
            m_waitingScan = false;
            runAudit();
        } else {
            m_stale = true; // the receipt and stock rules would read something new
            if (isVisible() && !m_checking)
                recheck();
        }
    });
}

QHBoxLayout *ReadinessPanel::buildHeader()
{
    m_headline = new QLabel(tr("Not checked yet"));
    m_headline->setObjectName(QStringLiteral("readinessHeadline"));
    QFont big = m_headline->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.2);
    m_headline->setFont(big);
    m_headline->setWordWrap(true);
    m_detail = new QLabel;
    m_detail->setObjectName(QStringLiteral("readinessDetail"));
    m_detail->setWordWrap(true);
    setTextColour(m_detail, Palette::muted());
    m_recheck = new QPushButton(tr("&Re-check"));
    m_recheck->setObjectName(QStringLiteral("readinessRecheck"));
    m_recheck->setToolTip(tr("Read the server again and re-run every rule (F5)"));
    connect(m_recheck, &QPushButton::clicked, this, &ReadinessPanel::recheck);
    m_export = new QPushButton(tr("&Export…"));
    m_export->setObjectName(QStringLiteral("readinessExport"));
    m_export->setToolTip(tr("Save the findings as Markdown or HTML for a release ticket"));
    m_export->setEnabled(false);
    connect(m_export, &QPushButton::clicked, this, &ReadinessPanel::exportDialog);

    auto *top = new QHBoxLayout;
    auto *titles = new QVBoxLayout;
    titles->addWidget(m_headline);
    titles->addWidget(m_detail);
    top->addLayout(titles, 1);
    top->addWidget(m_recheck, 0, Qt::AlignTop);
    top->addWidget(m_export, 0, Qt::AlignTop);
    return top;
}

QTableView *ReadinessPanel::buildTable()
{
    m_model = new FindingsModel(this);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("readinessTable"));
    m_table->setModel(m_model);
    m_table->setWordWrap(true);
    m_table->setTextElideMode(Qt::ElideNone);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    QHeaderView *h = m_table->horizontalHeader();
    h->setSectionResizeMode(FindingsModel::VerdictColumn, QHeaderView::ResizeToContents);
    h->setSectionResizeMode(FindingsModel::RuleColumn, QHeaderView::Interactive);
    h->setSectionResizeMode(FindingsModel::WhyColumn, QHeaderView::Stretch);
    h->setSectionResizeMode(FindingsModel::EvidenceColumn, QHeaderView::Interactive);
    m_table->setColumnWidth(FindingsModel::RuleColumn, 230);
    m_table->setColumnWidth(FindingsModel::EvidenceColumn, 320);
    // Rows follow the wrapped sentence when the window is resized.
    connect(h, &QHeaderView::sectionResized, m_table, [this] { m_table->resizeRowsToContents(); });
    return m_table;
}

ReadinessPanel::~ReadinessPanel() = default;

void ReadinessPanel::setNote(const QString &note)
{
    m_note->setNotice(note);
}

void ReadinessPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale && !m_checking)
        recheck();
}

void ReadinessPanel::recheck()
{
    m_stale = false;
    m_checking = true;
    m_recheck->setEnabled(false);
    setTextColour(m_headline, QColor());
    if (m_scan.isRunning()) {
        m_waitingScan = true;
        m_headline->setText(tr("Waiting for the key scan…"));
        m_detail->setText(tr("The receipt and stock rules read the Keys tab's scan."));
        return;
    }
    if (!m_scanSeen) {
        // Nothing was scanned yet: scan every SKU, as the Keys tab would, then check.
        m_waitingScan = true;
        m_headline->setText(tr("Scanning the keys…"));
        m_detail->setText(tr("The receipt and stock rules need a scan of the stock and receipt "
                             "keys; the Keys tab shows the same scan."));
        m_scan.start({});
        return;
    }
    runAudit();
}

void ReadinessPanel::keysChanged()
{
    m_scanSeen = false;
    m_stale = true;
    if (isVisible())
        recheck();
}

void ReadinessPanel::runAudit()
{
    m_headline->setText(tr("Checking…"));
    readiness::AuditRequest request;
    request.user = m_context.user;
    request.settings = m_context.settings;
    const browse::InventoryScan::Options &scanned = m_scan.options();
    readiness::KeyspaceFacts facts = readiness::KeyspaceFacts::of(
        m_scan.store(), QDateTime::currentMSecsSinceEpoch(),
        m_context.settings.retryWindowSeconds * 1000, m_scan.isComplete(), m_scan.lastError());
    if (!scanned.skuGlob.isEmpty())
        facts.scope = tr("SKUs matching '%1' (the Keys tab's filter)")
                          .arg(QString::fromUtf8(scanned.skuGlob));
    request.keyspace = facts;
    m_audit->start(request);
}

void ReadinessPanel::showFindings(const QList<readiness::Finding> &findings)
{
    m_checking = false;
    m_recheck->setEnabled(true);
    m_export->setEnabled(true);
    m_checkedAt = QDateTime::currentDateTime();
    m_model->setFindings(findings);
    m_table->resizeRowsToContents();
    const readiness::AuditExit result = readiness::auditExit(findings);
    const QColor colour = result == readiness::AuditPassed     ? Palette::ok()
                          : result == readiness::AuditWarnings ? Palette::warning()
                          : result == readiness::AuditFailures ? Palette::error()
                                                               : Palette::muted();
    m_headline->setText(readiness::auditExitSentence(result));
    setTextColour(m_headline, colour);
    int counts[4] = {0, 0, 0, 0};
    for (const readiness::Finding &f : findings)
        ++counts[int(f.verdict)];
    m_detail->setText(tr("%1 pass, %2 warn, %3 fail, %4 could not check — %5 as user '%6', "
                         "checked %7. The same audit runs headless: inventory-cli audit.")
                          .arg(counts[0])
                          .arg(counts[1])
                          .arg(counts[2])
                          .arg(counts[3])
                          .arg(m_context.server, m_context.user,
                               m_checkedAt.toString(QStringLiteral("HH:mm:ss"))));
    emit checked();
}

readiness::ReadinessReport ReadinessPanel::report() const
{
    readiness::ReportHeading heading;
    heading.server = m_context.server;
    heading.user = m_context.user;
    heading.environment = m_context.environment;
    if (m_checkedAt.isValid())
        heading.when = m_checkedAt.toUTC();
    heading.note = m_note->isVisible() || !m_note->text().isEmpty() ? m_note->text() : QString();
    readiness::ReadinessReport r(m_model->findings(), heading);
    if (m_images)
        for (const auto &[title, image] : m_images())
            r.addImage(title, image);
    return r;
}

core::Sentence ReadinessPanel::exportTo(const QString &path) const
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    const readiness::ReadinessReport r = report();
    return suffix == QLatin1String("html") || suffix == QLatin1String("htm")
               ? r.writeHtml(path)
               : r.writeMarkdown(path);
}

void ReadinessPanel::exportDialog()
{
    const QString markdown = tr("Markdown (*.md)");
    const QString html = tr("HTML, one self-contained file (*.html)");
    QString filter = markdown;
    const QString name = QStringLiteral("readiness-%1.md")
                             .arg(m_checkedAt.toString(QStringLiteral("yyyyMMdd-HHmm")));
    QString path = QFileDialog::getSaveFileName(this, tr("Export the readiness report"), name,
                                                markdown + QStringLiteral(";;") + html, &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += filter == html ? QStringLiteral(".html") : QStringLiteral(".md");
    const core::Sentence problem = exportTo(path);
    if (!problem.isEmpty())
        QMessageBox::warning(
            this, tr("Export failed"),
            tr("The report was not saved: %1. Choose another folder.").arg(problem.text));
}

} // namespace ui
