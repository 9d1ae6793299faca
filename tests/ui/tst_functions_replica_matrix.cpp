// SPDX-License-Identifier: GPL-3.0-or-later
// The Libraries tab on a standalone primary with a replica (real servers), offscreen: the
// matrix lists the replica under its primary, and a replica changed on its own is named as
// such, with nothing offered to align (loading on the primary would not reach it).
#include "ChangeFixture.h"
#include "RedisFixture.h"
#include "gate/WriteGate.h"
#include "redis/ClusterRouter.h"
#include "redis/LibraryList.h"
#include "ui/common/Palette.h"
#include "ui/functions/LibrariesView.h"
#include "ui/functions/NodeMatrixView.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

class TstFunctionsReplicaMatrix : public QObject
{
    Q_OBJECT

    testsupport::StandaloneRedis m_primary;
    testsupport::StandaloneRedis m_replica;
    QByteArray m_shipped;
    QTemporaryDir m_dir;

    QString address(const testsupport::StandaloneRedis &s) const
    {
        return QStringLiteral("127.0.0.1:%1").arg(s.port());
    }
    QByteArray replicaCode()
    {
        auto r = m_replica.connect()->call(
            {"FUNCTION", "LIST", "LIBRARYNAME", "inventory_lib_v1", "WITHCODE"});
        auto libs = redis::decodeFunctionList(*r);
        return libs && !libs.value().isEmpty() ? libs.value().first().code : QByteArray();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_primary.start(), qPrintable(m_primary.errorString()));
        QVERIFY2(m_replica.startReplicaOf(m_primary), qPrintable(m_replica.errorString()));
        m_shipped = testsupport::functionSource(QStringLiteral("inventory_lib_v1.lua"));
        QVERIFY(m_primary.connect()->call({"FUNCTION", "LOAD", "REPLACE", m_shipped}).ok());
        QTRY_COMPARE_WITH_TIMEOUT(replicaCode(), m_shipped, 10000);
    }

    void replicaListedUnderItsPrimary()
    {
        redis::ClusterRouter::Options o;
        o.seed = m_primary.options();
        redis::ClusterRouter router(o);
        router.open();
        QVERIFY(router.waitUntilDiscovered(5000));
        QVERIFY(!router.isCluster());
        profiles::ConnectionProfile profile;
        profile.name = QStringLiteral("replicated");
        profile.environment = QStringLiteral("local");
        gate::WriteGate gate(router.seed(), profile);
        const functions::ChangeContext context =
            testsupport::singleNodeContext(router.seed(), &gate, m_dir, profile.name);
        ui::LibrariesView view(context, router, std::nullopt);
        view.resize(1280, 720);
        view.show();
        QSignalSpy refreshed(&view, &ui::LibrariesView::refreshed);
        view.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(refreshed.count() >= 1, 10000);
        QVERIFY(view.matrixView()->isVisible());
        QTableWidget *table = view.matrixView()->table();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(0, 0)->data(Qt::UserRole).toString(), address(m_primary));
        QCOMPARE(table->item(1, 0)->data(Qt::UserRole).toString(), address(m_replica));
        QCOMPARE(table->item(1, 1)->text(),
                 QStringLiteral("replica of %1").arg(address(m_primary)));
        QVERIFY2(view.matrixView()->summary()->text().startsWith(
                     QStringLiteral("In line: the 2 nodes (1 primary, 1 replica)")),
                 qPrintable(view.matrixView()->summary()->text()));
        const auto summaryColour = [&] {
            return view.matrixView()->summary()->palette().color(QPalette::WindowText);
        };
        QCOMPARE(summaryColour(), ui::Palette::ok());
        // A member left out keeps "in line" from reading as the whole group.
        const functions::LibraryMatrix inLine = view.matrixView()->matrix();
        view.matrixView()->setMatrix(inLine,
                                     QStringLiteral("replica 10.0.0.9:6379 is left out: x"));
        QVERIFY2(view.matrixView()->summary()->text().endsWith(
                     QStringLiteral("\n• Replica 10.0.0.9:6379 is left out: x")),
                 qPrintable(view.matrixView()->summary()->text()));
        QCOMPARE(summaryColour(), ui::Palette::warning());

        // The replica made writable and changed on its own.
        auto replica = m_replica.connect();
        QVERIFY(replica->call({"CONFIG", "SET", "replica-read-only", "no"}).ok());
        QVERIFY(replica->call({"FUNCTION", "DELETE", "inventory_lib_v1"}).ok());
        const int reads = refreshed.count();
        view.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(refreshed.count() > reads, 10000);
        const QString summary = view.matrixView()->summary()->text();
        QVERIFY2(summary.startsWith(QStringLiteral("Drift: these nodes differ:")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(address(m_replica) + QStringLiteral(" differs from its primary")),
                 qPrintable(summary));
        QVERIFY2(table->item(1, 2)->text().contains(QStringLiteral("missing")),
                 qPrintable(table->item(1, 2)->text()));
        QVERIFY(!view.matrixView()->alignButton()->isEnabled());
        QVERIFY(replica->call({"FUNCTION", "LOAD", "REPLACE", m_shipped}).ok());
        QVERIFY(replica->call({"CONFIG", "SET", "replica-read-only", "yes"}).ok());
    }
};

QTEST_MAIN(TstFunctionsReplicaMatrix)
#include "tst_functions_replica_matrix.moc"
