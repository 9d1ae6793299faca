// The backup, confirmation and result pages of the LoadWizard.
#include "WizardPages.h"

#include "CommandField.h"

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

namespace {

QString actionVerb(functions::ChangeAction a)
{
    switch (a) {
    case functions::ChangeAction::Load:
        return QObject::tr("Load");
    case functions::ChangeAction::Delete:
        return QObject::tr("Delete");
    case functions::ChangeAction::RestoreCode:
        return QObject::tr("Roll back");
    case functions::ChangeAction::RestoreDump:
        return QObject::tr("Restore");
    }
    return {};
}

} // namespace

QString BackupPage::rollbackCommand(const functions::ChangeContext &context,
                                    const functions::FunctionBackup &backup)
{
    QStringList args{QStringLiteral("inventory-cli"), QStringLiteral("functions"),
                     QStringLiteral("rollback")};
    if (!context.profile.isEmpty())
        args << QStringLiteral("--profile") << context.profile;
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
    , m_summary(noticeLabel(this))
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
    setNotice(
        m_summary, QStringLiteral("info"),
        tr("Reading the libraries and the dump as user '%1'…").arg(m_change.context().loadUser));
    emit completeChanged();
    m_change.backup([this](const core::Result<functions::FunctionBackup, QString> &result) {
        if (!result) {
            setNotice(m_summary, QStringLiteral("error"),
                      tr("No backup, so no change: %1").arg(result.error()));
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
        setNotice(m_summary, QStringLiteral("ok"),
                  tr("Backup written (%1), read as user '%2'.")
                      .arg(QLocale().formattedDataSize(QFileInfo(b.path).size()),
                           m_change.context().loadUser));
        emit completeChanged();
    });
}

ConfirmPage::ConfirmPage(functions::LibraryChange &change, QWidget *parent)
    : QWizardPage(parent)
    , m_change(change)
    , m_what(new QLabel(this))
    , m_prompt(new QLabel(this))
    , m_typed(new QLineEdit(this))
    , m_acknowledge(new QCheckBox(this))
    , m_error(noticeLabel(this))
{
    setTitle(tr("Step 5 of 6 · Confirm"));
    setCommitPage(true);
    m_what->setWordWrap(true);
    m_what->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_typed->setAccessibleName(tr("Library name"));
    m_acknowledge->setStyleSheet(QStringLiteral("QCheckBox { color: #a04000; }"));
    connect(m_typed, &QLineEdit::textChanged, this, &ConfirmPage::completeChanged);
    connect(m_acknowledge, &QCheckBox::toggled, this, &ConfirmPage::completeChanged);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_what);
    layout->addSpacing(8);
    layout->addWidget(m_prompt);
    layout->addWidget(m_typed);
    layout->addWidget(m_acknowledge);
    layout->addWidget(m_error);
    layout->addStretch(1);
}

void ConfirmPage::initializePage()
{
    const functions::ChangeSpec &spec = m_change.spec();
    const QString verb = actionVerb(spec.action);
    setSubTitle(tr("Last step before the server changes. %1 %2?").arg(verb, spec.library));
    QStringList nodes;
    for (const functions::ChangeTarget &t : m_change.context().nodes)
        nodes << t.address;
    QString what;
    switch (spec.action) {
    case functions::ChangeAction::Load:
        what = tr("FUNCTION LOAD REPLACE of %1 (%2) as user '%3'")
                   .arg(spec.incoming.fileName, functions::versionLabel(spec.incoming.version),
                        m_change.context().loadUser);
        break;
    case functions::ChangeAction::Delete:
        what = tr("FUNCTION DELETE %1 as user '%2'").arg(spec.library, m_change.context().loadUser);
        break;
    case functions::ChangeAction::RestoreCode:
        what = tr("put back %1 as backed up in %2, as user '%3'")
                   .arg(spec.library, spec.backup->path, m_change.context().loadUser);
        break;
    case functions::ChangeAction::RestoreDump:
        what = tr("FUNCTION RESTORE %1 of the dump in %2 as user '%3'")
                   .arg(QString::fromLatin1(functions::policyArgument(spec.policy)),
                        spec.backup->path, m_change.context().loadUser);
        break;
    }
    m_what->setText(tr("On %1: %2.\nContract: %3. Backup: %4.\nAfterwards the console reads "
                       "every library back (FUNCTION LIST WITHCODE) to check the server holds "
                       "exactly what it should, and writes an audit record.")
                        .arg(nodes.join(QStringLiteral(", ")), what,
                             verdictText(m_change.verdict()).toLower(), m_change.backupPath()));
    m_typed->clear();
    m_prompt->setText(tr("To confirm, type the library name, <b>%1</b>:").arg(spec.library));
    const bool breaking = m_change.needsBreakingAcknowledgement();
    m_acknowledge->setVisible(breaking);
    m_acknowledge->setChecked(false);
    m_acknowledge->setText(tr("I understand this is a breaking change: %1")
                               .arg(m_change.breakingReasons().join(QStringLiteral("; "))));
    setButtonText(QWizard::CommitButton, tr("%1 %2").arg(verb, spec.library));
    setNotice(m_error, QStringLiteral("error"), QString());
}

bool ConfirmPage::isComplete() const
{
    return m_typed->text() == m_change.spec().library
           && (!m_change.needsBreakingAcknowledgement() || m_acknowledge->isChecked());
}

bool ConfirmPage::validatePage()
{
    const QString why = m_change.confirm(m_typed->text(), m_acknowledge->isChecked());
    setNotice(m_error, QStringLiteral("error"), why);
    return why.isEmpty();
}

ResultPage::ResultPage(functions::LibraryChange &change, QWidget *parent)
    : QWizardPage(parent)
    , m_change(change)
    , m_summary(noticeLabel(this))
    , m_nodes(new QTreeWidget(this))
    , m_backup(new QLabel(this))
{
    setTitle(tr("Step 6 of 6 · Result"));
    setSubTitle(tr("What each node holds now, read back from the server by %1.")
                    .arg(functions::stepUserText(change.context())));
    m_nodes->setHeaderLabels({tr("Node"), tr("Verified"), tr("What happened")});
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
    setNotice(m_summary, QStringLiteral("info"), tr("Working…"));
    m_change.execute([this](const functions::ExecutionReport &report) {
        m_done = true;
        m_nodes->clear();
        for (const functions::NodeOutcome &n : report.nodes)
            new QTreeWidgetItem(m_nodes, {n.address, n.verified ? tr("yes") : tr("NO"), n.message});
        m_nodes->resizeColumnToContents(0);
        m_nodes->resizeColumnToContents(1);
        if (!report.refusal.isEmpty())
            setNotice(m_summary, QStringLiteral("error"),
                      tr("Nothing was sent: %1").arg(report.refusal));
        else if (report.succeeded())
            setNotice(m_summary, QStringLiteral("ok"),
                      tr("Done: %1 verified on every node, audit record written.")
                          .arg(m_change.spec().library));
        else
            setNotice(m_summary, QStringLiteral("error"),
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
