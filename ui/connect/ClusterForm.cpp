// SPDX-License-Identifier: GPL-3.0-or-later
#include "ClusterForm.h"

#include "FormParts.h"
#include "profiles/AnnouncedMapField.h"

#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>

namespace ui {

ClusterForm::ClusterForm(QWidget *parent)
    : ProfileForm(parent)
{
    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(
        noteLabel(tr("A cluster is found from any of its nodes, a server's replicas from the "
                     "server; "
                     "nothing to set here when the addresses they announce can be reached "
                     "from this "
                     "machine. Behind NAT, in containers or with cluster-announce-hostname or "
                     "replica-announce-ip they may not be: map each announced address to one "
                     "that can be reached, one a line, e.g. <tt>10.0.0.5:6379 = "
                     "127.0.0.1:7001</tt>, or "
                     "a host alone to keep the port: <tt>redis-node-1 = 127.0.0.1</tt>.")));
    m_announcedMap = new QPlainTextEdit;
    m_announcedMap->setObjectName(QStringLiteral("announcedMapEdit"));
    m_announcedMap->setPlaceholderText(tr("announced host:port = reachable host:port"));
    m_announcedMap->setTabChangesFocus(true);
    form->addRow(tr("Announced addresses:"), m_announcedMap);
    m_note = noteLabel();
    m_note->setObjectName(QStringLiteral("announcedMapNote"));
    form->addRow(QString(), m_note);
    // Checked as typed: a bad line is named before anyone presses Connect.
    connect(m_announcedMap, &QPlainTextEdit::textChanged, this, &ClusterForm::updateNote);
    updateNote();
    setFieldWidget(QStringLiteral("announcedMap"), m_announcedMap);
}

void ClusterForm::load(const profiles::ConnectionProfile &p)
{
    m_announcedMap->setPlainText(profiles::announcedEntriesText(p.announcedMap));
}

void ClusterForm::apply(profiles::ConnectionProfile &p) const
{
    const QString map = m_announcedMap->toPlainText();
    const auto entries = profiles::parseAnnouncedEntries(map);
    p.announcedMap =
        entries.ok() ? entries.value() : map.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

void ClusterForm::updateNote()
{
    const auto entries = profiles::parseAnnouncedEntries(m_announcedMap->toPlainText());
    m_note->setStyleSheet(entries.ok() ? QString() : errorStyle());
    m_note->setText(!entries.ok()          ? entries.error().text
                    : entries->isEmpty()   ? tr("No mapping: the announced addresses are used.")
                    : entries->size() == 1 ? tr("1 address mapped.")
                                           : tr("%1 addresses mapped.").arg(entries->size()));
}

} // namespace ui
