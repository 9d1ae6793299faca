// SPDX-License-Identifier: GPL-3.0-or-later
// The translations in resources/translations/ are complete and current: no unfinished, vanished
// or obsolete entry, the same placeholders and accelerators as the English, and lupdate over
// the sources (scripts/translations, on a copy) changes nothing. The .qm the build embeds
// translates. After a string changes: scripts/translations, translate, run this again.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

namespace {

struct Message
{
    QString context;
    QString source;
    QString translation; // the first numerus form for a plural
    QString type;        // "unfinished", "vanished", "obsolete" or empty
};

QList<Message> readTs(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return {};
    }
    QList<Message> messages;
    QXmlStreamReader xml(&file);
    QString context;
    Message m;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const auto name = xml.name();
        if (name == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            m = Message{context, {}, {}, {}};
        } else if (name == QLatin1String("source")) {
            m.source = xml.readElementText();
        } else if (name == QLatin1String("translation")) {
            m.type = xml.attributes().value(QLatin1String("type")).toString();
            // Plain text, or the first <numerusform> (Chinese has one plural form).
            m.translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            messages << m;
        }
    }
    if (xml.hasError())
        *error =
            QStringLiteral("%1 line %2: %3").arg(path).arg(xml.lineNumber()).arg(xml.errorString());
    return messages;
}

// %1…%99 and %n (with an optional L, as in %L1), sorted: the order may change with the grammar.
QStringList placeholders(const QString &text)
{
    static const QRegularExpression marker(QStringLiteral("%L?(\\d{1,2}|n)"));
    QStringList found;
    for (auto it = marker.globalMatch(text); it.hasNext();)
        found << it.next().captured(1);
    found.sort();
    return found;
}

// The accelerators: '&' followed by a character that is not '&' ("&&" is a literal one).
int accelerators(const QString &text)
{
    int n = 0;
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text[i] != QLatin1Char('&'))
            continue;
        if (text[i + 1] != QLatin1Char('&'))
            ++n;
        ++i;
    }
    return n;
}

QString describe(const Message &m)
{
    return QStringLiteral("[%1] \"%2\"").arg(m.context, m.source.left(80));
}

QStringList tsFiles()
{
    const QDir dir(QStringLiteral(INVENTORY_SOURCE_DIR "/resources/translations"));
    QStringList files;
    for (const QString &name : dir.entryList({QStringLiteral("*.ts")}, QDir::Files))
        files << dir.filePath(name);
    return files;
}

} // namespace

class TranslationsTest : public QObject
{
    Q_OBJECT

private slots:
    void everyEntryFinished_data();
    void everyEntryFinished();
    void currentWithTheSources_data() { everyEntryFinished_data(); }
    void currentWithTheSources();
    void builtTranslationTranslates();
    void checksFindBrokenEntries();
};

void TranslationsTest::everyEntryFinished_data()
{
    QTest::addColumn<QString>("path");
    const QStringList files = tsFiles();
    QVERIFY2(!files.isEmpty(), "no .ts file in resources/translations");
    for (const QString &f : files)
        QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
}

void TranslationsTest::everyEntryFinished()
{
    QFETCH(QString, path);
    QString error;
    const QList<Message> messages = readTs(path, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(messages.size() > 1000);
    QStringList problems;
    for (const Message &m : messages) {
        if (!m.type.isEmpty())
            problems << QStringLiteral("%1 entry %2").arg(m.type, describe(m));
        else if (m.translation.isEmpty())
            problems << QStringLiteral("empty translation %1").arg(describe(m));
        else if (placeholders(m.source) != placeholders(m.translation))
            problems
                << QStringLiteral("placeholders differ %1: %2").arg(describe(m), m.translation);
        else if (accelerators(m.source) != accelerators(m.translation))
            problems
                << QStringLiteral("accelerators differ %1: %2").arg(describe(m), m.translation);
    }
    QVERIFY2(problems.isEmpty(),
             qPrintable(problems.join(QLatin1Char('\n'))
                        + QStringLiteral("\n(scripts/translations, then translate these)")));
}

// lupdate over the sources adds nothing and drops nothing: the file in git is what it writes.
void TranslationsTest::currentWithTheSources()
{
    QFETCH(QString, path);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString copy = dir.filePath(QFileInfo(path).fileName());
    QVERIFY(QFile::copy(path, copy));
    QProcess lupdate;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LUPDATE"), QStringLiteral(INVENTORY_LUPDATE));
    lupdate.setProcessEnvironment(env);
    lupdate.start(QStringLiteral(INVENTORY_SOURCE_DIR "/scripts/translations"), {copy});
    QVERIFY(lupdate.waitForFinished(60000));
    QVERIFY2(lupdate.exitStatus() == QProcess::NormalExit && lupdate.exitCode() == 0,
             lupdate.readAllStandardError().constData());

    QString error;
    const QList<Message> before = readTs(path, &error);
    const QList<Message> after = readTs(copy, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QStringList changed;
    for (const Message &m : after)
        if (m.type == QLatin1String("unfinished"))
            changed << QStringLiteral("new in the sources %1").arg(describe(m));
    QSet<QString> kept;
    for (const Message &m : after)
        kept.insert(m.context + QChar(0) + m.source);
    for (const Message &m : before)
        if (!kept.contains(m.context + QChar(0) + m.source))
            changed << QStringLiteral("gone from the sources %1").arg(describe(m));
    QVERIFY2(changed.isEmpty(),
             qPrintable(changed.join(QLatin1Char('\n'))
                        + QStringLiteral("\n(run scripts/translations and translate)")));
    QFile a(path), b(copy);
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    QVERIFY2(a.readAll() == b.readAll(), "lupdate rewrites the file: run scripts/translations");
}

void TranslationsTest::builtTranslationTranslates()
{
    QTranslator translator;
    QVERIFY(translator.load(QStringLiteral(INVENTORY_QM_DIR "/inventory_zh_CN.qm")));
    QCOMPARE(translator.language(), QStringLiteral("zh_CN"));
    QCOMPARE(translator.translate("ui::MainWindow", "&Overview"), QStringLiteral("概览(&O)"));
    QCOMPARE(translator.translate("QObject", "Connected"), QStringLiteral("已连接"));
    QCOMPARE(translator.translate("ui::Count", "receipts"), QStringLiteral("条回执"));
    // A plural, in Chinese's one form (QCoreApplication::translate fills %n in later).
    QVERIFY(translator
                .translate("ui::AuditViewerPanel",
                           "%n line(s) of the audit log could not be read yet (a truncated "
                           "last line usually means the machine lost power while writing):",
                           nullptr, 3)
                .startsWith(QStringLiteral("审计日志中有 %n 行")));
}

// The checks themselves fail where they should.
void TranslationsTest::checksFindBrokenEntries()
{
    QCOMPARE(placeholders(QStringLiteral("%2 of %1, %n")),
             (QStringList{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("n")}));
    QVERIFY(placeholders(QStringLiteral("%1 of %2")) != placeholders(QStringLiteral("%1 / %1")));
    QCOMPARE(accelerators(QStringLiteral("Stock && receipts")), 0);
    QCOMPARE(accelerators(QStringLiteral("&Run")), 1);
    QCOMPARE(accelerators(QStringLiteral("运行(&R)")), 1);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.ts"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("<?xml version=\"1.0\" encoding=\"utf-8\"?><!DOCTYPE TS><TS version=\"2.1\">"
            "<context><name>C</name>"
            "<message><source>a</source><translation type=\"unfinished\"></translation></message>"
            "<message><source>b</source><translation type=\"vanished\">乙</translation></message>"
            "</context></TS>");
    f.close();
    QString error;
    const QList<Message> messages = readTs(path, &error);
    QVERIFY(error.isEmpty());
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages[0].type, QStringLiteral("unfinished"));
    QCOMPARE(messages[1].type, QStringLiteral("vanished"));
    QCOMPARE(messages[1].translation, QStringLiteral("乙"));
}

QTEST_GUILESS_MAIN(TranslationsTest)
#include "tst_translations.moc"
