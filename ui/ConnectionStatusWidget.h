#pragma once

#include "redis/ConnectionOptions.h"
#include "session/Environment.h"
#include "session/ServerOverview.h"

#include <QWidget>

class QLabel;

namespace ui {

// The status bar's contents: environment badge, connection state (with the transport's
// detail while connecting or reconnecting), address, server version, mode and role, and on
// the right the last background activity.
class ConnectionStatusWidget : public QWidget
{
    Q_OBJECT
public:
    explicit ConnectionStatusWidget(QWidget *parent = nullptr);

    void setEnvironment(session::Environment env);
    void setAddress(const QString &address);
    void setConnectionState(redis::ConnectionState state, const QString &detail);
    void setServer(const session::ServerOverview &overview);
    void setActivity(const QString &text);

private:
    QLabel *m_badge;
    QLabel *m_state;
    QLabel *m_address;
    QLabel *m_version;
    QLabel *m_mode;
    QLabel *m_role;
    QLabel *m_activity;
};

} // namespace ui
