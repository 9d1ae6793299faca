// SPDX-License-Identifier: GPL-3.0-or-later
#include "SshForm.h"

#include "FormParts.h"
#include "ssh/SshTarget.h"

#include <QCheckBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace ui {

namespace {
// A note under a field: the problem in the error colour, or a quiet hint.
void showNote(QLabel *note, const QString &problem, const QString &hint)
{
    note->setStyleSheet(problem.isEmpty() ? QString() : errorStyle());
    note->setText(problem.isEmpty() ? hint : problem);
}
} // namespace

SshForm::SshForm(QWidget *parent)
    : ProfileForm(parent)
{
    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(noteLabel(
        tr("When the server is only reachable from a bastion host, the console opens an SSH "
           "tunnel with this machine's OpenSSH client and every connection goes through it. "
           "The host on the Connection tab is then as the bastion sees it, and the server is "
           "production unless you label it.")));
    m_bastion = endpointField("sshBastionEdit", tr("Bastion:"),
                              tr("user@bastion.example.com[:22]; empty: connect directly"));
    m_jump = endpointField("sshJumpEdit", tr("Jump host:"), tr("optional: user@jump[:port]"));
    form->addRow(tr("Bastion:"), withNote(m_bastion.edit, m_bastion.note));
    form->addRow(tr("Jump host:"), withNote(m_jump.edit, m_jump.note));
    form->addRow(tr("Identity file:"), identityRow());
    m_useConfig = new QCheckBox(tr("Use ~/.ssh/config"));
    m_useConfig->setObjectName(QStringLiteral("sshUseConfig"));
    QLabel *configNote = noteLabel(tr("Reads your ssh configuration too, so a Host alias works "
                                      "as the bastion; host keys are still checked strictly "
                                      "against the console's own known_hosts."));
    // The form gives a wrapped note more height than it needs: the spare goes below it, not
    // between the box and its note.
    QWidget *config = withNote(m_useConfig, configNote);
    static_cast<QVBoxLayout *>(config->layout())->addStretch(1);
    form->addRow(QString(), config);
    connect(m_useConfig, &QCheckBox::toggled, this, &SshForm::updateNotes);
    updateNotes();
    setFieldWidget(QStringLiteral("ssh.bastion"), m_bastion.edit);
}

SshForm::Field SshForm::endpointField(const char *name, const QString &label,
                                      const QString &placeholder)
{
    Field f{new QLineEdit, noteLabel()};
    f.edit->setObjectName(QLatin1String(name));
    f.edit->setPlaceholderText(placeholder);
    f.edit->setAccessibleName(label);
    f.note->setObjectName(QLatin1String(name) + QStringLiteral("Note"));
    connect(f.edit, &QLineEdit::textChanged, this, &SshForm::updateNotes);
    return f;
}

QWidget *SshForm::identityRow()
{
    m_identity = endpointField("sshIdentityEdit", tr("Identity file:"),
                               tr("optional: the key file; empty: the SSH agent"));
    auto *browse = new QPushButton(tr("Browse…"));
    browse->setObjectName(QStringLiteral("sshIdentityBrowse"));
    browse->setAutoDefault(false);
    connect(browse, &QPushButton::clicked, this, &SshForm::browseForIdentity);
    return withNote(row({m_identity.edit, browse}), m_identity.note);
}

void SshForm::load(const profiles::ConnectionProfile &p)
{
    m_bastion.edit->setText(p.ssh.bastion);
    m_jump.edit->setText(p.ssh.jump);
    m_identity.edit->setText(p.ssh.identityFile);
    m_useConfig->setChecked(p.ssh.useSshConfig);
    updateNotes();
}

void SshForm::apply(profiles::ConnectionProfile &p) const
{
    p.ssh.bastion = m_bastion.edit->text().trimmed();
    p.ssh.jump = m_jump.edit->text().trimmed();
    p.ssh.identityFile = m_identity.edit->text().trimmed();
    p.ssh.useSshConfig = m_useConfig->isChecked();
}

void SshForm::browseForIdentity()
{
    const QString current = m_identity.edit->text();
    const QString start =
        current.isEmpty() ? QDir::home().filePath(QStringLiteral(".ssh")) : current;
    const QString file = QFileDialog::getOpenFileName(window(), tr("Identity file"), start);
    if (!file.isEmpty())
        m_identity.edit->setText(file);
}

void SshForm::updateNotes()
{
    const QString bastion = m_bastion.edit->text().trimmed();
    emit bastionSet(!bastion.isEmpty());
    const QString jump = m_jump.edit->text().trimmed();
    const QString identity = m_identity.edit->text().trimmed();
    QString problem;
    if (!bastion.isEmpty())
        if (const auto e = ssh::parseEndpoint(bastion, tr("bastion"), core::Wording::Translated);
            !e.ok())
            problem = e.error();
    showNote(m_bastion.note, problem,
             bastion.isEmpty()          ? tr("No bastion: the console connects to the server "
                                                      "directly.")
             : m_useConfig->isChecked() ? tr("A Host alias of ~/.ssh/config works here.")
                                        : tr("Left out, the port is 22 and the user your "
                                             "login name."));
    problem.clear();
    if (!jump.isEmpty())
        if (const auto e = ssh::parseEndpoint(jump, tr("jump host"), core::Wording::Translated);
            !e.ok())
            problem = e.error();
    if (!jump.isEmpty() && bastion.isEmpty())
        problem = tr("A jump host needs a bastion.");
    showNote(m_jump.note, problem, tr("Reached first, and checked as strictly as the bastion."));
    const QFileInfo file(identity);
    showNote(m_identity.note,
             !identity.isEmpty() && (!file.isFile() || !file.isReadable())
                 ? tr("Not a readable file.")
                 : QString(),
             tr("Its passphrase, if any, is asked when connecting and kept in memory only."));
}

} // namespace ui
