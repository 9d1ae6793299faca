#pragma once

#include "session/ConnectionProfile.h"
#include "session/ProbeReport.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTreeWidget;

namespace session {
class ConnectionProbe;
class ProfileStore;
class SecretStore;
} // namespace session

namespace ui {

class ProfileListPanel;

// Opens on the saved profiles (ProfileListPanel, left) and creates or edits one (right):
// server, user and password, TLS, environment label, release user, key schema. A URL pasted
// at the top fills the form; Enter there fills, it never saves. Until the user picks a label
// the host decides it (session::defaultEnvironmentForHost). "Test" runs a ConnectionProbe in
// the background and lists what it found. Save validates, writes the profile to the
// ProfileStore and the passwords to the SecretStore (the note under the password field says
// where they will be kept) and stays open; Connect saves, then closes for the session.
class ConnectionDialog : public QDialog
{
    Q_OBJECT
public:
    // Neither store is owned; both must outlive the dialog.
    ConnectionDialog(session::ProfileStore &profiles, session::SecretStore &secrets,
                     QWidget *parent = nullptr);
    ~ConnectionDialog() override;

    // Edits an existing profile: saving under another name renames it. Its passwords are
    // looked up in the SecretStore.
    void setProfile(const session::ConnectionProfile &profile);
    // The profile as the form says now (not validated).
    session::ConnectionProfile profile() const;
    QString password() const;
    QString releasePassword() const;

    // Fills the form from a redis:// or rediss:// URL (a password goes to the password
    // field). False, with the reason shown under the URL field, when it cannot be read.
    bool fillFromUrl(const QString &url);

    // Runs the connection test for the form as it is; never blocks.
    void startTest();
    bool isTesting() const;

    // Validates, saves the profile and stores the passwords; false (the problems shown at
    // their fields) when it cannot be saved. The dialog stays open either way.
    bool save();

public slots:
    void accept() override; // save(), then close to connect; stays open on a problem

protected:
    void keyPressEvent(QKeyEvent *event) override; // Enter never clicks Save

signals:
    void testFinished(const session::ProbeResult &result);
    void profileSaved(const session::ConnectionProfile &profile);

private:
    QWidget *buildConnectionTab();
    QWidget *buildTlsTab();
    QWidget *buildKeysTab();
    QWidget *buildClusterTab();
    QWidget *buildTestArea();
    void updateEnvironmentSwatch();
    // Until the user picks a label, the host decides it (session::defaultEnvironmentForHost).
    void applyDefaultEnvironment();
    void setEnvironment(const QString &label, bool chosen);
    void updateStorageNote();
    void updateKeyPreview();
    void updateTlsState();
    void showTestResult(const session::ProbeResult &result);
    void showProblems(const QList<session::ProfileProblem> &problems);
    void clearProblems();
    QWidget *fieldWidget(const QString &field) const;
    void browseForFile(QLineEdit *target, const QString &title);
    void removeProfile(const QString &name); // asks first

    session::ProfileStore &m_profiles;
    session::SecretStore &m_secrets;
    session::ConnectionProbe *m_probe = nullptr;
    QString m_previousName;
    bool m_environmentChosen = false; // the user (or a saved profile) picked the label
    bool m_applyingDefault = false;

    ProfileListPanel *m_list = nullptr;
    QLineEdit *m_url = nullptr;
    QLabel *m_urlError = nullptr;
    QTabWidget *m_tabs = nullptr;
    QLineEdit *m_name = nullptr;
    QComboBox *m_environment = nullptr;
    QLabel *m_environmentSwatch = nullptr;
    QLabel *m_environmentNote = nullptr;
    QLineEdit *m_host = nullptr;
    QSpinBox *m_port = nullptr;
    QSpinBox *m_database = nullptr;
    QLineEdit *m_user = nullptr;
    QLineEdit *m_password = nullptr;
    QLabel *m_passwordNote = nullptr;
    QLineEdit *m_releaseUser = nullptr;
    QLineEdit *m_releasePassword = nullptr;
    QSpinBox *m_timeout = nullptr;
    QCheckBox *m_tlsEnabled = nullptr;
    QLineEdit *m_tlsCa = nullptr;
    QLineEdit *m_tlsCert = nullptr;
    QLineEdit *m_tlsKey = nullptr;
    QLineEdit *m_tlsServerName = nullptr;
    QCheckBox *m_tlsVerify = nullptr;
    QLabel *m_tlsWarning = nullptr;
    QList<QWidget *> m_tlsFields;
    QPlainTextEdit *m_announcedMap = nullptr;
    QLabel *m_announcedNote = nullptr;
    QLineEdit *m_stockTemplate = nullptr;
    QLineEdit *m_receiptTemplate = nullptr;
    QSpinBox *m_receiptTtl = nullptr;
    QLabel *m_keyPreview = nullptr;
    QPushButton *m_testButton = nullptr;
    QLabel *m_testStatus = nullptr;
    QTreeWidget *m_results = nullptr;
    QLabel *m_problems = nullptr;
    QList<QWidget *> m_flagged;
};

} // namespace ui
