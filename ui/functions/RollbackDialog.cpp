// SPDX-License-Identifier: GPL-3.0-or-later
#include "RollbackDialog.h"

#include "ui/common/Palette.h"

#include "functions/FunctionBackup.h"
#include "functions/LibraryVersion.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ui {

namespace {

// A name of its own: in a unity build this file shares one translation unit with others
// (LibrariesView.cpp has a Column enum too).
struct BackupColumn
{
    enum { Library, Version, Nodes, Taken, MadeBefore, File, ColumnCount };
};
constexpr int PathRole = Qt::UserRole;
constexpr int TimeRole = Qt::UserRole + 1;
constexpr int OtherNodeRole = Qt::UserRole + 2;

QString actionText(const QString &action)
{
    if (action == QLatin1String("load"))
        return QObject::tr("before a load");
    if (action == QLatin1String("delete"))
        return QObject::tr("before a delete");
    if (action == QLatin1String("rollback"))
        return QObject::tr("before a rollback");
    if (action == QLatin1String("restore"))
        return QObject::tr("before a dump restore");
    return action;
}

struct Way
{
    QString title;
    QString explanation;
};

} // namespace

RollbackDialog::RollbackDialog(const QString &backupDirectory, const QString &library,
                               const QStringList &sessionNodes, QWidget *parent)
    : QDialog(parent)
    , m_library(library)
    , m_sessionNodes(sessionNodes)
    , m_otherNodeAck(new QCheckBox(this))
    , m_backups(new QTreeWidget(this))
    , m_empty(new QLabel(this))
    , m_ways(new QButtonGroup(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Roll back"));
    auto *intro = new QLabel(tr("Choose the state to go back to. A backup is written before "
                                "every load, delete and rollback; each row is the state just "
                                "before that change. Nothing changes until the last step of "
                                "the wizard that follows."),
                             this);
    intro->setWordWrap(true);

    fillBackupList(backupDirectory, library);

    auto *other = new QPushButton(tr("Other file…"), this);
    connect(other, &QPushButton::clicked, this, &RollbackDialog::chooseOther);

    auto *how = buildWaysBox();

    m_otherNodeAck->setObjectName(QStringLiteral("otherNodeAcknowledgement"));
    m_otherNodeAck->hide();
    connect(m_otherNodeAck, &QCheckBox::toggled, this, &RollbackDialog::updateOk);

    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Continue…"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_backups, &QTreeWidget::currentItemChanged, this, &RollbackDialog::updateOk);

    auto *row = new QHBoxLayout;
    row->addWidget(m_empty, 1);
    row->addStretch();
    row->addWidget(other);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_backups, 1);
    layout->addLayout(row);
    layout->addWidget(how);
    layout->addWidget(m_otherNodeAck);
    layout->addWidget(m_buttons);
    updateOk();
    resize(900, 600);
}

void RollbackDialog::fillBackupList(const QString &backupDirectory, const QString &library)
{
    m_backups->setColumnCount(BackupColumn::ColumnCount);
    m_backups->setHeaderLabels(
        {tr("Library"), tr("Version then"), tr("Node"), tr("Taken"), tr("Taken"), tr("File")});
    m_backups->headerItem()->setText(BackupColumn::MadeBefore, tr("Why"));
    m_backups->setRootIsDecorated(false);
    m_backups->setAlternatingRowColors(true);
    m_backups->setAccessibleName(tr("Backups"));
    m_backups->header()->setStretchLastSection(true);
    m_empty->setWordWrap(true);
    m_empty->hide();

    const QDir dir(backupDirectory);
    for (const QFileInfo &f : dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files))
        addBackup(f.absoluteFilePath());
    m_backups->sortItems(BackupColumn::Taken, Qt::DescendingOrder);
    // The selected library's newest backup first.
    QTreeWidgetItem *first = nullptr;
    for (int i = 0; i < m_backups->topLevelItemCount() && !first; ++i)
        if (library.isEmpty() || m_backups->topLevelItem(i)->text(BackupColumn::Library) == library)
            first = m_backups->topLevelItem(i);
    if (!first && m_backups->topLevelItemCount() > 0)
        first = m_backups->topLevelItem(0);
    if (first)
        m_backups->setCurrentItem(first);
    if (m_backups->topLevelItemCount() == 0) {
        m_empty->setText(tr("No backups in %1 yet: every load writes one there. Use \"Other "
                            "file…\" for a backup kept elsewhere.")
                             .arg(QDir::toNativeSeparators(backupDirectory)));
        m_empty->show();
    }
    for (int c = 0; c < BackupColumn::File; ++c)
        m_backups->resizeColumnToContents(c);
}

QGroupBox *RollbackDialog::buildWaysBox()
{
    const Way ways[] = {
        {tr("Put this library's code back as it was (recommended)"),
         tr("Loads the library's code from the backup with FUNCTION LOAD REPLACE, or deletes "
            "the library if it did not exist then. No other library is touched.")},
        {tr("Restore the whole dump, replacing libraries of the same name (REPLACE)"),
         tr("FUNCTION RESTORE REPLACE: every library in the backup is put back, replacing a "
            "loaded library of the same name. Libraries loaded since the backup stay.")},
        {tr("Restore the whole dump after removing every library (FLUSH)"),
         tr("FUNCTION RESTORE FLUSH: deletes every loaded library first, then loads the "
            "backup's. The node ends up exactly as it was; libraries loaded since are gone.")},
        {tr("Add the dump's libraries to those loaded (APPEND)"),
         tr("FUNCTION RESTORE APPEND: adds the backup's libraries and fails, changing "
            "nothing, if any of them is loaded already. Useful on an empty node.")},
    };
    auto *how = new QGroupBox(tr("How to go back"), this);
    auto *howLayout = new QVBoxLayout(how);
    int id = 0;
    for (const Way &w : ways) {
        auto *radio = new QRadioButton(w.title, how);
        auto *explain = new QLabel(w.explanation, how);
        explain->setWordWrap(true);
        explain->setIndent(24);
        QFont small = explain->font();
        small.setPointSizeF(small.pointSizeF() * 0.92);
        explain->setFont(small);
        m_ways->addButton(radio, id++);
        howLayout->addWidget(radio);
        howLayout->addWidget(explain);
    }
    m_ways->button(0)->setChecked(true);
    return how;
}

bool RollbackDialog::addBackup(const QString &path, QString *error)
{
    const auto backup = functions::FunctionBackup::read(path);
    if (!backup) {
        if (error)
            *error = backup.error().text;
        return false;
    }
    const functions::FunctionBackup &b = backup.value();
    QStringList nodes;
    QString version = tr("not loaded");
    for (const functions::NodeBackup &n : b.nodes) {
        nodes << n.address;
        if (const redis::LibraryInfo *l = n.library(b.library))
            version = functions::versionLabel(functions::libraryVersion(l->code));
    }
    auto *item = new QTreeWidgetItem;
    const QDateTime local = b.created.toLocalTime();
    item->setText(BackupColumn::Library, b.library.isEmpty() ? tr("(every library)") : b.library);
    item->setText(BackupColumn::Version, version);
    // Ours when any node of the backup is one of the session's.
    bool ours = m_sessionNodes.isEmpty();
    for (const QString &n : nodes)
        ours = ours || m_sessionNodes.contains(n);
    item->setText(BackupColumn::Nodes,
                  ours ? nodes.join(QStringLiteral(", "))
                       : tr("%1 — another node").arg(nodes.join(QStringLiteral(", "))));
    item->setData(BackupColumn::Library, OtherNodeRole, !ours);
    if (!ours) {
        const QString why =
            tr("Taken on %1; this session is connected to %2.")
                .arg(nodes.join(QStringLiteral(", ")), m_sessionNodes.join(QStringLiteral(", ")));
        for (int c = 0; c < BackupColumn::ColumnCount; ++c) {
            item->setForeground(c, Palette::warning());
            item->setToolTip(c, why);
        }
        item->setIcon(BackupColumn::Nodes, style()->standardIcon(QStyle::SP_MessageBoxWarning));
    }
    item->setText(BackupColumn::Taken, local.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
    item->setText(BackupColumn::MadeBefore, actionText(b.action));
    item->setText(BackupColumn::File, QFileInfo(path).fileName());
    item->setToolTip(BackupColumn::File,
                     QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath()));
    item->setData(BackupColumn::Library, PathRole, QFileInfo(path).absoluteFilePath());
    item->setData(BackupColumn::Library, TimeRole, local);
    m_backups->addTopLevelItem(item);
    m_backups->setCurrentItem(item);
    m_empty->hide();
    return true;
}

QString RollbackDialog::backupPath() const
{
    const QTreeWidgetItem *item = m_backups->currentItem();
    return item ? item->data(BackupColumn::Library, PathRole).toString() : QString();
}

std::optional<functions::RestorePolicy> RollbackDialog::policy() const
{
    switch (m_ways->checkedId()) {
    case 1:
        return functions::RestorePolicy::Replace;
    case 2:
        return functions::RestorePolicy::Flush;
    case 3:
        return functions::RestorePolicy::Append;
    default:
        return std::nullopt;
    }
}

void RollbackDialog::setWay(int way)
{
    if (QAbstractButton *b = m_ways->button(way))
        b->setChecked(true);
}

void RollbackDialog::chooseOther()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Roll back from a backup"),
                                                      QString(), tr("Backups (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!addBackup(path, &error))
        QMessageBox::warning(this, tr("Roll back"), error);
}

bool RollbackDialog::selectedIsFromAnotherNode() const
{
    const QTreeWidgetItem *item = m_backups->currentItem();
    return item && item->data(BackupColumn::Library, OtherNodeRole).toBool();
}

QPushButton *RollbackDialog::continueButton() const
{
    return m_buttons->button(QDialogButtonBox::Ok);
}

void RollbackDialog::updateOk()
{
    const bool other = selectedIsFromAnotherNode();
    if (other) {
        const QTreeWidgetItem *item = m_backups->currentItem();
        m_otherNodeAck->setText(
            tr("This backup was taken on another node (%1), not on %2: restore it here anyway")
                .arg(item->text(BackupColumn::Nodes).section(QStringLiteral(" — "), 0, 0),
                     m_sessionNodes.join(QStringLiteral(", "))));
    } else if (m_otherNodeAck->isChecked()) {
        m_otherNodeAck->setChecked(false); // an acknowledgement is for one backup only
    }
    m_otherNodeAck->setVisible(other);
    continueButton()->setEnabled(m_backups->currentItem() != nullptr
                                 && (!other || m_otherNodeAck->isChecked()));
}

} // namespace ui
