// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChildWidget.h"
#include "PrivateKeyring.h"
#include "profiles/ProfileStore.h"
#include "profiles/SecretStore.h"
#include "ui/ConnectionDialog.h"
#include "ui/reconcile/LedgerForm.h"
#include "ui/reconcile/LedgerProfileLink.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using profiles::SecretStore;
using testsupport::child;

namespace {
// The Reconcile tab's ledger form linked to a profile, as a session makes it. The tests take
// references to its parts, not a structured binding: clang 14 (the ASan build) cannot capture
// a binding in a lambda.
struct Tab
{
    Tab(std::unique_ptr<QSettings> settings, const QString &profile)
        : s(std::move(settings))
        , store(s.get())
        , link(&form, store, secrets, profile)
    {}
    std::unique_ptr<QSettings> s;
    profiles::ProfileStore store;
    SecretStore secrets;
    ui::LedgerForm form;
    ui::LedgerProfileLink link;
};
} // namespace

// The Reconcile tab keeps its ledger in the session's saved profile, the PostgreSQL password
// in a real keyring (a Secret Service of the test's own) and never in the settings file; a
// new session's tab is filled from it; a ledger the form cannot run is not saved; a file
// ledger leaves no password behind; the connection dialog keeps the ledger when it saves the
// profile and moves its password with a rename.
class TstReconcileProfile : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    const QString m_url = QStringLiteral("postgresql://ledger_reader@127.0.0.1:5999/shop");

    std::unique_ptr<QSettings> settings() const
    {
        return std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("console.ini")),
                                           QSettings::IniFormat);
    }

    static QString ledgerKey(const QString &profile)
    {
        return SecretStore::keyFor(profile, SecretStore::Account::Ledger);
    }

    static std::optional<QString> loaded(SecretStore &secrets, const QString &key)
    {
        std::optional<std::optional<QString>> out;
        QObject context;
        secrets.load(key, &context, [&](const std::optional<QString> &s) { out = s; });
        if (!QTest::qWaitFor([&] { return out.has_value(); }, 10000))
            return QStringLiteral("(the keyring did not answer)");
        return *out;
    }

    static void fill(ui::LedgerForm &form, const QString &url, const QString &password)
    {
        child<QComboBox>(&form, "ledgerKind")->setCurrentIndex(ui::LedgerForm::PostgresKind);
        child<QLineEdit>(&form, "ledgerLocation")->setText(url);
        child<QLineEdit>(&form, "ledgerPassword")->setText(password);
        child<QLineEdit>(&form, "ledgerQuery")
            ->setText(QStringLiteral("SELECT id AS order_id, sku, quantity, state FROM o"));
        child<QLineEdit>(&form, "ledgerStates")->setText(QStringLiteral("paid=committed"));
    }

    static QString lastNote(ui::LedgerProfileLink &link, const std::function<void()> &action,
                            bool *problem = nullptr)
    {
        QString text;
        bool wasProblem = false;
        int notes = 0;
        auto c =
            QObject::connect(&link, &ui::LedgerProfileLink::noted, [&](const QString &t, bool p) {
                text = t;
                wasProblem = p;
                ++notes;
            });
        action();
        // The note that settles it: a save's last word comes from the keyring's answer.
        if (!QTest::qWaitFor([&] { return notes > 0 && !text.contains(QLatin1String("looking")); },
                             10000))
            text = QStringLiteral("(no note within 10 s)");
        QObject::disconnect(c);
        if (problem)
            *problem = wasProblem;
        return text;
    }

private slots:
    void initTestCase()
    {
        profiles::ConnectionProfile p;
        p.name = QStringLiteral("shop eu");
        p.environment = QStringLiteral("test");
        auto s = settings();
        QVERIFY(profiles::ProfileStore(s.get()).save(p).ok());
    }

    void savesTheLedgerAndItsPasswordInTheKeyring()
    {
        Tab tab(settings(), QStringLiteral("shop eu"));
        auto &s = tab.s;
        auto &store = tab.store;
        auto &secrets = tab.secrets;
        auto &form = tab.form;
        auto &link = tab.link;
        QVERIFY(secrets.waitForBackend(10000));
        QVERIFY2(secrets.isPersistent(), qPrintable(secrets.fallbackReason()));
        form.show();
        QVERIFY(child<QPushButton>(&form, "saveLedgerInProfile")->isVisible());
        QVERIFY(!link.restore()); // nothing saved yet
        fill(form, m_url, QStringLiteral("Ledg3r-pw"));

        bool problem = true;
        const QString note = lastNote(
            link,
            [&] {
                QTest::mouseClick(child<QPushButton>(&form, "saveLedgerInProfile"), Qt::LeftButton);
            },
            &problem);
        QCOMPARE(note, QStringLiteral("Saved in the profile 'shop eu'; the password in the "
                                      "system keyring."));
        QVERIFY(!problem);
        const auto saved = store.find(QStringLiteral("shop eu"));
        QVERIFY(saved);
        QCOMPARE(saved->ledger.source, m_url);
        QCOMPARE(saved->ledger.query,
                 QStringLiteral("SELECT id AS order_id, sku, quantity, state FROM o"));
        QCOMPARE(saved->ledger.states, QStringLiteral("paid=committed"));
        s->sync();
        QFile file(s->fileName());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains("Ledg3r-pw"));
        // Another store (the next session) finds it in the keyring.
        SecretStore next;
        QVERIFY(next.waitForBackend(10000));
        QCOMPARE(loaded(next, ledgerKey(QStringLiteral("shop eu"))),
                 std::optional<QString>(QStringLiteral("Ledg3r-pw")));
    }

    void theNextSessionIsFilledFromTheProfile()
    {
        Tab tab(settings(), QStringLiteral("shop eu"));
        auto &form = tab.form;
        auto &link = tab.link;
        bool restored = false;
        const QString note = lastNote(link, [&] { restored = link.restore(); });
        QVERIFY(restored);
        QCOMPARE(note, QStringLiteral("The ledger saved in the profile 'shop eu', its password "
                                      "from the keyring."));
        QCOMPARE(form.password(), QStringLiteral("Ledg3r-pw"));
        QCOMPARE(child<QLineEdit>(&form, "ledgerLocation")->text(), m_url);
        const auto request = form.request();
        QVERIFY2(request, qPrintable(request ? QString() : request.error()));
        QCOMPARE(request.value().password, QStringLiteral("Ledg3r-pw"));
        QCOMPARE(request.value().spec.query,
                 QStringLiteral("SELECT id AS order_id, sku, quantity, state FROM o"));
    }

    void aLedgerThatCannotRunIsNotSaved()
    {
        Tab tab(settings(), QStringLiteral("shop eu"));
        auto &store = tab.store;
        auto &secrets = tab.secrets;
        auto &form = tab.form;
        auto &link = tab.link;
        fill(form, m_url, QStringLiteral("other-pw"));
        child<QLineEdit>(&form, "ledgerStates")->setText(QStringLiteral("paid=maybe"));
        bool problem = false;
        const QString note = lastNote(
            link, [&] { link.save(); }, &problem);
        QVERIFY(problem);
        QVERIFY2(note.startsWith(QLatin1String("Not saved: States: ")), qPrintable(note));
        QCOMPARE(store.find(QStringLiteral("shop eu"))->ledger.states,
                 QStringLiteral("paid=committed"));
        QCOMPARE(loaded(secrets, ledgerKey(QStringLiteral("shop eu"))),
                 std::optional<QString>(QStringLiteral("Ledg3r-pw")));
    }

    // A table instead of a query: previewed as it will run, saved; both at once refused.
    void aTableIsPreviewedAndSaved()
    {
        Tab tab(settings(), QStringLiteral("shop eu"));
        auto &store = tab.store;
        auto &form = tab.form;
        auto &link = tab.link;
        fill(form, m_url, QStringLiteral("Ledg3r-pw"));
        child<QLineEdit>(&form, "ledgerColumns")->setText(QStringLiteral("order_id=id"));
        child<QLineEdit>(&form, "ledgerTable")->setText(QStringLiteral("shop_orders"));
        bool problem = false;
        QString note = lastNote(
            link, [&] { link.save(); }, &problem);
        QVERIFY(problem);
        QCOMPARE(note, QStringLiteral("Not saved: Query: give a query or a table, not both"));
        child<QLineEdit>(&form, "ledgerQuery")->clear();
        QCOMPARE(form.queryPreview(),
                 QStringLiteral("SELECT \"id\", \"sku\", \"quantity\", \"state\" FROM "
                                "\"shop_orders\""));
        note = lastNote(
            link, [&] { link.save(); }, &problem);
        QVERIFY2(!problem, qPrintable(note));
        QCOMPARE(store.find(QStringLiteral("shop eu"))->ledger.table,
                 QStringLiteral("shop_orders"));
        QVERIFY(store.find(QStringLiteral("shop eu"))->ledger.query.isEmpty());
        // The query of the next tests again.
        fill(form, m_url, QStringLiteral("Ledg3r-pw"));
        child<QLineEdit>(&form, "ledgerColumns")->clear();
        child<QLineEdit>(&form, "ledgerTable")->clear();
        note = lastNote(
            link, [&] { link.save(); }, &problem);
        QVERIFY2(!problem, qPrintable(note));
    }

    // A connection that is not a saved profile (a URL, the demo) offers nothing to save.
    void anUnsavedConnectionHasNoSaveButton()
    {
        Tab tab(settings(), QStringLiteral("command line"));
        auto &form = tab.form;
        auto &link = tab.link;
        form.show();
        QVERIFY(!link.isSavedProfile());
        QVERIFY(!child<QPushButton>(&form, "saveLedgerInProfile")->isVisible());
    }

    // Editing the profile keeps its ledger; a rename takes the ledger's password along.
    void theConnectionDialogKeepsTheLedger()
    {
        auto s = settings();
        profiles::ProfileStore store(s.get());
        SecretStore secrets;
        QVERIFY(secrets.waitForBackend(10000));
        ui::ConnectionDialog dialog(store, secrets);
        dialog.setProfile(*store.find(QStringLiteral("shop eu")));
        child<QLineEdit>(&dialog, "nameEdit")->setText(QStringLiteral("shop west"));
        QVERIFY(dialog.save());
        QVERIFY(!store.find(QStringLiteral("shop eu")));
        QCOMPARE(store.find(QStringLiteral("shop west"))->ledger.source, m_url);
        const QString moved = ledgerKey(QStringLiteral("shop west"));
        QVERIFY(QTest::qWaitFor(
            [&] { return loaded(secrets, moved) == std::optional<QString>("Ledg3r-pw"); }, 10000));
        QVERIFY(QTest::qWaitFor(
            [&] { return !loaded(secrets, ledgerKey(QStringLiteral("shop eu"))); }, 10000));
    }

    // A file ledger saved over a PostgreSQL one leaves no password in the keyring.
    void aFileLedgerLeavesNoPassword()
    {
        Tab tab(settings(), QStringLiteral("shop west"));
        auto &store = tab.store;
        auto &secrets = tab.secrets;
        auto &form = tab.form;
        auto &link = tab.link;
        child<QComboBox>(&form, "ledgerKind")->setCurrentIndex(ui::LedgerForm::FileKind);
        child<QLineEdit>(&form, "ledgerLocation")->setText(m_dir.filePath("orders.csv"));
        child<QLineEdit>(&form, "ledgerStates")->clear();
        const QString note = lastNote(link, [&] { link.save(); });
        QCOMPARE(note, QStringLiteral("Saved in the profile 'shop west'."));
        QCOMPARE(store.find(QStringLiteral("shop west"))->ledger.source,
                 m_dir.filePath("orders.csv"));
        QVERIFY(store.find(QStringLiteral("shop west"))->ledger.query.isEmpty());
        QVERIFY(QTest::qWaitFor(
            [&] { return !loaded(secrets, ledgerKey(QStringLiteral("shop west"))); }, 10000));
    }
};

// The private keyring's bus must be this process's before anything here talks D-Bus.
int main(int argc, char *argv[])
{
    testsupport::PrivateKeyring privateKeyring;
    if (!privateKeyring.start()) {
        fprintf(stderr, "no private keyring: %s\n", qPrintable(privateKeyring.errorString()));
        return 1;
    }
    QApplication app(argc, argv);
    TstReconcileProfile test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_reconcile_profile.moc"
