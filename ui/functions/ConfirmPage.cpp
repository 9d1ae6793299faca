// SPDX-License-Identifier: GPL-3.0-or-later
#include "ConfirmPage.h"

#include "WizardVerdict.h"
#include "ui/common/NoticeBanner.h"
#include "ui/common/Palette.h"
#include "ui/common/TextStyle.h"

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

ConfirmPage::ConfirmPage(functions::LibraryChange &change, QWidget *parent)
    : QWizardPage(parent)
    , m_change(change)
    , m_what(new QLabel(this))
    , m_prompt(new QLabel(this))
    , m_typed(new QLineEdit(this))
    , m_acknowledge(new QCheckBox(this))
    , m_error(new NoticeBanner(NoticeBanner::Kind::Info, this))
{
    setTitle(tr("Step 5 of 6 · Confirm"));
    setCommitPage(true);
    m_what->setWordWrap(true);
    m_what->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_typed->setAccessibleName(tr("Library name"));
    setTextColour(m_acknowledge, Palette::warning());
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
    // Only the nodes the change is sent to; a node that already holds the result is named
    // apart ("bring nodes in line" leaves the nodes in line alone).
    QStringList nodes, alone;
    for (const functions::NodeState &s : m_change.states())
        (spec.command(s).isEmpty() ? alone : nodes) << s.address;
    QString what;
    switch (spec.action) {
    case functions::ChangeAction::Load:
        what =
            tr("FUNCTION LOAD REPLACE of %1 (%2) as user '%3'")
                .arg(spec.fileLabel(core::Wording::Translated),
                     functions::versionLabel(spec.incoming.version), m_change.context().loadUser);
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
    QString text = tr("On %1: %2.\nContract: %3. Backup: %4.\nAfterwards the console reads "
                      "every library back (FUNCTION LIST WITHCODE) to check the server holds "
                      "exactly what it should, and writes an audit record.")
                       .arg(nodes.join(QStringLiteral(", ")), what,
                            verdictText(m_change.verdict()).toLower(), m_change.backupPath());
    if (nodes.size() > 1)
        text += tr("\nOne node after the other: if one fails, the nodes already changed get "
                   "their backed-up code back, and the rest are left as they are.");
    if (!alone.isEmpty())
        text += tr("\nLeft alone, nothing to change: %1.").arg(alone.join(QStringLiteral(", ")));
    m_what->setText(text);
    m_typed->clear();
    m_prompt->setText(tr("To confirm, type the library name, <b>%1</b>:").arg(spec.library));
    const bool breaking = m_change.needsBreakingAcknowledgement();
    m_acknowledge->setVisible(breaking);
    m_acknowledge->setChecked(false);
    m_acknowledge->setText(
        tr("I understand this is a breaking change: %1")
            .arg(m_change.breakingReasons(core::Wording::Translated).join(QStringLiteral("; "))));
    setButtonText(QWizard::CommitButton, tr("%1 %2").arg(verb, spec.library));
    m_error->setNotice(NoticeBanner::Kind::Danger, QString());
}

bool ConfirmPage::isComplete() const
{
    return m_typed->text() == m_change.spec().library
           && (!m_change.needsBreakingAcknowledgement() || m_acknowledge->isChecked());
}

bool ConfirmPage::validatePage()
{
    const QString why = m_change.confirmation(m_typed->text(), m_acknowledge->isChecked()).text;
    m_error->setNotice(NoticeBanner::Kind::Danger, why);
    return why.isEmpty();
}

} // namespace ui
