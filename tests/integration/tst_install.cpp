// SPDX-License-Identifier: GPL-3.0-or-later
// `cmake --install` into a temporary prefix gives a console a desktop can launch and a CLI
// with a man page per command, and the installed binaries do not need the source tree.
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run run(const QString &program, const QStringList &args, int timeoutMs = 120000,
        const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(environment);
    p.start(program, args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-1, {}, "timed out or did not start: " + program.toUtf8()};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TstInstall : public QObject
{
    Q_OBJECT

    QTemporaryDir m_prefix;

    QString installed(const QString &relative) const { return m_prefix.filePath(relative); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_prefix.isValid());
        const Run r = run(QStringLiteral(INVENTORY_CMAKE_COMMAND),
                          {QStringLiteral("--install"), QStringLiteral(INVENTORY_BUILD_DIR),
                           QStringLiteral("--prefix"), m_prefix.path()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    void binariesRunFromThePrefix()
    {
        for (const QString &binary :
             {QStringLiteral("inventory-cli"), QStringLiteral("inventory-console")}) {
            const QString path = installed(QStringLiteral("bin/") + binary);
            QVERIFY2(QFileInfo(path).isExecutable(), qPrintable(path));
            const Run r = run(path, {QStringLiteral("--version")}, 10000);
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.out.startsWith(binary.toUtf8() + ' '), r.out.constData());
        }
        // Nothing in a shipped binary points into the source tree.
        for (const QString &binary :
             {QStringLiteral("bin/inventory-cli"), QStringLiteral("bin/inventory-console")}) {
            QVERIFY2(!fileBytes(installed(binary)).contains(INVENTORY_SOURCE_DIR "/functions"),
                     qPrintable(binary));
        }
    }

    // The installed CLI finds the installed load-run helper on its own (the suite points every
    // other test at the build tree's helper through $INVENTORY_LOAD_RUN).
    void installedInspectorFindsItsHelper()
    {
        QVERIFY(QFileInfo(installed(QStringLiteral("libexec/inventory-console/inventory-load-run")))
                    .isExecutable());
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.remove(QStringLiteral("INVENTORY_LOAD_RUN"));
        const QString library =
            installed(QStringLiteral("share/inventory-console/functions/inventory_lib_v1.lua"));
        Run r = run(installed(QStringLiteral("bin/inventory-cli")),
                    {QStringLiteral("functions"), QStringLiteral("check"), library}, 30000,
                    environment);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.startsWith("inventory_lib_v1  "), r.out.constData());
        // Without it, the file is not judged, and the CLI does not call it refused by Redis.
        QVERIFY(
            QFile::rename(installed(QStringLiteral("libexec/inventory-console/inventory-load-run")),
                          installed(QStringLiteral("libexec/inventory-console/moved"))));
        r = run(installed(QStringLiteral("bin/inventory-cli")),
                {QStringLiteral("functions"), QStringLiteral("check"), library}, 30000,
                environment);
        QVERIFY(QFile::rename(
            installed(QStringLiteral("libexec/inventory-console/moved")),
            installed(QStringLiteral("libexec/inventory-console/inventory-load-run"))));
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(" could not be inspected offline, so it is not loaded (this says "
                                "nothing about the code; try again): the inspection helper "
                                "inventory-load-run was not found"),
                 r.err.constData());
    }

    void desktopEntryHandlesRedisLinks()
    {
        const QByteArray entry = fileBytes(installed(
            QStringLiteral("share/applications/org.inventory_console.InventoryConsole.desktop")));
        QVERIFY(entry.contains("\nExec=inventory-console %U\n"));
        QVERIFY(entry.contains("\nIcon=inventory-console\n"));
        QVERIFY(entry.contains("x-scheme-handler/redis;"));
        QVERIFY(entry.contains("x-scheme-handler/rediss;"));
        QVERIFY(QFileInfo::exists(
            installed(QStringLiteral("share/icons/hicolor/256x256/apps/inventory-console.png"))));
        // Software centres find the console by its AppStream metadata, which names the entry.
        const QByteArray metainfo = fileBytes(installed(
            QStringLiteral("share/metainfo/org.inventory_console.InventoryConsole.metainfo.xml")));
        QVERIFY(metainfo.contains("<launchable type=\"desktop-id\">"
                                  "org.inventory_console.InventoryConsole.desktop</launchable>"));
    }

    void shippedFunctionsAreInstalledAsInTheRepository()
    {
        const QString source = QStringLiteral(INVENTORY_SOURCE_DIR);
        const QList<QPair<QString, QString>> files = {
            {"functions/inventory_lib_v1.lua",
             "share/inventory-console/functions/inventory_lib_v1.lua"},
            {"functions/stock_decrement.lua",
             "share/inventory-console/functions/stock_decrement.lua"},
            {"resources/functions/inventory_lib_v1-1.0.0.lua",
             "share/inventory-console/releases/inventory_lib_v1-1.0.0.lua"}};
        for (const auto &[from, to] : files) {
            const QByteArray original = fileBytes(source + QLatin1Char('/') + from);
            QVERIFY2(!original.isEmpty(), qPrintable(from));
            QCOMPARE(fileBytes(installed(to)), original);
        }
    }

    // Every command inventory-cli lists has a page, and each page is a man page of it.
    void everyCommandHasAManPage()
    {
        const Run help =
            run(installed(QStringLiteral("bin/inventory-cli")), {QStringLiteral("--help")}, 10000);
        QCOMPARE(help.exitCode, 0);
        QStringList commands;
        static const QRegularExpression commandLine(QStringLiteral("^  ([a-z]+)  "));
        for (const QByteArray &line : help.out.split('\n')) {
            const auto m = commandLine.match(QString::fromUtf8(line));
            if (m.hasMatch())
                commands << m.captured(1);
        }
        QVERIFY2(commands.size() >= 5, help.out.constData());
        QStringList pages = {QStringLiteral("inventory-console"), QStringLiteral("inventory-cli")};
        for (const QString &c : commands)
            pages << QStringLiteral("inventory-cli-") + c;
        for (const QString &page : pages) {
            const QString path = installed(QStringLiteral("share/man/man1/%1.1.gz").arg(page));
            QVERIFY2(QFileInfo::exists(path), qPrintable(path));
            const Run text = run(QStringLiteral("gzip"), {QStringLiteral("-dc"), path}, 10000);
            QCOMPARE(text.exitCode, 0);
            QVERIFY2(text.out.contains(".TH "), qPrintable(page));
            QVERIFY2(text.out.contains(page.toUtf8() + " \\- "), qPrintable(page));
            // The options come from the command's own --help (roff escapes the dashes).
            QVERIFY2(text.out.contains("\\-\\-help"), qPrintable(page));
        }
    }
};

QTEST_GUILESS_MAIN(TstInstall)
#include "tst_install.moc"
