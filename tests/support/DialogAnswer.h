// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QApplication>
#include <QPushButton>
#include <QTimer>
#include <functional>

namespace testsupport {

// Runs `check` on the next modal dialog of type T once it is visible, then presses its button
// `buttonName` (or rejects it when there is no such button).
template<class T>
void answerNextDialog(const QString &buttonName, std::function<void(T *)> check)
{
    QTimer::singleShot(50, [=] {
        T *dialog = nullptr;
        for (QWidget *w : QApplication::topLevelWidgets())
            if (auto *d = qobject_cast<T *>(w); d && d->isVisible())
                dialog = d;
        if (!dialog) {
            answerNextDialog<T>(buttonName, check); // not open yet
            return;
        }
        check(dialog);
        if (auto *b = dialog->template findChild<QPushButton *>(buttonName))
            b->click();
        else
            dialog->reject();
    });
}

} // namespace testsupport
