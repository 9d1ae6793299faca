// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sentinel/SentinelResolver.h"

#include <QObject>
#include <QPointer>

class QProgressDialog;

namespace ui {

// What a session behind Sentinel starts from: how to ask the sentinels again, and the primary
// they named and ROLE confirmed.
struct FoundPrimary
{
    sentinel::ResolverConfig config;
    sentinel::NodeAddress primary;
};

// Asks a profile's sentinels for its primary before a session opens, as a user expects it: a
// progress dialog with Cancel while they are asked in turn (the window keeps answering), then
// either the primary (confirmed by ROLE) or a box that says which way it failed and what each
// sentinel answered. Nothing is connected to a node the sentinels did not name. Exactly one of
// resolved(), failed() or cancelled() ends a run.
class SentinelOpener : public QObject
{
    Q_OBJECT
public:
    // Its dialogs open over `owner`'s window (none: on their own); owned by `parent`, or by
    // `owner` when there is none.
    explicit SentinelOpener(QWidget *owner, QObject *parent = nullptr);
    ~SentinelOpener() override;

    // `config` as session::sentinelConfig makes it (through the tunnel when there is one).
    void open(const sentinel::ResolverConfig &config);
    void cancel();
    bool isRunning() const { return m_resolver != nullptr; }

signals:
    void resolved(const ui::FoundPrimary &found);
    void failed(const QString &why); // already shown to the user
    void cancelled();

private:
    void fail(const sentinel::ResolveError &error);
    void finish();

    QPointer<QWidget> m_owner;
    sentinel::SentinelResolver *m_resolver = nullptr;
    QProgressDialog *m_progress = nullptr;
};

} // namespace ui
