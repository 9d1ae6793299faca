// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "readiness/ReadinessReport.h"
#include "readiness/Rules.h"

#include <QWidget>
#include <functional>

class QHBoxLayout;
class QLabel;
class QPushButton;
class QTableView;

namespace browse {
class InventoryScan;
}
namespace redis {
class CommandSender;
}
namespace readiness {
class ReadinessAudit;
}

namespace ui {

class FindingsModel;
class NoticeBanner;

// Who the audit is about, as the window knows it.
struct ReadinessContext
{
    QString server;
    QString user;
    QString environment;
    readiness::AuditSettings settings;
};

// The Readiness tab: every rule of the readiness audit with its verdict and the sentence that
// says why and what to do, a Re-check button (F5 while the tab is shown) and Export… to
// Markdown or self-contained HTML for a release ticket. The receipt and stock rules read the
// key browser's last scan; when nothing was scanned yet, the panel starts that scan itself.
class ReadinessPanel : public QWidget
{
    Q_OBJECT
public:
    // Neither the sender nor the scan is owned; both outlive the panel.
    ReadinessPanel(redis::CommandSender &sender, browse::InventoryScan &scan,
                   ReadinessContext context, QWidget *parent = nullptr);
    ~ReadinessPanel() override;

    // The session's label changed (a Local claim proven, or found not to be): the report
    // names the one acted on.
    void setEnvironment(const QString &environment) { m_context.environment = environment; }
    // A paragraph above the table and in the report (the demo says why it fails rules).
    void setNote(const QString &note);
    // Pictures for the report, asked for at export time (chart views plug in here).
    using ImageSource = std::function<QList<QPair<QString, QImage>>()>;
    void setImageSource(ImageSource source) { m_images = std::move(source); }

    FindingsModel *model() const { return m_model; }
    readiness::ReadinessReport report() const;
    // Writes the report to `path`: HTML for *.html / *.htm, Markdown otherwise. Empty when
    // it worked, else why not.
    core::Sentence exportTo(const QString &path) const;
    bool isChecking() const { return m_checking; }

public slots:
    void recheck();
    // The keys changed under the last scan (the demo was seeded): scan again before the
    // receipt and stock rules are checked next.
    void keysChanged();

signals:
    void checked(); // findings updated

protected:
    void showEvent(QShowEvent *event) override;

private:
    // A scan finishing starts the audit waiting for it, or marks the findings stale.
    void followScan();
    QHBoxLayout *buildHeader();
    QTableView *buildTable();
    void runAudit();
    void showFindings(const QList<readiness::Finding> &findings);
    void exportDialog();

    browse::InventoryScan &m_scan;
    ReadinessContext m_context;
    readiness::ReadinessAudit *m_audit = nullptr;
    FindingsModel *m_model = nullptr;
    QLabel *m_headline = nullptr;
    QLabel *m_detail = nullptr;
    NoticeBanner *m_note = nullptr;
    QPushButton *m_recheck = nullptr;
    QPushButton *m_export = nullptr;
    QTableView *m_table = nullptr;
    ImageSource m_images;
    QDateTime m_checkedAt;
    bool m_scanSeen = false;    // the key scan has run (or is running) at least once
    bool m_waitingScan = false; // the audit runs when the scan finishes
    bool m_checking = false;
    bool m_stale = true; // check again when next shown
};

} // namespace ui
