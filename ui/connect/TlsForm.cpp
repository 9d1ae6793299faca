// SPDX-License-Identifier: GPL-3.0-or-later
#include "TlsForm.h"

#include "FormParts.h"
#include "profiles/RedisUrl.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace ui {

TlsForm::TlsForm(QWidget *parent)
    : ProfileForm(parent)
{
    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_enabled = new QCheckBox(tr("Connect with TLS (rediss://)"));
    m_enabled->setObjectName(QStringLiteral("tlsEnabled"));
    form->addRow(m_enabled);
    m_ca = addFileRow(form, "tlsCaEdit", tr("CA certificate:"), tr("system trust store"));
    m_cert = addFileRow(form, "tlsCertEdit", tr("Client certificate:"), tr("none"));
    m_key = addFileRow(form, "tlsKeyEdit", tr("Client key:"), tr("none"));
    m_serverName = new QLineEdit;
    m_serverName->setObjectName(QStringLiteral("tlsServerNameEdit"));
    m_serverName->setPlaceholderText(tr("the host name"));
    form->addRow(tr("Server name:"), m_serverName);
    m_tlsOnly << m_serverName;
    m_verify = new QCheckBox(tr("Verify the server certificate"));
    m_verify->setObjectName(QStringLiteral("tlsVerify"));
    m_verify->setChecked(true);
    form->addRow(m_verify);
    m_tlsOnly << m_verify;
    m_warning = noteLabel(tr("Without verification anyone on the path can pose as the server "
                             "and read the password."));
    m_warning->setStyleSheet(errorStyle());
    form->addRow(m_warning);
    connect(m_enabled, &QCheckBox::toggled, this, &TlsForm::updateState);
    connect(m_verify, &QCheckBox::toggled, this, &TlsForm::updateState);
    updateState();
    setFieldWidget(QStringLiteral("tls.enabled"), m_enabled);
    setFieldWidget(QStringLiteral("tls.caFile"), m_ca);
    setFieldWidget(QStringLiteral("tls.certFile"), m_cert);
    setFieldWidget(QStringLiteral("tls.keyFile"), m_key);
}

QLineEdit *TlsForm::addFileRow(QFormLayout *form, const char *name, const QString &label,
                               const QString &placeholder)
{
    auto *edit = new QLineEdit;
    edit->setObjectName(QLatin1String(name));
    edit->setPlaceholderText(placeholder);
    auto *browse = new QPushButton(tr("Browse…"));
    browse->setAutoDefault(false);
    connect(browse, &QPushButton::clicked, this,
            [this, edit, label] { browseForFile(edit, label); });
    QWidget *r = row({edit, browse});
    form->addRow(label, r);
    m_tlsOnly << r;
    return edit;
}

void TlsForm::load(const profiles::ConnectionProfile &p)
{
    m_enabled->setChecked(p.tls.enabled);
    m_ca->setText(p.tls.caFile);
    m_cert->setText(p.tls.certFile);
    m_key->setText(p.tls.keyFile);
    m_serverName->setText(p.tls.serverName);
    m_verify->setChecked(p.tls.verifyPeer);
}

void TlsForm::apply(profiles::ConnectionProfile &p) const
{
    p.tls.enabled = m_enabled->isChecked();
    if (p.tls.enabled) {
        p.tls.caFile = m_ca->text().trimmed();
        p.tls.certFile = m_cert->text().trimmed();
        p.tls.keyFile = m_key->text().trimmed();
        p.tls.serverName = m_serverName->text().trimmed();
    }
    p.tls.verifyPeer = m_verify->isChecked();
}

void TlsForm::fillFromUrl(const profiles::ParsedRedisUrl &url)
{
    m_enabled->setChecked(url.profile.tls.enabled);
    if (url.profile.tls.enabled)
        m_verify->setChecked(true);
}

void TlsForm::browseForFile(QLineEdit *target, const QString &title)
{
    // Over the dialog, as any other of its questions.
    const QString file = QFileDialog::getOpenFileName(window(), title, target->text(),
                                                      tr("PEM files (*.pem *.crt *.key);;All "
                                                         "files (*)"));
    if (!file.isEmpty())
        target->setText(file);
}

void TlsForm::updateState()
{
    const bool on = m_enabled->isChecked();
    for (QWidget *w : m_tlsOnly)
        w->setEnabled(on);
    m_warning->setVisible(on && !m_verify->isChecked());
}

} // namespace ui
