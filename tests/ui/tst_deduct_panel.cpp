// SPDX-License-Identifier: GPL-3.0-or-later
// The deduction panel, offscreen, against a real redis-server: fill the form, confirm, read
// the outcome shown; inline validation; Enter and Ctrl+Enter; unknown outcomes with Check
// receipt, a safe retry in Function mode and an acknowledged one in Script mode; a read-only
// session.
#include "RedisFixture.h"
#include "gate/GatedSender.h"
#include "gate/WriteGate.h"
#include "ui/common/EnvironmentStyle.h"
#include "ui/deduct/ConfirmDeductionDialog.h"
#include "ui/deduct/DeductionForm.h"
#include "ui/deduct/DeductionPanel.h"
#include "ui/deduct/ResultCard.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace inventory;
using testsupport::render;

namespace {
// What a key scan would know: SKU 42 has a stock key with a TTL, nothing else exists but
// sku-1001.
class FakeDirectory : public SkuDirectory
{
public:
    bool hasScan() const override { return true; }
    bool hasStock(QByteArrayView sku) const override { return sku == "42" || sku == "sku-1001"; }
    QList<QByteArray> nearest(QByteArrayView, int) const override { return {"sku-1001"}; }
    QStringList anomalies(QByteArrayView sku) const override
    {
        return sku == "42" ? QStringList{"stock key has a TTL"} : QStringList{};
    }
};
} // namespace
using testsupport::StandaloneRedis;

class TstDeductPanel : public QObject
{
    Q_OBJECT

    StandaloneRedis m_redis;
    std::unique_ptr<redis::RedisClient> m_c;
    QTemporaryDir m_dir;
    DeductionContext m_ctx;

    template<class T = QWidget>
    static T *child(QObject *parent, const char *name)
    {
        T *w = parent->findChild<T *>(QLatin1String(name));
        if (!w)
            qWarning("no child %s", name);
        return w;
    }
    static void type(QWidget *panel, const char *field, const QString &text)
    {
        auto *edit = child<QLineEdit>(panel, field);
        edit->setFocus();
        edit->selectAll();
        QTest::keyClicks(edit, text);
    }
    // Confirms the dialog on screen and waits for the result.
    static void confirm(ui::DeductionPanel &panel)
    {
        QTRY_VERIFY(panel.pendingConfirmation());
        QTest::mouseClick(panel.pendingConfirmation()->runButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isRunning() && !panel.pendingConfirmation(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(panel.resultCard()->entryId() != 0, 10000);
    }

    // Script mode, SKU 42, order 9001, quantity 2, up to the confirmation.
    static void askScriptDeduction(ui::DeductionPanel &panel)
    {
        panel.show();
        panel.prefill("42", "9001");
        panel.form()->findChildren<QRadioButton *>().at(1)->click();
        type(&panel, "quantity", "2");
        panel.runFromForm();
        QTRY_VERIFY(panel.pendingConfirmation());
    }

    // Function mode, SKU 42, order 9001, quantity 3, in the form.
    static void fillFunctionDeduction(ui::DeductionPanel &panel)
    {
        panel.show();
        panel.prefill("42", "9001");
        type(&panel, "quantity", "3");
    }

    // The same, up to the confirmation.
    static void askFunctionDeduction(ui::DeductionPanel &panel)
    {
        fillFunctionDeduction(panel);
        panel.runFromForm();
        QTRY_VERIFY(panel.pendingConfirmation());
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
        m_c = m_redis.connect();
        QCOMPARE(render(m_c->call({"FUNCTION", "LOAD", "REPLACE",
                                   testsupport::functionSource("inventory_lib_v1.lua")})),
                 QStringLiteral("\"inventory_lib_v1\""));
        m_ctx.profileName = "local";
        m_ctx.serverAddress = m_c->address();
        m_ctx.auditLogPath = m_dir.filePath("audit.jsonl");
        m_ctx.timeoutMs = 3000;
        m_ctx.defaultTtlSeconds = 3600;
    }

    void init()
    {
        QVERIFY(m_c->call({"FLUSHALL", "SYNC"}).ok());
        QVERIFY(m_c->call({"SET", "stock:{42}:available", "10"}).ok());
        QFile::remove(m_ctx.auditLogPath);
    }

    // Issue 29, D3: the reply said "deducted" and promised Already applied on a retry, but the
    // receipt read back is gone (evicted right after the call). The card takes the promise back.
    void resultCardSaysTheRetryProtectionIsGone()
    {
        const auto plan = inventory::planDeduction({"42", "9101", "3", "60"}, m_ctx.schema);
        const inventory::DeductionResult r = inventory::deductBlocking(*m_c, m_ctx, plan);
        QCOMPARE(r.outcome.kind, inventory::OutcomeKind::Deducted);
        QVERIFY(m_c->call({"DEL", "idem:{42}:9101"}).ok());
        inventory::DeductionHistory::Entry e;
        e.id = 1;
        e.result = inventory::readBackBlocking(*m_c, r, m_ctx.timeoutMs);
        ui::ResultCard card;
        card.showEntry(e);
        QVERIFY2(card.meaningText().contains("the retry protection is already gone"),
                 qPrintable(card.meaningText()));
        const QString next = child<QLabel>(&card, "resultNext")->text();
        QVERIFY2(next.contains("Do not retry this order") && !next.contains("Already applied"),
                 qPrintable(next));
        QVERIFY2(child<QLabel>(&card, "receiptAfter")->text().contains("does not exist"),
                 qPrintable(child<QLabel>(&card, "receiptAfter")->text()));
    }

    void fillConfirmAndReadTheOutcome()
    {
        ui::DeductionPanel panel(*m_c, m_ctx);
        // Issue 28: an unlocked production session's confirmation showed no PRODUCTION badge.
        panel.setEnvironment(profiles::Environment::Production);
        panel.resize(1200, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCOMPARE(child<QLineEdit>(&panel, "ttl")->text(), QStringLiteral("3600"));

        type(&panel, "sku", "42");
        // Enter moves on to the next field.
        QTest::keyClick(child<QLineEdit>(&panel, "sku"), Qt::Key_Return);
        QCOMPARE(QApplication::focusWidget(), child<QWidget>(&panel, "order"));
        QTest::keyClicks(child<QLineEdit>(&panel, "order"), "9001");
        type(&panel, "quantity", "03");
        auto *quantityMessage = child<QLabel>(&panel, "quantityMessage");
        QVERIFY(quantityMessage->isVisible());
        QVERIFY(quantityMessage->text().contains("leading zero"));
        // Ctrl+Enter with a bad value: refused, nothing to confirm.
        QTest::keyClick(child<QLineEdit>(&panel, "quantity"), Qt::Key_Return, Qt::ControlModifier);
        QVERIFY(!panel.pendingConfirmation());
        type(&panel, "quantity", "3");
        QVERIFY(!quantityMessage->isVisible());
        QVERIFY(child<QLabel>(&panel, "slotMessage")->text().contains("slot 8000"));

        QTest::keyClick(child<QLineEdit>(&panel, "quantity"), Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY(panel.pendingConfirmation());
        ui::ConfirmDeductionDialog *dialog = panel.pendingConfirmation();
        // The window banner's badge: the same text and colour.
        QCOMPARE(dialog->environmentText(), QStringLiteral("PRODUCTION"));
        QCOMPARE(child<QLabel>(dialog, "environmentBadge")->styleSheet(),
                 ui::environmentBadgeStyle(profiles::Environment::Production));
        QVERIFY(ui::environmentBadgeStyle(profiles::Environment::Production)
                    .contains(ui::environmentColor(profiles::Environment::Production).name()));
        QCOMPARE(dialog->serverText(), m_ctx.serverAddress); // standalone: the server itself
        const QString cli = dialog->redisCliCommand();
        QCOMPARE(cli, QStringLiteral("redis-cli -h 127.0.0.1 -p %1 FCALL inventory_deduct_v1 2 "
                                     "'stock:{42}:available' 'idem:{42}:9001' 3 3600")
                          .arg(m_redis.port()));
        QTest::mouseClick(dialog->copyButton(), Qt::LeftButton);
        QCOMPARE(QApplication::clipboard()->text(), cli);
        confirm(panel);

        QCOMPARE(panel.resultCard()->titleText(), QStringLiteral("Deducted — remaining 7"));
        QVERIFY(panel.resultCard()->meaningText().contains("receipt was written"));
        QCOMPARE(child<QLabel>(panel.resultCard(), "stockBefore")->text(), QStringLiteral("10"));
        QCOMPARE(child<QLabel>(panel.resultCard(), "stockAfter")->text(), QStringLiteral("7"));
        QVERIFY(
            child<QLabel>(panel.resultCard(), "receiptAfter")->text().contains("TTL 1 h 0 min"));
        QCOMPARE(panel.history()->rowCount(), 1);
        QCOMPARE(AuditLog::read(m_ctx.auditLogPath).records.size(), 2); // attempt, outcome
        QCOMPARE(m_c->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("7"));

        // Again with the same order: already applied.
        panel.runFromForm();
        confirm(panel);
        QCOMPARE(panel.resultCard()->titleText(),
                 QStringLiteral("Already applied — recorded remaining 7"));
        QCOMPARE(panel.history()->rowCount(), 2);
    }

    // A caller who may DECRBY but not SET, against the frozen 1.0.0: the decrement happens,
    // then the error. The card says the call may have written, shows the stock that moved,
    // and offers a check, never a retry or "retrying is safe".
    void errorAfterAWriteIsNeverCalledSafe()
    {
        const auto partial =
            m_redis.connect(testsupport::setUpPartialWrite(*m_c, m_redis.options()));
        {
            ui::DeductionPanel panel(*partial, m_ctx);
            panel.resize(1200, 800);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            type(&panel, "sku", "42");
            type(&panel, "order", "9001");
            type(&panel, "quantity", "3");
            panel.runFromForm();
            confirm(panel);
            ui::ResultCard *card = panel.resultCard();
            QCOMPARE(card->titleText(), QStringLiteral("Error, may have written"));
            QVERIFY2(card->meaningText().contains("The stock moved during the call (10 → 7)"),
                     qPrintable(card->meaningText()));
            const QString next = child<QLabel>(card, "resultNext")->text();
            QVERIFY2(next.contains("Do not retry yet") && !next.contains("safe"), qPrintable(next));
            QVERIFY(!child<QWidget>(card, "retrySameOrder")->isVisible());
            QVERIFY(child<QWidget>(card, "checkReceipt")->isVisible());
            // The receipt read just after: absent, which here is not "did not happen".
            QVERIFY2(card->checkText().contains("the deduction happened without its receipt")
                         && !card->checkText().contains("did not happen"),
                     qPrintable(card->checkText()));
        }
        QVERIFY(testsupport::undoPartialWrite(*m_c));
    }

    void cancelSendsNothing()
    {
        ui::DeductionPanel panel(*m_c, m_ctx);
        askFunctionDeduction(panel);
        panel.pendingConfirmation()->reject();
        QTRY_VERIFY(!panel.pendingConfirmation());
        // The panel sends on m_c, whose replies come in order: once this GET's reply is in,
        // anything the panel might have sent before it has been answered and handled.
        QCOMPARE(m_c->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
        QCOMPARE(panel.history()->rowCount(), 0);
        QVERIFY(!QFile::exists(m_ctx.auditLogPath));
    }

    void unknownOutcomeCheckAndSafeRetry()
    {
        DeductionContext ctx = m_ctx;
        ctx.timeoutMs = 500;
        ui::DeductionPanel panel(*m_c, ctx);
        fillFunctionDeduction(panel);
        auto admin = m_redis.connect();
        QVERIFY(admin->call({"CLIENT", "PAUSE", "1500", "WRITE"}).ok());
        panel.runFromForm();
        confirm(panel);
        ui::ResultCard *card = panel.resultCard();
        QCOMPARE(card->titleText(), QStringLiteral("Outcome unknown"));
        QVERIFY(card->meaningText().contains("may or may not have happened"));
        QVERIFY(card->checkButton()->isVisible());
        QVERIFY(card->retryButton()->isVisible());
        QCOMPARE(card->retryButton()->text(), QStringLiteral("Retry with the same order id…"));
        QVERIFY(AuditLog::read(m_ctx.auditLogPath).records.last().outcomeUnknown);

        QVERIFY(admin->call({"CLIENT", "UNPAUSE"}).ok());
        QTest::mouseClick(card->checkButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(card->checkText().startsWith("The deduction happened"), 5000);
        QVERIFY(panel.history()
                    ->data(panel.history()->index(0, DeductionHistory::Check))
                    .toString()
                    .startsWith("happened"));

        QTest::mouseClick(card->retryButton(), Qt::LeftButton);
        QTRY_VERIFY(panel.pendingConfirmation());
        QCOMPARE(panel.pendingConfirmation()->windowTitle(),
                 QStringLiteral("Retry with the same order id"));
        confirm(panel);
        QVERIFY(card->titleText().startsWith("Already applied"));
        QCOMPARE(m_c->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("7"));
        QVERIFY(AuditLog::read(m_ctx.auditLogPath).records.last().detail.contains("retry"));
    }

    void scriptRetryNeedsAcknowledgement()
    {
        DeductionContext ctx = m_ctx;
        ctx.timeoutMs = 500;
        QVERIFY(m_c->call({"SCRIPT", "LOAD", deductScriptSource()}).ok());
        ui::DeductionPanel panel(*m_c, ctx);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.prefill("42");
        auto *script = panel.form()->findChildren<QRadioButton *>().at(1);
        script->click();
        QVERIFY(!child<QLineEdit>(&panel, "ttl")->isEnabled());
        type(&panel, "quantity", "2");
        // Enter skips the TTL (not used by the script) and lands on the run button.
        QTest::keyClick(child<QLineEdit>(&panel, "quantity"), Qt::Key_Return);
        QCOMPARE(QApplication::focusWidget(), panel.form()->runButton());
        auto admin = m_redis.connect();
        QVERIFY(admin->call({"CLIENT", "PAUSE", "1500", "WRITE"}).ok());
        panel.runFromForm();
        confirm(panel);
        ui::ResultCard *card = panel.resultCard();
        QCOMPARE(card->titleText(), QStringLiteral("Outcome unknown"));
        QCOMPARE(card->checkButton()->text(), QStringLiteral("Check stock"));
        QCOMPARE(card->retryButton()->text(), QStringLiteral("Retry (may deduct twice)…"));
        QVERIFY(admin->call({"CLIENT", "UNPAUSE"}).ok());
        QTest::mouseClick(card->checkButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(card->checkText().contains("most likely happened"), 5000);

        QTest::mouseClick(card->retryButton(), Qt::LeftButton);
        QTRY_VERIFY(panel.pendingConfirmation());
        ui::ConfirmDeductionDialog *dialog = panel.pendingConfirmation();
        QVERIFY(dialog->acknowledgement());
        QVERIFY(!dialog->runButton()->isEnabled());
        dialog->acknowledgement()->click();
        QVERIFY(dialog->runButton()->isEnabled());
        confirm(panel);
        QCOMPARE(card->titleText(), QStringLiteral("Deducted — remaining 6"));
        QVERIFY(AuditLog::read(m_ctx.auditLogPath)
                    .records.last()
                    .detail.contains("acknowledged: may deduct twice"));
    }

    void readOnlySessionSaysNothingWasSent()
    {
        profiles::ConnectionProfile profile;
        profile.name = "prod";
        profile.environment = "production";
        gate::WriteGate gate(*m_c, profile);
        gate::GatedSender gated(*m_c, gate);
        ui::DeductionPanel panel(gated, m_ctx);
        panel.setReadOnlyNotice(gate.refusalMessage());
        panel.show();
        QVERIFY(child<QLabel>(&panel, "readOnlyNotice")->isVisible());
        panel.prefill("42", "9001");
        type(&panel, "quantity", "3");
        panel.runFromForm();
        confirm(panel);
        QCOMPARE(panel.resultCard()->titleText(), QStringLiteral("Not sent"));
        QCOMPARE(panel.resultCard()->retryButton()->text(), QStringLiteral("Run again…"));
        QVERIFY(panel.resultCard()->meaningText().startsWith("Nothing was sent to the server"));
        QCOMPARE(m_c->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
    }

    void confirmationShowsStockAndKnownAnomalies()
    {
        FakeDirectory directory;
        ui::DeductionPanel panel(*m_c, m_ctx);
        panel.setSkuDirectory(&directory);
        askFunctionDeduction(panel);
        ui::ConfirmDeductionDialog *dialog = panel.pendingConfirmation();
        QTRY_VERIFY2(dialog->currentStockText().startsWith("10 (read at"),
                     qPrintable(dialog->currentStockText()));
        auto *anomalies = child<QLabel>(dialog, "knownAnomalies");
        QVERIFY(anomalies->isVisible());
        QCOMPARE(anomalies->text(), QStringLiteral("stock key has a TTL"));
        QVERIFY(dialog->repeatWarningText().isEmpty());
        dialog->reject();
    }

    // Issue 28: a repeated order's confirmation did not say that its receipt answers the call.
    // It now says what the receipt read just before shows, with when and how it was read; a
    // refused read says it could not read, and never "no receipt".
    void confirmationForecastsTheReceipt_data()
    {
        QTest::addColumn<QByteArray>("denied"); // ACL rule of the panel's user; empty: admin
        QTest::addColumn<bool>("receipt");      // idem:{42}:9001 exists (remaining 8)
        QTest::addColumn<QString>("says");
        QTest::addColumn<QString>("neverSays");
        QTest::newRow("receipt") << QByteArray() << true
                                 << "A receipt for order 9001 already exists (remaining 8 after "
                                    "it, expires in 6 d 23 h"
                                 << "No receipt";
        QTest::newRow("none") << QByteArray() << false << "No receipt for order 9001 yet (read at"
                              << "already exists";
        QTest::newRow("GET refused") << QByteArray("-get") << true
                                     << "Could not read whether a receipt for order 9001 exists ("
                                     << "already exists";
        QTest::newRow("reads refused, none there")
            << QByteArray("-@read") << false
            << "Could not read whether a receipt for order 9001 exists ("
            << "No receipt";
    }
    void confirmationForecastsTheReceipt()
    {
        QFETCH(QByteArray, denied);
        QFETCH(bool, receipt);
        QFETCH(QString, says);
        QFETCH(QString, neverSays);
        if (receipt)
            QVERIFY(m_c->call({"SET", "idem:{42}:9001", "8", "EX", "604700"}).ok());
        std::unique_ptr<redis::RedisClient> user;
        if (!denied.isEmpty()) {
            QVERIFY(m_c->call({"ACL", "SETUSER", "clerk", "reset", "on", ">clerk-pw", "~*", "+@all",
                               denied})
                        .ok());
            redis::ConnectionOptions options = m_redis.options();
            options.username = QStringLiteral("clerk");
            options.password = QStringLiteral("clerk-pw");
            user = m_redis.connect(options);
        }
        ui::DeductionPanel panel(user ? *user : *m_c, m_ctx);
        askFunctionDeduction(panel);
        ui::ConfirmDeductionDialog *dialog = panel.pendingConfirmation();
        QTRY_VERIFY2(dialog->receiptNowText() != QStringLiteral("reading…"),
                     qPrintable(dialog->receiptNowText()));
        const QString text = dialog->receiptNowText();
        QVERIFY2(text.startsWith(says), qPrintable(text));
        QVERIFY2(!text.contains(neverSays), qPrintable(text));
        if (receipt && denied.isEmpty())
            QVERIFY2(text.endsWith("inventory_deduct_v1 will answer 'already applied' and "
                                   "deduct nothing."),
                     qPrintable(text));
        if (!denied.isEmpty())
            QVERIFY2(text.contains("NOPERM"), qPrintable(text));
        // A small laptop's screen holds the whole dialog.
        QVERIFY2(dialog->width() <= 1366 && dialog->height() <= 700,
                 qPrintable(QStringLiteral("%1x%2").arg(dialog->width()).arg(dialog->height())));
        if (receipt && denied.isEmpty()) {
            // What the dialog foretold is what the call does.
            confirm(panel);
            QVERIFY2(panel.resultCard()->titleText().startsWith("Already applied"),
                     qPrintable(panel.resultCard()->titleText()));
            QCOMPARE(m_c->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("10"));
        } else {
            dialog->reject();
        }
        if (!denied.isEmpty())
            QVERIFY(m_c->call({"ACL", "DELUSER", "clerk"}).ok());
    }

    void missingStockSuggestsExistingSkus()
    {
        FakeDirectory directory;
        ui::DeductionPanel panel(*m_c, m_ctx);
        panel.setSkuDirectory(&directory);
        panel.show();
        QVERIFY(child<QLineEdit>(&panel, "sku")->placeholderText().contains("sku-1001"));
        type(&panel, "sku", "sku-1010");
        QTRY_VERIFY(panel.form()->skuSuggestionText().contains("sku-1001"));
        QVERIFY(panel.form()->skuSuggestionText().contains("stock:{sku-1010}:available"));
        type(&panel, "sku", "42"); // exists: the hint goes
        QTRY_VERIFY(panel.form()->skuSuggestionText().isEmpty());
    }

    void scriptRepeatOfAnOrderNeedsAcknowledgement()
    {
        QVERIFY(m_c->call({"SCRIPT", "LOAD", deductScriptSource()}).ok());
        ui::DeductionPanel panel(*m_c, m_ctx);
        askScriptDeduction(panel);
        QVERIFY(panel.pendingConfirmation()->repeatWarningText().isEmpty());
        QVERIFY(!panel.pendingConfirmation()->acknowledgement());
        confirm(panel);
        QCOMPARE(panel.resultCard()->titleText(), QStringLiteral("Deducted — remaining 8"));

        panel.runFromForm();
        QTRY_VERIFY(panel.pendingConfirmation());
        ui::ConfirmDeductionDialog *dialog = panel.pendingConfirmation();
        QVERIFY2(dialog->repeatWarningText().contains("may already have been deducted"),
                 qPrintable(dialog->repeatWarningText()));
        QVERIFY(dialog->acknowledgement());
        QVERIFY(!dialog->runButton()->isEnabled());
        dialog->reject();
        QTRY_VERIFY(!panel.pendingConfirmation());

        // Another session's call (the audit log only) counts too.
        ui::DeductionPanel fresh(*m_c, m_ctx);
        askScriptDeduction(fresh);
        QVERIFY(fresh.pendingConfirmation()->repeatWarningText().contains("audit log"));
        fresh.pendingConfirmation()->reject();
        QCOMPARE(m_c->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("8"));
    }

    void functionRetryWithAnotherQuantitySaysSo()
    {
        ui::DeductionPanel panel(*m_c, m_ctx);
        fillFunctionDeduction(panel);
        panel.runFromForm();
        confirm(panel);
        type(&panel, "quantity", "5");
        panel.runFromForm();
        QTRY_VERIFY(panel.pendingConfirmation());
        const QString w = panel.pendingConfirmation()->repeatWarningText();
        QVERIFY2(w.contains("quantity 3") && w.contains("asks for 5"), qPrintable(w));
        QVERIFY(panel.pendingConfirmation()->runButton()->isEnabled()); // v1 changes nothing
        confirm(panel);
        QVERIFY(panel.resultCard()->titleText().startsWith("Already applied"));
        QCOMPARE(m_c->call({"GET", "stock:{42}:available"})->bytes(), QByteArray("7"));
        // The history shows whole words: "Already applied", not "Already…".
        auto *history = child<QTableView>(&panel, "deductionHistory");
        const int needed = history->fontMetrics().horizontalAdvance("Already applied");
        QVERIFY2(history->columnWidth(DeductionHistory::Outcome) > needed,
                 qPrintable(QString::number(history->columnWidth(DeductionHistory::Outcome))));
    }

    void differentSlotsRefuseInline()
    {
        DeductionContext ctx = m_ctx;
        ctx.schema = KeySchema::fromTemplates("stock:<sku>", "idem:<sku>:<order>").value();
        ui::DeductionPanel panel(*m_c, ctx);
        fillFunctionDeduction(panel);
        QVERIFY(child<QLabel>(&panel, "slotMessage")->text().startsWith("Refused"));
        panel.runFromForm();
        QVERIFY(!panel.pendingConfirmation());
        // runFromForm opens its confirmation before it returns, as the same request with keys
        // in one slot shows: none now is none at all, with no wait for one that is late.
        ui::DeductionPanel control(*m_c, m_ctx);
        fillFunctionDeduction(control);
        control.runFromForm();
        QVERIFY(control.pendingConfirmation());
        control.pendingConfirmation()->reject();
    }
};

QTEST_MAIN(TstDeductPanel)
#include "tst_deduct_panel.moc"
