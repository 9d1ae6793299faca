// SPDX-License-Identifier: GPL-3.0-or-later
#include "EnvironmentField.h"

#include "FormParts.h"
#include "ui/common/EnvironmentStyle.h"
#include "ui/common/Palette.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QLabel>
#include <QPainter>

namespace ui {

namespace {

const QList<profiles::Environment> Environments{
    profiles::Environment::Local, profiles::Environment::Test, profiles::Environment::Staging,
    profiles::Environment::Production};

QIcon swatchIcon(const QColor &colour)
{
    QPixmap pixmap(14, 14);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setBrush(colour);
    painter.setPen(colour.darker(130));
    painter.drawRoundedRect(QRectF(0.5, 0.5, 13, 13), 3, 3);
    return QIcon(pixmap);
}

} // namespace

EnvironmentField::EnvironmentField(QWidget *parent)
    : QWidget(parent)
{
    m_combo = new QComboBox;
    m_combo->setObjectName(QStringLiteral("environmentCombo"));
    for (profiles::Environment env : Environments)
        m_combo->addItem(swatchIcon(environmentColor(env)), profiles::environmentName(env),
                         profiles::environmentName(env));
    m_swatch = new QLabel;
    m_swatch->setObjectName(QStringLiteral("environmentSwatch"));
    m_combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    // The list shows whole names ("prod…tion" was elided beside its swatch).
    m_combo->view()->setTextElideMode(Qt::ElideNone);
    m_combo->view()->setMinimumWidth(m_combo->view()->sizeHintForColumn(0)
                                     + m_combo->iconSize().width() + 24);
    connect(m_combo, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_applyingDefault)
            m_chosen = true;
        updateNote();
    });
    // Picking the label the host already gave is a choice too: it stops following the host.
    connect(m_combo, &QComboBox::activated, this, &EnvironmentField::chooseShown);
    m_swatch->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
    auto *envRow = row({m_combo, m_swatch, new QWidget}, 2);
    m_note = noteLabel();
    m_note->setObjectName(QStringLiteral("environmentNote"));
    // Its text changes with the label and the host: room for two lines keeps the form still.
    m_note->setMinimumHeight(2 * m_note->fontMetrics().lineSpacing() + 2);
    withNote(envRow, m_note, this);
}

void EnvironmentField::setHost(const QString &host)
{
    m_host = host;
    applyDefault();
}

void EnvironmentField::setThroughBastion(bool through)
{
    m_bastion = through;
    applyDefault();
}

void EnvironmentField::setBehindSentinel(bool behind)
{
    m_sentinel = behind;
    applyDefault();
}

void EnvironmentField::load(const profiles::ConnectionProfile &profile)
{
    m_chosen = false;
    if (profile.isLabelled())
        setEnvironment(profiles::environmentName(
                           profile.environmentKind().value_or(profiles::Environment::Production)),
                       true);
    else
        applyDefault();
}

void EnvironmentField::apply(profiles::ConnectionProfile &profile) const
{
    profile.environment = m_chosen ? m_combo->currentData().toString() : QString();
}

void EnvironmentField::applyDefault()
{
    if (m_chosen)
        return updateNote(); // the note depends on the host too
    setEnvironment(profiles::environmentName(m_bastion || m_sentinel
                                                 ? profiles::Environment::Production
                                                 : profiles::defaultEnvironmentForHost(m_host)),
                   false);
}

void EnvironmentField::setEnvironment(const QString &label, bool chosen)
{
    m_applyingDefault = !chosen;
    m_combo->setCurrentIndex(m_combo->findData(label));
    m_applyingDefault = false;
    m_chosen = chosen;
    updateNote();
}

void EnvironmentField::chooseShown()
{
    m_chosen = true;
    updateNote();
}

void EnvironmentField::updateNote()
{
    const auto env = profiles::parseEnvironment(m_combo->currentData().toString());
    if (!env)
        return;
    m_swatch->setText(environmentBadgeText(*env));
    m_swatch->setStyleSheet(environmentBadgeStyle(*env));
    const bool loopback = profiles::isWrittenAsLoopback(m_host);
    QString note = *env == profiles::Environment::Production
                       ? tr("Sessions on this profile start read-only: writes need the "
                            "profile "
                            "name typed to unlock them.")
                   : *env == profiles::Environment::Local
                       ? tr("Local once proven: after connecting, the server's process must "
                            "be "
                            "found on this machine owning the port; a tunnel, port-forward "
                            "or "
                            "container is treated as production.")
                       : tr("Writes are allowed. Label a server production when a mistake "
                            "there costs real stock.");
    const bool localBehindBastion =
        (m_bastion || m_sentinel) && *env == profiles::Environment::Local;
    if (!m_chosen && m_bastion)
        note.prepend(tr("Default through an SSH bastion (the host is as the bastion sees it), "
                        "until you pick a label. "));
    else if (!m_chosen && m_sentinel)
        note.prepend(tr("Default behind Sentinel (after a failover the primary may be on any "
                        "host), until you pick a label. "));
    else if (!m_chosen)
        note.prepend(loopback ? tr("Default for a loopback host. ")
                              : tr("Default for a host not written as localhost, 127.x.x.x or "
                                   "::1, until you pick a label. "));
    else if (*env == profiles::Environment::Local && !loopback)
        note = tr("This host is not written as loopback, yet labelled local: it is local "
                  "only "
                  "if, after connecting, the server's process is found on this machine; "
                  "otherwise the session is production.");
    if (localBehindBastion)
        note = m_bastion ? tr("A server reached through an SSH bastion does not run on this "
                              "machine: it cannot be labelled local.")
                         : tr("Behind Sentinel the primary may move to another machine: it "
                              "cannot be labelled local.");
    m_note->setText(note);
    // The palette, not a style sheet: a style sheet changes the note's size hint and the form
    // row then cuts its second line.
    const bool warn =
        m_chosen && *env == profiles::Environment::Local && (!loopback || m_bastion || m_sentinel);
    QPalette pal = m_note->palette();
    QColor colour = warn ? Palette::error() : palette().color(QPalette::WindowText);
    if (!warn)
        colour.setAlpha(170); // as noteLabel()
    pal.setColor(QPalette::WindowText, colour);
    m_note->setPalette(pal);
}

} // namespace ui
