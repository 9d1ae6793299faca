// SPDX-License-Identifier: GPL-3.0-or-later
#include "HostKeyDialog.h"

#include "FormParts.h"
#include "ui/common/Palette.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace ui {

namespace {
QLabel *fact(const QString &text, const char *name, bool mono = false)
{
    auto *l = new QLabel(text);
    l->setObjectName(QLatin1String(name));
    // Read, not copied: the fingerprint to paste must come from somewhere else.
    l->setTextInteractionFlags(Qt::NoTextInteraction);
    if (mono)
        l->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return l;
}

// Where OpenSSH keeps a host key of this type on the host.
QString hostKeyFile(const QString &keyType)
{
    QString kind = QStringLiteral("*");
    if (keyType.contains(QLatin1String("ed25519")))
        kind = QStringLiteral("ed25519");
    else if (keyType.startsWith(QLatin1String("ecdsa")))
        kind = QStringLiteral("ecdsa");
    else if (keyType.contains(QLatin1String("rsa")))
        kind = QStringLiteral("rsa");
    return QStringLiteral("/etc/ssh/ssh_host_%1_key.pub").arg(kind);
}

QLabel *wrapped(const QString &text)
{
    auto *l = new QLabel(text);
    l->setWordWrap(true);
    l->setTextFormat(Qt::RichText);
    return l;
}
} // namespace

HostKeyDialog::HostKeyDialog(const ssh::SshError &error, const QString &route, bool production,
                             QWidget *parent)
    : QDialog(parent)
    , m_offered(error.hostKey.offeredFingerprint)
    , m_changed(error.kind == ssh::SshFailure::HostKeyChanged)
{
    setObjectName(QStringLiteral("hostKeyDialog"));
    const ssh::HostKeyInfo &key = error.hostKey;
    const QString which = key.onJumpHost ? tr("the jump host") : tr("the bastion");
    setWindowTitle(m_changed ? tr("SSH host key changed") : tr("Unknown SSH host key"));
    auto *layout = new QVBoxLayout(this);
    QLabel *headline = wrapped(
        m_changed
            ? tr("<b>The host key of %1 %2 has CHANGED.</b>").arg(which, key.host.toHtmlEscaped())
            : tr("<b>The console has never connected to %1 %2 before.</b>")
                  .arg(which, key.host.toHtmlEscaped()));
    headline->setObjectName(QStringLiteral("hostKeyHeadline"));
    layout->addWidget(headline);
    layout->addWidget(noteLabel(tr("Route: %1").arg(route)));
    layout->addWidget(buildFacts(key));
    const bool trustable = !(m_changed && production);
    if (m_changed)
        layout->addWidget(buildWarning(key, production));
    else
        layout->addWidget(wrapped(
            tr("Anyone on the way could pose as this host. Compare its fingerprint with one "
               "obtained another way: ask the host's administrator, who can read it on the host "
               "itself with<br><tt>&nbsp;&nbsp;ssh-keygen -lf %1</tt><br>Paste that fingerprint "
               "below: Trust is enabled only when it is exactly the same.")
                .arg(hostKeyFile(key.keyType))));
    if (trustable)
        layout->addWidget(buildConfirmation());
    layout->addWidget(noteLabel(tr("Trusted keys are written to the console's own known_hosts "
                                   "(%1), never to ~/.ssh/known_hosts.")
                                    .arg(key.knownHostsFile.toHtmlEscaped())));
    auto *buttons = new QDialogButtonBox;
    if (trustable) {
        m_trust = buttons->addButton(m_changed ? tr("&Replace the key and connect")
                                               : tr("&Trust and connect"),
                                     QDialogButtonBox::AcceptRole);
        m_trust->setObjectName(QStringLiteral("trustButton"));
    }
    QPushButton *cancel =
        buttons->addButton(trustable ? tr("Cancel") : tr("Close"), QDialogButtonBox::RejectRole);
    cancel->setObjectName(QStringLiteral("cancelButton"));
    cancel->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    updateMatch();
    setMinimumWidth(620);
}

QWidget *HostKeyDialog::buildFacts(const ssh::HostKeyInfo &key)
{
    auto *box = new QWidget;
    auto *form = new QFormLayout(box);
    form->addRow(tr("Host:"), fact(key.host, "hostKeyHost"));
    form->addRow(tr("Key type:"), fact(key.keyType, "hostKeyType"));
    form->addRow(m_changed ? tr("Offered now:") : tr("Fingerprint:"),
                 fact(key.offeredFingerprint, "offeredFingerprint", true));
    if (m_changed)
        form->addRow(
            tr("Trusted before:"),
            fact(key.knownFingerprint.isEmpty() ? tr("(could not be read)") : key.knownFingerprint,
                 "knownFingerprint", true));
    return box;
}

QLabel *HostKeyDialog::buildWarning(const ssh::HostKeyInfo &key, bool production)
{
    QString text = tr("The host offers a different key than the one trusted before. Someone may "
                      "be intercepting the connection (a man-in-the-middle attack), or the host "
                      "was reinstalled. Do not continue until its administrator confirms the new "
                      "key.");
    if (production)
        text += QStringLiteral("<br><br>")
                + tr("This profile is <b>production</b> (a server behind a bastion is, until "
                     "labelled): the console does not replace a trusted key for it. Once the "
                     "change is confirmed, remove the lines for <tt>%1</tt> from <tt>%2</tt> "
                     "and connect again.")
                      .arg(key.host.toHtmlEscaped(), key.knownHostsFile.toHtmlEscaped());
    else
        text += QStringLiteral("<br><br>")
                + tr("To replace the trusted key, paste the new fingerprint the administrator "
                     "gave you.");
    QLabel *warning = wrapped(text);
    warning->setObjectName(QStringLiteral("hostKeyWarning"));
    warning->setStyleSheet(Palette::textStyle(Palette::error()));
    return warning;
}

QWidget *HostKeyDialog::buildConfirmation()
{
    m_pasted = new QLineEdit;
    m_pasted->setObjectName(QStringLiteral("fingerprintEdit"));
    m_pasted->setPlaceholderText(tr("SHA256:… as obtained from the host's administrator"));
    m_pasted->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_match = noteLabel();
    m_match->setObjectName(QStringLiteral("fingerprintMatch"));
    connect(m_pasted, &QLineEdit::textChanged, this, &HostKeyDialog::updateMatch);
    auto *box = new QWidget;
    auto *form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Fingerprint you obtained:"), withNote(m_pasted, m_match));
    return box;
}

QString HostKeyDialog::confirmedFingerprint() const
{
    if (!m_pasted || m_offered.isEmpty() || m_pasted->text().trimmed() != m_offered)
        return {};
    return m_offered;
}

void HostKeyDialog::updateMatch()
{
    if (!m_trust)
        return;
    const bool matches = !confirmedFingerprint().isEmpty();
    m_trust->setEnabled(matches);
    if (m_pasted->text().trimmed().isEmpty()) {
        m_match->setStyleSheet(QString());
        m_match->setText(tr("Paste the fingerprint to compare."));
    } else {
        m_match->setStyleSheet(Palette::textStyle(matches ? Palette::ok() : Palette::error()));
        m_match->setText(matches ? tr("Matches the key the host offers.")
                                 : tr("Does not match the key the host offers: do not trust "
                                      "it."));
    }
}

} // namespace ui
