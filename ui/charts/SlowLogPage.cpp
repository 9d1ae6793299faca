// SPDX-License-Identifier: GPL-3.0-or-later
#include "SlowLogPage.h"

#include "ui/common/Palette.h"
#include "ui/common/TextStyle.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QTime>
#include <QTimer>
#include <QVBoxLayout>

namespace ui {

namespace {

// Tints the rows of scripted commands, which are the console's own deductions.
class ScriptTint : public QIdentityProxyModel
{
public:
    using QIdentityProxyModel::QIdentityProxyModel;
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role == Qt::BackgroundRole && index.data(metrics::SlowLogModel::ScriptRole).toBool())
            return Palette::scriptTint();
        return QIdentityProxyModel::data(index, role);
    }
};

} // namespace

SlowLogPage::SlowLogPage(redis::CommandSender &sender, QWidget *parent)
    : QWidget(parent)
    , m_reader(sender)
    , m_table(new QTableView)
    , m_status(new QLabel)
    , m_timer(new QTimer(this))
{
    auto *proxy = new ScriptTint(this);
    proxy->setSourceModel(&m_model);
    m_table->setModel(proxy);
    m_table->setObjectName(QStringLiteral("slowLogTable"));
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(metrics::SlowLogModel::Command,
                                                      QHeaderView::Stretch);
    m_table->setWordWrap(false);
    auto *refresh = new QPushButton(tr("Refresh"));
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Commands slower than the server's slowlog-log-slower-than, "
                                 "every node, slowest first. ◆ marks FCALL/EVALSHA.")),
                   1);
    top->addWidget(refresh);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    m_timer->setInterval(10'000);
    connect(m_timer, &QTimer::timeout, this, &SlowLogPage::refresh);
    connect(refresh, &QPushButton::clicked, this, &SlowLogPage::refresh);
    connect(&m_reader, &metrics::SlowLogReader::finished, this,
            [this](const QList<metrics::SlowLogEntry> &entries, const QStringList &errors) {
                m_model.setEntries(entries);
                m_table->resizeColumnsToContents();
                int scripts = 0;
                for (const auto &e : entries)
                    scripts += e.isScript() ? 1 : 0;
                QString text =
                    entries.isEmpty()
                        ? tr("The slow log is empty: no command took longer than the server's "
                             "slowlog-log-slower-than (10 ms unless configured).")
                        : tr("%1 entries, %2 of them FCALL/EVALSHA. Read at %3.")
                              .arg(entries.size())
                              .arg(scripts)
                              .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")));
                if (!errors.isEmpty())
                    text += QLatin1Char(' ')
                            + tr("Not read: %1").arg(errors.join(QStringLiteral("; ")));
                m_status->setText(text);
                setTextColour(m_status, errors.isEmpty() ? QColor() : Palette::error());
            });
}

void SlowLogPage::refresh()
{
    m_reader.read();
}

void SlowLogPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
    m_timer->start();
}

void SlowLogPage::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_timer->stop();
}

} // namespace ui
