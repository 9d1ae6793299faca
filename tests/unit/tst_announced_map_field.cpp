// SPDX-License-Identifier: GPL-3.0-or-later
// The announced-address map as a profile field: what a person types becomes normalised
// entries that survive a save and a load, feed the cluster router's map and the command
// line; a bad line is refused with its line number and what to write, and nothing is kept.
#include "profiles/AnnouncedMapField.h"
#include "profiles/CliConnection.h"
#include "profiles/ConnectionProfile.h"
#include "profiles/ProfileStore.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace profiles;

class TstAnnouncedMapField : public QObject
{
    Q_OBJECT

private slots:
    void typedTextBecomesEntries()
    {
        const auto entries = parseAnnouncedEntries(
            QStringLiteral("  10.0.0.5:6379 = 127.0.0.1:7001\n\nredis-node-2=localhost\r\n"
                           "10.0.0.7:6379=127.0.0.1:7003, [fd00::8]:6379 = 127.0.0.1:7004\n"));
        QVERIFY2(entries.ok(), qPrintable(entries.ok() ? QString() : entries.error().english));
        QCOMPARE(entries.value(),
                 QStringList({"10.0.0.5:6379=127.0.0.1:7001", "redis-node-2=localhost",
                              "10.0.0.7:6379=127.0.0.1:7003", "[fd00::8]:6379=127.0.0.1:7004"}));
        // Round trip through the edit box's text and the command line's argument.
        const auto again = parseAnnouncedEntries(announcedEntriesText(entries.value()));
        QVERIFY(again.ok());
        QCOMPARE(again.value(), entries.value());
        QCOMPARE(announcedEntriesText(entries.value()).split('\n').first(),
                 QStringLiteral("10.0.0.5:6379 = 127.0.0.1:7001"));
        const auto fromArgument = parseAnnouncedEntries(announcedEntriesArgument(entries.value()));
        QVERIFY(fromArgument.ok());
        QCOMPARE(fromArgument.value(), entries.value());

        const redis::AnnouncedAddressMap map = announcedMapOf(entries.value());
        QCOMPARE(map.reachable("10.0.0.5", 6379),
                 qMakePair(QStringLiteral("127.0.0.1"), quint16(7001)));
        // A bare host keeps the port; an address not mapped is itself.
        QCOMPARE(map.reachable("REDIS-NODE-2", 6390),
                 qMakePair(QStringLiteral("localhost"), quint16(6390)));
        QCOMPARE(map.reachable("10.0.0.9", 6379),
                 qMakePair(QStringLiteral("10.0.0.9"), quint16(6379)));
        QVERIFY(parseAnnouncedEntries(QStringLiteral(" \n ")).value().isEmpty());
    }

    void badLinesAreRefusedByNumber_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no equals") << "10.0.0.5:6379=127.0.0.1:7001\n10.0.0.6:6379"
                                   << "line 2: '10.0.0.6:6379' is not an address mapping";
        QTest::newRow("two equals") << "a=b=c"
                                    << "'a=b=c' is not an address mapping";
        QTest::newRow("bad port") << "10.0.0.5:70000=127.0.0.1:7001"
                                  << "is not an address mapping";
        QTest::newRow("one side without port") << "ok:1=ok:2\nhost-a:6379=127.0.0.1"
                                               << "line 2: 'host-a:6379=127.0.0.1': give a "
                                                  "port on both sides or on neither";
        QTest::newRow("empty side") << " = 127.0.0.1:7001"
                                    << "is not an address mapping";
    }

    void badLinesAreRefusedByNumber()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const auto entries = parseAnnouncedEntries(text);
        QVERIFY(!entries.ok());
        QVERIFY2(entries.error().english.contains(expected), qPrintable(entries.error().english));
        // What to write instead, for the shape errors.
        if (expected.contains("not an address mapping"))
            QVERIFY(entries.error().english.contains("announced=reachable"));

        ConnectionProfile p;
        p.name = QStringLiteral("cluster");
        p.announcedMap = text.split('\n');
        bool flagged = false;
        for (const auto &problem : p.validate())
            flagged = flagged || problem.field == QLatin1String("announcedMap");
        QVERIFY(flagged);
        QVERIFY(p.addressMap().isEmpty());
    }

    void theProfileKeepsItAndTheCommandLineGetsIt()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath("profiles.ini"), QSettings::IniFormat);
        ProfileStore store(&settings);
        ConnectionProfile p;
        p.name = QStringLiteral("staging cluster");
        p.host = QStringLiteral("10.0.0.5");
        p.environment = QStringLiteral("staging");
        p.announcedMap = {"10.0.0.5:6379=127.0.0.1:7001", "redis-node-2=localhost"};
        QVERIFY(store.save(p).ok());
        const auto loaded = ProfileStore(&settings).find(p.name);
        QVERIFY(loaded);
        QCOMPARE(loaded->announcedMap, p.announcedMap);
        QVERIFY(*loaded == p);
        QCOMPARE(loaded->addressMap().reachable("10.0.0.5", 6379),
                 qMakePair(QStringLiteral("127.0.0.1"), quint16(7001)));

        ConnectionProfile bad = p;
        bad.announcedMap = {"nonsense"};
        QVERIFY(!store.save(bad).ok());
        QCOMPARE(ProfileStore(&settings).find(p.name)->announcedMap, p.announcedMap);

        // An unsaved profile's command line carries the map.
        CliConnectionSource source;
        source.profile = p;
        const QStringList args = cliConnectionArgs(source);
        const qsizetype at = args.indexOf(QStringLiteral("--announced-map"));
        QVERIFY(at >= 0);
        QCOMPARE(args.at(at + 1),
                 QStringLiteral("10.0.0.5:6379=127.0.0.1:7001,redis-node-2=localhost"));
    }
};

QTEST_MAIN(TstAnnouncedMapField)
#include "tst_announced_map_field.moc"
