// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "functions/LibraryChange.h"

#include <QWizardPage>

namespace ui {

class CodeDiffView;

// 2. The code, before and after.
class DiffPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit DiffPage(functions::LibraryChange &change, QWidget *parent = nullptr);
    void initializePage() override;
    CodeDiffView *view() const { return m_view; }

private:
    functions::LibraryChange &m_change;
    CodeDiffView *m_view;
};

} // namespace ui
