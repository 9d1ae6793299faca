// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "profiles/ConnectionProfile.h"

#include <QHash>
#include <QWidget>

namespace ui {

// One tab of the connection dialog: it shows part of a profile and gives it back, so that the
// dialog composes the tabs without knowing their fields.
class ProfileForm : public QWidget
{
    Q_OBJECT
public:
    using QWidget::QWidget;

    // Shows the profile's part that this tab edits.
    virtual void load(const profiles::ConnectionProfile &profile) = 0;
    // Writes what this tab says now (not validated) into the profile; leaves the rest alone.
    virtual void apply(profiles::ConnectionProfile &profile) const = 0;
    // The widget of a field that validation names ("port", "tls.caFile", ...), or null when the
    // field is on another tab.
    QWidget *fieldWidget(const QString &field) const { return m_fields.value(field); }

protected:
    // Names the widget that shows a field, for fieldWidget().
    void setFieldWidget(const QString &field, QWidget *widget) { m_fields.insert(field, widget); }

private:
    QHash<QString, QWidget *> m_fields;
};

} // namespace ui
