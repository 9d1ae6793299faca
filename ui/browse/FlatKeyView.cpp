// SPDX-License-Identifier: GPL-3.0-or-later
#include "FlatKeyView.h"

#include "BrowseTables.h"
#include "browse/Cells.h"
#include "browse/ModelRoles.h"
#include "core/Bytes.h"
#include "redis/ResultReads.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace ui {

FlatKeyView::FlatKeyView(redis::CommandSender &reader, inventory::KeySchema schema, QWidget *parent)
    : QWidget(parent)
    , m_reader(reader)
    , m_schema(std::move(schema))
    , m_scan(reader)
    , m_model(m_scan.store())
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(createPatternRow());
    m_progress = new QLabel(tr("Lists any keys, at most 1,000,000 per scan."), this);
    layout->addWidget(m_progress);
    m_table = makeBrowseTable(this, QStringLiteral("flatKeyTable"));
    m_table->setModel(&m_model);
    m_table->horizontalHeader()->setSortIndicator(browse::FlatKeyModel::Key, Qt::AscendingOrder);
    m_table->setSortingEnabled(true);
    setBrowseColumnWidths(m_table, {34, 7, 12, 14});
    layout->addWidget(m_table, 1);
    layout->addLayout(createButtonRow());
    connectScan();
    connectActions();
    updateActions();
}

QHBoxLayout *FlatKeyView::createPatternRow()
{
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Key pattern:"), this));
    m_pattern = new QLineEdit(QStringLiteral("*"), this);
    m_pattern->setObjectName(QStringLiteral("keyPattern"));
    m_pattern->setToolTip(tr("A Redis glob, as SCAN MATCH takes it: * any, ? one character, "
                             "[abc] a set, \\ escapes"));
    row->addWidget(m_pattern, 1);
    row->addWidget(new QLabel(tr("Type:"), this));
    m_type = new QComboBox(this);
    m_type->addItem(tr("any"), QByteArray());
    for (const char *t : {"string", "hash", "list", "set", "zset", "stream"})
        m_type->addItem(QString::fromLatin1(t), QByteArray(t));
    row->addWidget(m_type);
    m_go = new QPushButton(tr("Scan"), this);
    m_go->setObjectName(QStringLiteral("keyScan"));
    row->addWidget(m_go);
    return row;
}

QHBoxLayout *FlatKeyView::createButtonRow()
{
    auto *buttons = new QHBoxLayout;
    m_copyKey = new QPushButton(tr("Copy key"), this);
    m_copyValue = new QPushButton(tr("Copy value"), this);
    m_setTtl = new QPushButton(tr("Set TTL…"), this);
    m_removeTtl = new QPushButton(tr("Remove TTL…"), this);
    m_removeTtl->setObjectName(QStringLiteral("flatRemoveTtl"));
    m_delete = new QPushButton(tr("Delete receipt…"), this);
    buttons->addWidget(m_copyKey);
    buttons->addWidget(m_copyValue);
    buttons->addStretch();
    for (QPushButton *b : {m_setTtl, m_removeTtl, m_delete})
        buttons->addWidget(b);
    return buttons;
}

void FlatKeyView::connectScan()
{
    auto sync = new QTimer(this); // coalesces per-page store changes
    sync->setSingleShot(true);
    sync->setInterval(200);
    connect(sync, &QTimer::timeout, this, [this, sync] {
        if (!m_model.sync(20000))
            sync->start(5); // a frame's worth of rows per turn
    });
    connect(&m_scan, &browse::FlatKeyScan::storeChanged, sync, [this, sync] {
        if (m_model.sourceReset())
            m_model.sync(); // the store was emptied: forget its rows before the next paint
        else if (!sync->isActive())
            sync->start();
    });
    connect(&m_scan, &browse::FlatKeyScan::progress, this, [this](qint64 seen, qint64 db) {
        m_progress->setText(tr("Scanning… %1 of %2 keys looked at, %3 listed")
                                .arg(QLocale().toString(seen), QLocale().toString(qMax(db, seen)),
                                     QLocale().toString(m_scan.store().rows())));
    });
    connect(&m_scan, &browse::FlatKeyScan::finished, this,
            [this](bool complete, const QString &error) {
                m_go->setText(tr("Scan"));
                m_model.sync();
                const QString n = QLocale().toString(m_model.rowCount());
                m_progress->setText(complete          ? tr("%1 keys match.").arg(n)
                                    : error.isEmpty() ? tr("Stopped: %1 keys listed so far.").arg(n)
                                                      : tr("%1 (%2 keys listed).").arg(error, n));
            });
    auto go = [this] {
        if (m_scan.isRunning()) {
            m_scan.cancel();
            return;
        }
        scan(m_pattern->text().toUtf8());
    };
    connect(m_go, &QPushButton::clicked, this, go);
    connect(m_pattern, &QLineEdit::returnPressed, this, go);
}

void FlatKeyView::connectActions()
{
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &FlatKeyView::updateActions);
    connect(m_copyKey, &QPushButton::clicked, this, [this] {
        copyBytesToClipboard(selectedKey());
        emit status(tr("Copied key %1").arg(core::escapeBytes(selectedKey(), 80)));
    });
    connect(m_copyValue, &QPushButton::clicked, this, &FlatKeyView::copyValue);
    connect(m_setTtl, &QPushButton::clicked, this,
            [this] { emit actionRequested(browse::KeyAction::setTtl(selectedKey(), 86400)); });
    connect(m_removeTtl, &QPushButton::clicked, this,
            [this] { emit actionRequested(browse::KeyAction::removeTtl(selectedKey())); });
    connect(m_delete, &QPushButton::clicked, this,
            [this] { emit actionRequested(browse::KeyAction::remove(selectedKey())); });
}

// The preview holds at most 160 bytes: the exact value is fetched when copied.
void FlatKeyView::copyValue()
{
    const QByteArray key = selectedKey();
    m_reader.send({"GET", key}, this, [this, key](const redis::ReplyResult &r) {
        if (const auto value = redis::stringOf(r); value && r->isBulk()) {
            copyBytesToClipboard(*value);
            emit status(tr("Copied the value of %1 (%2)")
                            .arg(core::escapeBytes(key, 60),
                                 countText(value->size(), QT_TRANSLATE_NOOP("ui::Count", "byte"),
                                           QT_TRANSLATE_NOOP("ui::Count", "bytes"))));
        } else {
            emit status(
                tr("Cannot copy the value of %1: %2")
                    .arg(core::escapeBytes(key, 60), r.ok() ? tr("it is not a string (or is gone)")
                                                            : r.error().toString().text));
        }
    });
}

void FlatKeyView::scan(const QByteArray &pattern)
{
    browse::FlatKeyScan::Options o;
    o.pattern = pattern.isEmpty() ? QByteArray("*") : pattern;
    o.type = m_type->currentData().toByteArray();
    if (m_pattern->text().toUtf8() != o.pattern)
        m_pattern->setText(QString::fromUtf8(o.pattern));
    if (!m_topologyWait.runOrKeep([this, o] {
            m_go->setText(tr("Stop"));
            m_scan.start(o);
        }))
        m_progress->setText(tr("Finding out whether the server is a cluster before scanning…"));
}

void FlatKeyView::tick()
{
    m_model.tick();
}

QByteArray FlatKeyView::selectedKey() const
{
    const QModelIndex i = m_table->currentIndex();
    return i.isValid() ? i.data(browse::KeyRole).toByteArray() : QByteArray();
}

void FlatKeyView::setWritable(bool writable, const QString &why)
{
    m_writable = writable;
    m_readOnlyWhy = why;
    updateActions();
}

void FlatKeyView::updateActions()
{
    const QByteArray key = selectedKey();
    const bool any = !key.isEmpty();
    // Deleting is offered for receipts only: the one delete a support flow needs.
    const bool receipt = any && m_schema.parseReceiptKey(key).has_value();
    m_copyKey->setEnabled(any);
    m_copyValue->setEnabled(any);
    m_setTtl->setEnabled(any && m_writable);
    // PERSIST on a key without a TTL changes nothing: offer it only where there is one.
    const QModelIndex current = m_table->currentIndex();
    const bool hasTtl =
        current.isValid() && current.data(browse::ExpiryRole).toLongLong() != browse::NoExpiry;
    m_removeTtl->setEnabled(hasTtl && m_writable);
    m_delete->setEnabled(receipt && m_writable);
    for (QPushButton *b : {m_setTtl, m_removeTtl, m_delete})
        b->setToolTip(m_writable ? QString() : m_readOnlyWhy);
    if (m_writable && any && !hasTtl)
        m_removeTtl->setToolTip(tr("This key has no TTL: there is nothing to remove."));
}

} // namespace ui
