#pragma once

#include "profiles/ConnectionProfile.h"
#include "session/ProbeReport.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace session {
class ConnectionProbe;
} // namespace session

namespace ui {

// "Test connection" under the connection dialog's tabs: runs a ConnectionProbe in the background
// and lists what it found, each doubtful finding marked.
class ConnectionTestArea : public QWidget
{
    Q_OBJECT
public:
    explicit ConnectionTestArea(QWidget *parent = nullptr);

    // Never blocks. releasePassword: nullopt when the profile has no release user.
    void start(const profiles::ConnectionProfile &profile, const QString &password,
               const std::optional<QString> &releasePassword);
    bool isRunning() const;
    // Back to "Not tested yet.": a result belongs to the profile it was found for.
    void reset();

signals:
    // The button was pressed; the dialog knows the profile and its passwords.
    void testRequested();
    void finished(const session::ProbeResult &result);

private:
    void showResult(const session::ProbeResult &result);

    session::ConnectionProbe *m_probe = nullptr;
    QPushButton *m_button = nullptr;
    QLabel *m_status = nullptr;
    QTreeWidget *m_results = nullptr;
};

} // namespace ui
