// SPDX-License-Identifier: GPL-3.0-or-later
#include "BackupPage.h"

#include "CommandField.h"
#include "ui/common/NoticeBanner.h"

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

QString BackupPage::rollbackCommand(const functions::ChangeContext &context,
                                    const functions::FunctionBackup &backup)
{
    QStringList args{QStringLiteral("inventory-cli"), QStringLiteral("functions"),
                     QStringLiteral("rollback")};
    // Never "--profile NAME" by itself: an unsaved profile (the demo's, a --url session) has no
    // such name for the CLI to find.
    if (!context.cliConnection.isEmpty())
        args << context.cliConnection;
    else if (!context.nodes.isEmpty())
        args << QStringLiteral("--url")
             << QStringLiteral("redis://%1").arg(context.nodes.first().address);
    args << QStringLiteral("--backup") << backup.path;
    if (!backup.library.isEmpty())
        args << QStringLiteral("--confirm") << backup.library;
    for (QString &a : args)
        a = CommandField::shellQuote(a);
    return args.join(QLatin1Char(' '));
}

BackupPage::BackupPage(functions::LibraryChange &change, QWidget *parent)
    : QWizardPage(parent)
    , m_change(change)
    , m_summary(new NoticeBanner(NoticeBanner::Kind::Info, this))
    , m_path(new QLineEdit(this))
    , m_contents(new QLabel(this))
    , m_howBack(new QLabel(this))
    , m_command(new CommandField(this))
    , m_again(new QPushButton(tr("Try again"), this))
{
    setTitle(tr("Step 4 of 6 · Backup"));
    setSubTitle(tr("Before anything changes, the code of every library and a full FUNCTION "
                   "DUMP of every node are saved to a file: the way back. Read as %1.")
                    .arg(functions::stepUserText(change.context())));
    m_path->setReadOnly(true);
    m_path->setAccessibleName(tr("Backup file"));
    m_contents->setWordWrap(true);
    m_howBack->setWordWrap(true);
    m_howBack->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_again->hide();
    connect(m_again, &QPushButton::clicked, this, &BackupPage::run);
    auto *form = new QFormLayout;
    form->addRow(tr("Backup file:"), m_path);
    form->addRow(tr("Contents:"), m_contents);
    form->addRow(tr("To go back:"), m_howBack);
    form->addRow(QString(), m_command);
    m_command->hide();
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addLayout(form);
    layout->addWidget(m_again, 0, Qt::AlignLeft);
    layout->addStretch(1);
}

void BackupPage::initializePage()
{
    run();
}

bool BackupPage::isComplete() const
{
    return m_done;
}

void BackupPage::run()
{
    m_done = false;
    m_again->hide();
    m_summary->setNotice(
        NoticeBanner::Kind::Info,
        tr("Reading the libraries and the dump as user '%1'…").arg(m_change.context().loadUser));
    emit completeChanged();
    m_change.backup([this](const core::Result<functions::FunctionBackup, core::Sentence> &result) {
        if (!result) {
            m_summary->setNotice(NoticeBanner::Kind::Danger,
                                 tr("No backup, so no change: %1").arg(result.error().text));
            m_again->show();
            return;
        }
        const functions::FunctionBackup &b = result.value();
        m_done = true;
        m_path->setText(b.path);
        m_path->setCursorPosition(0);
        QStringList lines;
        for (const functions::NodeBackup &n : b.nodes) {
            QStringList libs;
            for (const redis::LibraryInfo &l : n.libraries)
                libs << QStringLiteral("%1 %2").arg(
                    l.name, functions::versionLabel(functions::libraryVersion(l.code)));
            lines << tr("%1 (Redis %2): %3; FUNCTION DUMP of %4")
                         .arg(n.address, n.redisVersion,
                              libs.isEmpty() ? tr("no libraries") : libs.join(QStringLiteral(", ")),
                              QLocale().formattedDataSize(n.dump.size()));
        }
        m_contents->setText(lines.join(QLatin1Char('\n')));
        m_howBack->setText(tr("Libraries ▸ Roll back… and choose %1, or run this command:")
                               .arg(QFileInfo(b.path).fileName()));
        m_command->setCommand(rollbackCommand(m_change.context(), b));
        m_command->show();
        m_summary->setNotice(NoticeBanner::Kind::Success,
                             tr("Backup written (%1), read as user '%2'.")
                                 .arg(QLocale().formattedDataSize(QFileInfo(b.path).size()),
                                      m_change.context().loadUser));
        emit completeChanged();
    });
}

} // namespace ui
