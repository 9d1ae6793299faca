// SPDX-License-Identifier: GPL-3.0-or-later
#include "ResultPage.h"

#include "ui/common/NoticeBanner.h"
#include "ui/common/Palette.h"

#include "functions/ChangeUser.h"
#include "functions/LibraryVersion.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ui {

ResultPage::ResultPage(functions::LibraryChange &change, QWidget *parent)
    : QWizardPage(parent)
    , m_change(change)
    , m_summary(new NoticeBanner(NoticeBanner::Kind::Info, this))
    , m_nodes(new QTreeWidget(this))
    , m_backup(new QLabel(this))
{
    setTitle(tr("Step 6 of 6 · Result"));
    setSubTitle(tr("What each node holds now, read back from the server by %1.")
                    .arg(functions::stepUserText(change.context())));
    m_nodes->setHeaderLabels(
        {tr("Node"), tr("Ended"), tr("Holds now (read back)"), tr("What happened")});
    m_nodes->setRootIsDecorated(false);
    m_nodes->setWordWrap(true);
    m_nodes->header()->setStretchLastSection(true);
    m_backup->setWordWrap(true);
    m_backup->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_nodes, 1);
    layout->addWidget(m_backup);
}

void ResultPage::initializePage()
{
    m_done = false;
    m_summary->setNotice(NoticeBanner::Kind::Info, tr("Working…"));
    m_change.execute([this](const functions::ExecutionReport &report) {
        m_done = true;
        m_nodes->clear();
        for (const functions::NodeOutcome &n : report.nodes) {
            auto *item = new QTreeWidgetItem(
                m_nodes,
                {n.address, functions::finalStateWord(n.finalState, core::Wording::Translated),
                 n.holds.text, n.message.text});
            item->setToolTip(3, n.message.text);
            // Where the node ended, in the colour of its meaning: changed as asked, put back
            // or untouched (nothing to do), or a state to look at.
            const bool changed = n.verified && !n.rolledBack && n.attempted;
            const bool settled = n.settled();
            item->setForeground(1, changed   ? Palette::ok()
                                   : settled ? Palette::muted()
                                             : Palette::error());
            if (!changed && !settled)
                for (int c = 0; c < 4; ++c)
                    item->setBackground(c, Palette::errorTint());
        }
        for (int c = 0; c < 3; ++c)
            m_nodes->resizeColumnToContents(c);
        if (!report.refusal.isEmpty())
            m_summary->setNotice(NoticeBanner::Kind::Danger,
                                 tr("Nothing was sent: %1").arg(report.refusal.text));
        else if (report.succeeded())
            m_summary->setNotice(NoticeBanner::Kind::Success,
                                 tr("Done: %1 verified on every node, audit record written.")
                                     .arg(m_change.spec().library));
        else if (report.rolledBack())
            m_summary->setNotice(
                NoticeBanner::Kind::Danger,
                tr("The change failed on one node, so the nodes already changed were "
                   "rolled back to the backup and the ones after it left as they were: "
                   "the table says where each node ended."));
        else
            m_summary->setNotice(
                NoticeBanner::Kind::Danger,
                tr("The change did not go through everywhere: read each node's line. "
                   "Nodes after a failed one were left as they were."));
        m_backup->setText(tr("Backup of the state before: %1").arg(report.backupPath));
        emit completeChanged();
        emit finished(report);
    });
}

bool ResultPage::isComplete() const
{
    return m_done;
}

} // namespace ui
