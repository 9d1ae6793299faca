// SPDX-License-Identifier: GPL-3.0-or-later
#include "ThemeRetint.h"

#include "Palette.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QEvent>
#include <QLabel>
#include <QListWidget>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTextDocument>
#include <QTreeWidget>

namespace ui {

namespace {

// One direction of a switch: light to dark or back, and the plain text colours of both.
struct ShadeSwap
{
    bool fromDark;
    QColor oldText;
    QColor newText;

    QColor operator()(const QColor &colour) const
    {
        const QColor other = Palette::counterpart(colour, fromDark);
        if (other.isValid() || !colour.isValid())
            return other;
        if ((colour.rgb() & RGB_MASK) == (oldText.rgb() & RGB_MASK)) {
            QColor text = newText;
            text.setAlpha(colour.alpha());
            return text;
        }
        return {};
    }

    // Every "#rrggbb" of the old variant in `text` given its counterpart.
    QString inText(const QString &text) const
    {
        static const QRegularExpression hex(QStringLiteral("#[0-9a-fA-F]{6}\\b"));
        QString out;
        qsizetype from = 0;
        for (const QRegularExpressionMatch &m : hex.globalMatch(text)) {
            const QColor other = Palette::counterpart(QColor(m.captured()), fromDark);
            out += text.mid(from, m.capturedStart() - from);
            out += other.isValid() ? other.name() : m.captured();
            from = m.capturedEnd();
        }
        return out + text.mid(from);
    }
};

void retintOwnPalette(QWidget *widget, const ShadeSwap &swap)
{
    if (!widget->testAttribute(Qt::WA_SetPalette))
        return;
    QPalette p = widget->palette();
    bool changed = false;
    for (int group = 0; group < QPalette::NColorGroups; ++group) {
        for (int role = 0; role < QPalette::NColorRoles; ++role) {
            const auto g = QPalette::ColorGroup(group);
            const auto r = QPalette::ColorRole(role);
            if (!p.isBrushSet(g, r))
                continue;
            const QColor other = swap(p.color(g, r));
            if (other.isValid()) {
                p.setColor(g, r, other);
                changed = true;
            }
        }
    }
    if (changed)
        widget->setPalette(p);
}

// The brushes a QTableWidget, QTreeWidget or QListWidget keeps in its items. Views over
// models that compute their colours ask Palette again when they repaint.
void retintItems(QAbstractItemModel *model, const QModelIndex &parent, const ShadeSwap &swap)
{
    for (int row = 0; row < model->rowCount(parent); ++row) {
        for (int column = 0; column < model->columnCount(parent); ++column) {
            const QModelIndex index = model->index(row, column, parent);
            for (int role : {Qt::ForegroundRole, Qt::BackgroundRole}) {
                const QVariant v = model->data(index, role);
                if (!v.isValid())
                    continue;
                const QColor other = swap(v.value<QBrush>().color());
                if (other.isValid())
                    model->setData(index, QBrush(other), role);
            }
            if (column == 0 && model->hasChildren(index))
                retintItems(model, index, swap);
        }
    }
}

// A widget with a style sheet, and everything under it, keeps the palette it was polished
// with: set again (its colours in the new variant), the sheet polishes them anew.
void restyleSheet(QWidget *widget, const ShadeSwap &swap)
{
    if (!widget->styleSheet().isEmpty())
        widget->setStyleSheet(swap.inText(widget->styleSheet()));
}

void retintWidget(QWidget *widget, const ShadeSwap &swap)
{
    retintOwnPalette(widget, swap);
    if (auto *label = qobject_cast<QLabel *>(widget);
        label && label->textFormat() != Qt::PlainText && Qt::mightBeRichText(label->text())) {
        const QString text = swap.inText(label->text());
        if (text != label->text())
            label->setText(text);
    }
    if (qobject_cast<QTableWidget *>(widget) || qobject_cast<QTreeWidget *>(widget)
        || qobject_cast<QListWidget *>(widget))
        retintItems(static_cast<QAbstractItemView *>(widget)->model(), {}, swap);
}

// Remembers the palette the open widgets were tinted for, and re-tints them when the
// application's palette crosses from one variant to the other.
class ThemeWatcher : public QObject
{
public:
    explicit ThemeWatcher(QObject *parent)
        : QObject(parent)
        , m_tintedFor(QGuiApplication::palette())
    {}

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == qApp && event->type() == QEvent::ApplicationPaletteChange) {
            const QPalette now = QGuiApplication::palette();
            if (Palette::isDark(now) != Palette::isDark(m_tintedFor))
                retintOpenWidgets(m_tintedFor, now);
            m_tintedFor = now;
        }
        return QObject::eventFilter(watched, event);
    }

private:
    QPalette m_tintedFor;
};

} // namespace

void watchThemeChanges()
{
    const auto name = QStringLiteral("themeWatcher");
    if (qApp->findChild<QObject *>(name, Qt::FindDirectChildrenOnly))
        return;
    auto *watcher = new ThemeWatcher(qApp);
    watcher->setObjectName(name);
    qApp->installEventFilter(watcher);
}

void retintOpenWidgets(const QPalette &before, const QPalette &after)
{
    const ShadeSwap swap{Palette::isDark(before), before.color(QPalette::WindowText),
                         after.color(QPalette::WindowText)};
    const QWidgetList widgets = QApplication::allWidgets();
    // Sheets first: a new polish may give a widget back the palette it had before.
    for (QWidget *widget : widgets)
        restyleSheet(widget, swap);
    for (QWidget *widget : widgets)
        retintWidget(widget, swap);
}

} // namespace ui
