// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "functions/LibraryChange.h"

#include <QWizardPage>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace ui {

class NoticeBanner;

// 5. The library name typed out, and for a breaking change a second acknowledgement.
class ConfirmPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit ConfirmPage(functions::LibraryChange &change, QWidget *parent = nullptr);
    void initializePage() override;
    bool isComplete() const override;
    bool validatePage() override;
    QLineEdit *typed() const { return m_typed; }
    QCheckBox *acknowledge() const { return m_acknowledge; }

private:
    functions::LibraryChange &m_change;
    QLabel *m_what;
    QLabel *m_prompt;
    QLineEdit *m_typed;
    QCheckBox *m_acknowledge;
    NoticeBanner *m_error;
};

} // namespace ui
