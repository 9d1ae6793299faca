// SPDX-License-Identifier: GPL-3.0-or-later
#include "DiffPage.h"

#include "CodeDiffView.h"

#include <QVBoxLayout>

namespace ui {

DiffPage::DiffPage(functions::LibraryChange &change, QWidget *parent)
    : QWizardPage(parent)
    , m_change(change)
    , m_view(new CodeDiffView(this))
{
    setTitle(tr("Step 2 of 6 · Code"));
    setSubTitle(tr("The library's code now (left) and after the change (right). Red lines go, "
                   "green lines come, yellow lines are edited."));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_view);
}

void DiffPage::initializePage()
{
    m_view->setDiff(m_change.codeDiff());
}

} // namespace ui
