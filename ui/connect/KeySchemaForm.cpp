// SPDX-License-Identifier: GPL-3.0-or-later
#include "KeySchemaForm.h"

#include "FormParts.h"
#include "overview/ServerOverview.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace ui {

KeySchemaForm::KeySchemaForm(QWidget *parent)
    : ProfileForm(parent)
{
    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(noteLabel(tr("<sku> and <order> are replaced by the SKU and the order id. Keep "
                              "the same {hash tag} in both so that they share a cluster slot.")));
    m_stockTemplate =
        new QLineEdit(QLatin1String(profiles::ConnectionProfile::DefaultStockTemplate));
    m_stockTemplate->setObjectName(QStringLiteral("stockTemplateEdit"));
    form->addRow(tr("Stock key:"), m_stockTemplate);
    m_receiptTemplate =
        new QLineEdit(QLatin1String(profiles::ConnectionProfile::DefaultReceiptTemplate));
    m_receiptTemplate->setObjectName(QStringLiteral("receiptTemplateEdit"));
    form->addRow(tr("Receipt key:"), m_receiptTemplate);
    m_receiptTtl = new QSpinBox;
    m_receiptTtl->setObjectName(QStringLiteral("receiptTtlSpin"));
    m_receiptTtl->setRange(1, int(profiles::ConnectionProfile::MaxReceiptTtlSeconds));
    m_receiptTtl->setValue(int(profiles::ConnectionProfile::DefaultReceiptTtlSeconds));
    m_receiptTtl->setSuffix(tr(" s"));
    auto *ttlHuman = new QLabel;
    form->addRow(tr("Receipt TTL:"), row({m_receiptTtl, ttlHuman}, 1));
    connect(m_receiptTtl, &QSpinBox::valueChanged, ttlHuman, [ttlHuman](int s) {
        ttlHuman->setText(
            QStringLiteral("= %1").arg(overview::formatDuration(s, core::Wording::Translated)));
    });
    ttlHuman->setText(QStringLiteral("= %1").arg(
        overview::formatDuration(m_receiptTtl->value(), core::Wording::Translated)));
    m_preview = noteLabel();
    m_preview->setObjectName(QStringLiteral("keyPreview"));
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Example:"), m_preview);
    connect(m_stockTemplate, &QLineEdit::textChanged, this, &KeySchemaForm::updatePreview);
    connect(m_receiptTemplate, &QLineEdit::textChanged, this, &KeySchemaForm::updatePreview);
    updatePreview();
    setFieldWidget(QStringLiteral("stockKeyTemplate"), m_stockTemplate);
    setFieldWidget(QStringLiteral("receiptKeyTemplate"), m_receiptTemplate);
    setFieldWidget(QStringLiteral("receiptTtlSeconds"), m_receiptTtl);
}

void KeySchemaForm::load(const profiles::ConnectionProfile &p)
{
    m_stockTemplate->setText(p.stockKeyTemplate);
    m_receiptTemplate->setText(p.receiptKeyTemplate);
    m_receiptTtl->setValue(int(p.receiptTtlSeconds));
}

void KeySchemaForm::apply(profiles::ConnectionProfile &p) const
{
    p.stockKeyTemplate = m_stockTemplate->text().trimmed();
    p.receiptKeyTemplate = m_receiptTemplate->text().trimmed();
    p.receiptTtlSeconds = m_receiptTtl->value();
}

void KeySchemaForm::updatePreview()
{
    profiles::ConnectionProfile p;
    p.stockKeyTemplate = m_stockTemplate->text();
    p.receiptKeyTemplate = m_receiptTemplate->text();
    m_preview->setText(tr("SKU 42, order 9001: %1 and %2")
                           .arg(QString::fromUtf8(p.stockKey("42")),
                                QString::fromUtf8(p.receiptKey("42", "9001"))));
}

} // namespace ui
