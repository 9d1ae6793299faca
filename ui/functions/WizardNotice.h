#pragma once

// What the pages of the LoadWizard share: notice boxes and the verdict's words and colour.

#include "functions/ContractDiff.h"

#include <QString>

class QLabel;
class QWidget;

namespace ui {

// A label styled as a box: "warning" (amber), "error" (red), "info" (blue), "ok" (green).
QLabel *noticeLabel(QWidget *parent);
void setNotice(QLabel *label, const QString &kind, const QString &text);
// The verdict as words and its colour.
QString verdictText(functions::Verdict v);
QString verdictStyle(functions::Verdict v);

} // namespace ui
