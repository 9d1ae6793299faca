// SPDX-License-Identifier: GPL-3.0-or-later
// CSV and JSON exports never let a value pass for a state (issue 14: a stock key holding the
// text "(missing)" exported exactly like a missing stock key). No server.
#include "browse/CsvExport.h"
#include "browse/KeyspaceStore.h"
#include "browse/ReceiptTableModel.h"
#include "browse/SkuTableModel.h"

#include <QTest>

using namespace browse;

class TstCsvStates : public QObject
{
    Q_OBJECT

    static StockReading stockText(const QByteArray &raw)
    {
        return StockReading{StockState::NotInteger, 0, raw, NoExpiry};
    }

private slots:
    void stockStatesAreNoValue()
    {
        KeyspaceStore st;
        const uint32_t missing = st.internSku("a-missing"); // a receipt without its stock key
        st.setStock(missing, StockReading{StockState::Missing, 0, {}, NoExpiry});
        ReceiptReading receipt;
        receipt.remaining = 3;
        st.putReceipt(missing, "o-1", receipt);
        st.setStock(st.internSku("b-literal"), stockText("(missing)"));
        st.setStock(st.internSku("c-empty"), stockText(""));
        st.setStock(st.internSku("d-hash"),
                    StockReading{StockState::WrongType, 0, "hash", NoExpiry});
        SkuTableModel model(st);
        model.sort(SkuTableModel::Sku);
        QCOMPARE(model.rowCount(), 4);
        const auto stockCell = [&](int row) {
            return csvRow(model, row).split(',').at(1);
        };
        QCOMPARE(stockCell(0), QByteArray());            // no stock key
        QCOMPARE(stockCell(1), QByteArray("(missing)")); // the text a key holds
        QCOMPARE(stockCell(2), QByteArray("\"\""));      // an empty string
        QCOMPARE(stockCell(3), QByteArray());            // a hash: no string value
        QVERIFY(jsonRow(model, 0).value("stock").isNull());
        QCOMPARE(jsonRow(model, 1).value("stock").toString(), QStringLiteral("(missing)"));
        QVERIFY(jsonRow(model, 3).value("stock").isNull());
        QVERIFY(csvRow(model, 3).contains("stock not integer")); // why there is none
    }

    void receiptStatesAreNoValue()
    {
        KeyspaceStore st;
        const uint32_t s = st.internSku("42");
        ReceiptReading list;
        list.value = ReceiptValue::WrongType;
        list.raw = "list";
        list.expiryMs = NoExpiry;
        st.putReceipt(s, "o-1", list);
        ReceiptReading text;
        text.value = ReceiptValue::NotInteger;
        text.raw = "(a list)";
        text.expiryMs = NoExpiry;
        st.putReceipt(s, "o-2", text);
        ReceiptTableModel model(st);
        model.showAll();
        model.sort(ReceiptTableModel::Order);
        QCOMPARE(model.rowCount(), 2);
        const QJsonObject wrong = jsonRow(model, 0), literal = jsonRow(model, 1);
        QVERIFY(wrong.value("remaining").isNull());
        QCOMPARE(wrong.value("receipt").toString(), QStringLiteral("list"));
        QCOMPARE(literal.value("remaining").toString(), QStringLiteral("(a list)"));
        QCOMPARE(literal.value("receipt").toString(), QStringLiteral("string"));
    }
};

QTEST_GUILESS_MAIN(TstCsvStates)
#include "tst_csv_states.moc"
