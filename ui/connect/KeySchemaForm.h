// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ProfileForm.h"

class QLabel;
class QLineEdit;
class QSpinBox;

namespace ui {

// The "Key schema" tab: the stock and receipt key templates, the receipt TTL, and the keys they
// give for an example SKU and order.
class KeySchemaForm : public ProfileForm
{
    Q_OBJECT
public:
    explicit KeySchemaForm(QWidget *parent = nullptr);

    void load(const profiles::ConnectionProfile &profile) override;
    void apply(profiles::ConnectionProfile &profile) const override;

private:
    void updatePreview();

    QLineEdit *m_stockTemplate = nullptr;
    QLineEdit *m_receiptTemplate = nullptr;
    QSpinBox *m_receiptTtl = nullptr;
    QLabel *m_preview = nullptr;
};

} // namespace ui
