// SPDX-License-Identifier: GPL-3.0-or-later
// The Libraries tab on a real 3-primary Redis Cluster, offscreen: the matrix of libraries by
// node shows drift highlighted in the palette's colours (another version amber, a missing
// library red), "Bring nodes in line…" opens the guarded wizard on the drifted primary, and
// the wizard's result names where each node ended.
#include "ChangeFixture.h"
#include "RedisFixture.h"
#include "gate/WriteGate.h"
#include "redis/ClusterRouter.h"
#include "ui/common/Palette.h"
#include "ui/functions/LibrariesView.h"
#include "ui/functions/LoadWizard.h"
#include "ui/functions/NodeMatrixView.h"

#include <QAbstractButton>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace functions;

class TstFunctionsMatrix : public QObject
{
    Q_OBJECT

    testsupport::RedisCluster m_cluster;
    QByteArray m_shipped;
    QTemporaryDir m_dir;

    QString address(int i) const
    {
        return QStringLiteral("127.0.0.1:%1").arg(m_cluster.nodes().at(i).port);
    }
    // The table row of a node (rows follow slot order, not the fixture's).
    static int rowOf(QTableWidget *table, const QString &address)
    {
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->item(r, 0)->data(Qt::UserRole).toString() == address)
                return r;
        return -1;
    }
    QByteArray code(int node) const
    {
        auto r = m_cluster.connectNode(node)->call(
            {"FUNCTION", "LIST", "LIBRARYNAME", "inventory_lib_v1", "WITHCODE"});
        auto libs = redis::decodeFunctionList(*r);
        return libs.value().isEmpty() ? QByteArray() : libs.value().first().code;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString()));
        m_shipped = testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua"));
        for (int i = 0; i < 3; ++i)
            QVERIFY(
                m_cluster.connectNode(i)->call({"FUNCTION", "LOAD", "REPLACE", m_shipped}).ok());
    }

    void matrixShowsDriftHighlighted()
    {
        QVERIFY(m_cluster.connectNode(1)
                    ->call({"FUNCTION", "LOAD", "REPLACE", testsupport::previousReleaseSource()})
                    .ok());
        QVERIFY(m_cluster.connectNode(2)->call({"FUNCTION", "DELETE", "inventory_lib_v1"}).ok());

        redis::ClusterRouter::Options o;
        o.seed = m_cluster.nodes().first();
        redis::ClusterRouter router(o);
        profiles::ConnectionProfile profile;
        profile.name = QStringLiteral("cluster ui");
        profile.environment = QStringLiteral("local");
        gate::WriteGate gate(router.seed(), profile);
        const ChangeContext context = testsupport::changeContext(&gate, m_dir, profile.name);
        ui::LibrariesView view(context, router, std::nullopt);
        view.resize(1280, 720);
        view.show();
        QSignalSpy refreshed(&view, &ui::LibrariesView::refreshed);
        router.open(); // the topology arrives, and the view reads every node
        QTRY_VERIFY_WITH_TIMEOUT(view.matrixView()->isVisible(), 10000);
        QTRY_VERIFY(refreshed.count() >= 1);

        QTableWidget *table = view.matrixView()->table();
        QCOMPARE(table->rowCount(), 3);
        QCOMPARE(table->columnCount(), 3); // node, role, inventory_lib_v1
        QCOMPARE(table->horizontalHeaderItem(2)->text(), QStringLiteral("inventory_lib_v1"));
        const QTableWidgetItem *inLine = table->item(rowOf(table, address(0)), 2);
        const QTableWidgetItem *older = table->item(rowOf(table, address(1)), 2);
        const QTableWidgetItem *missing = table->item(rowOf(table, address(2)), 2);
        QVERIFY2(inLine->text().startsWith(QStringLiteral("1.3.0 · ")), qPrintable(inLine->text()));
        QCOMPARE(inLine->background().style(), Qt::NoBrush);
        QVERIFY2(older->text().contains(QStringLiteral("1.0.0")), qPrintable(older->text()));
        QVERIFY2(older->text().contains(QStringLiteral("other version")),
                 qPrintable(older->text()));
        QCOMPARE(older->background().color(), ui::Palette::warningTint());
        QCOMPARE(older->foreground().color(), ui::Palette::warning());
        QVERIFY2(older->toolTip().contains(address(1)), qPrintable(older->toolTip()));
        QVERIFY2(missing->text().contains(QStringLiteral("missing")), qPrintable(missing->text()));
        QCOMPARE(missing->background().color(), ui::Palette::errorTint());
        QCOMPARE(missing->foreground().color(), ui::Palette::error());
        QVERIFY2(view.matrixView()->summary()->text().startsWith(QStringLiteral("Drift")),
                 qPrintable(view.matrixView()->summary()->text()));
        QPushButton *align = view.matrixView()->alignButton();
        QVERIFY(align->isEnabled());
        QCOMPARE(align->text(),
                 QStringLiteral("Bring inventory_lib_v1 in line with %1…").arg(address(0)));
        // A selected cell names the node to copy from; a refresh keeps it.
        table->setCurrentCell(rowOf(table, address(1)), 2);
        QCOMPARE(align->text(),
                 QStringLiteral("Bring inventory_lib_v1 in line with %1…").arg(address(1)));
        const int reads = refreshed.count();
        view.refresh();
        QTRY_VERIFY(refreshed.count() > reads);
        QCOMPARE(view.matrixView()->alignSource(), address(1));
        table->setCurrentCell(rowOf(table, address(0)), 2);
        QCOMPARE(view.matrixView()->alignSource(), address(0));
        // The tree lists the library once, as most nodes hold it.
        QCOMPARE(view.tree()->topLevelItemCount(), 1);
        QCOMPARE(view.tree()->topLevelItem(0)->text(1), QStringLiteral("1.3.0"));

        // Bring nodes in line: the wizard shows the drifted primaries first, then the result
        // of each node.
        QSignalSpy finished(&view, &ui::LibrariesView::refreshed);
        ui::LoadWizard *wizard = view.startAlign(address(0), QStringLiteral("inventory_lib_v1"));
        QVERIFY(wizard);
        const QList<ChangeTarget> nodes = wizard->change().context().nodes;
        QCOMPARE(nodes.size(), 3);
        QCOMPARE(nodes.last().address, address(0)); // the source, left alone, comes last
        QTRY_COMPARE_WITH_TIMEOUT(int(wizard->change().stage()),
                                  int(LibraryChange::Stage::StateRead), 10000);
        for (int step = 0; step < 4; ++step) {
            QAbstractButton *next =
                wizard->button(wizard->currentPage()->isCommitPage() ? QWizard::CommitButton
                                                                     : QWizard::NextButton);
            QTRY_VERIFY_WITH_TIMEOUT(next->isEnabled(), 10000);
            next->click();
        }
        auto *typed = wizard->currentPage()->findChild<QLineEdit *>();
        QVERIFY(typed);
        typed->setText(QStringLiteral("inventory_lib_v1"));
        QAbstractButton *commit = wizard->button(QWizard::CommitButton);
        QTRY_VERIFY(commit->isEnabled());
        commit->click();
        auto *result = wizard->currentPage()->findChild<QTreeWidget *>();
        QVERIFY(result);
        QTRY_COMPARE_WITH_TIMEOUT(result->topLevelItemCount(), 3, 10000);
        QMap<QString, QString> ended;
        for (int i = 0; i < 3; ++i) {
            const QTreeWidgetItem *row = result->topLevelItem(i);
            ended.insert(row->text(0), row->text(1));
            QVERIFY2(row->text(2).startsWith(QStringLiteral("inventory_lib_v1 1.3.0 (sha256 ")),
                     qPrintable(row->text(2)));
            QVERIFY2(row->text(3).startsWith(row->text(1) == QLatin1String("loaded")
                                                 ? QStringLiteral("done and verified")
                                                 : QStringLiteral("nothing to change")),
                     qPrintable(row->text(3)));
        }
        QCOMPARE(ended.value(address(0)), QStringLiteral("unchanged"));
        QCOMPARE(ended.value(address(1)), QStringLiteral("loaded"));
        QCOMPARE(ended.value(address(2)), QStringLiteral("loaded"));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(code(i), m_shipped);
        // The view reads every node again: in line, nothing highlighted.
        QTRY_VERIFY_WITH_TIMEOUT(
            view.matrixView()->summary()->text().startsWith(QStringLiteral("In line")), 10000);
        QVERIFY(!view.matrixView()->alignButton()->isEnabled());
        QCOMPARE(table->item(rowOf(table, address(1)), 2)->background().style(), Qt::NoBrush);
        wizard->close();
    }
};

QTEST_MAIN(TstFunctionsMatrix)
#include "tst_functions_matrix.moc"
