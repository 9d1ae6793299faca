// SPDX-License-Identifier: GPL-3.0-or-later
#include "ssh/Askpass.h"
#include "ssh/SshFiles.h"

#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace ssh;

// The tunnel's files: the private runtime directory, the console's known_hosts, and the
// askpass prompt filter. No ssh is run here.
class TstSshFiles : public QObject
{
    Q_OBJECT

    static int modeOf(const QString &path)
    {
        struct stat st = {};
        return ::lstat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 07777)
                                                                      : -1;
    }

    static QByteArray read(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(unreadable)");
    }

private slots:
    void runtimeDirectoryIsPrivateAndRemoved()
    {
        QTemporaryDir base;
        QVERIFY(QFile::setPermissions(base.path(),
                                      QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        const QByteArray saved = qgetenv("XDG_RUNTIME_DIR");
        const auto restore = qScopeGuard([&] {
            if (saved.isNull())
                qunsetenv("XDG_RUNTIME_DIR");
            else
                qputenv("XDG_RUNTIME_DIR", saved);
        });
        QString made;
        {
            // A private XDG_RUNTIME_DIR is used.
            qputenv("XDG_RUNTIME_DIR", base.path().toUtf8());
            PrivateRuntimeDirectory dir;
            QVERIFY(dir.create().ok());
            made = dir.path();
            QVERIFY2(made.startsWith(base.path() + QLatin1Char('/')), qPrintable(made));
            QCOMPARE(modeOf(made), 0700);
            QVERIFY(privateDirectoryProblem(made).isEmpty());
            QFile f(dir.filePath(QStringLiteral("x")));
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        QVERIFY(!QFileInfo::exists(made)); // removed with what was in it

        // One that others may enter is not: the temp directory is used instead.
        QVERIFY(QFile::setPermissions(base.path(), QFile::ReadOwner | QFile::WriteOwner
                                                       | QFile::ExeOwner | QFile::ReadOther
                                                       | QFile::ExeOther));
        QVERIFY(!privateDirectoryProblem(base.path()).isEmpty());
        PrivateRuntimeDirectory fallback;
        QVERIFY(fallback.create().ok());
        QVERIFY(!fallback.path().startsWith(base.path()));
        QCOMPARE(modeOf(fallback.path()), 0700);
    }

    void aLinkIsNotAPrivateDirectory()
    {
        QTemporaryDir base;
        const QString real = base.filePath(QStringLiteral("real"));
        QVERIFY(QDir().mkdir(real));
        QVERIFY(
            QFile::setPermissions(real, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        const QString link = base.filePath(QStringLiteral("link"));
        QVERIFY(QFile::link(real, link));
        QVERIFY(privateDirectoryProblem(real).isEmpty());
        QVERIFY(!privateDirectoryProblem(link).isEmpty());
    }

    void knownHostsAppendsAndReplacesPrivately()
    {
        QTemporaryDir base;
        const QString file = base.filePath(QStringLiteral("data/ssh_known_hosts"));
        QVERIFY(appendKnownHost(file, "[a]:2222 ssh-ed25519 AAAA1\n").ok());
        QCOMPARE(modeOf(file), 0600);
        QVERIFY(appendKnownHost(file, "b ssh-ed25519 AAAA2").ok());
        QCOMPARE(read(file), QByteArray("[a]:2222 ssh-ed25519 AAAA1\nb ssh-ed25519 AAAA2\n"));
        // Replacing drops the lines naming that host only (also in a list of names).
        QVERIFY(appendKnownHost(file, "x,[a]:2222 ssh-rsa AAAA3\n").ok());
        QVERIFY(
            appendKnownHost(file, "[a]:2222 ssh-ed25519 AAAA4", QStringLiteral("[a]:2222")).ok());
        QCOMPARE(read(file), QByteArray("b ssh-ed25519 AAAA2\n[a]:2222 ssh-ed25519 AAAA4\n"));
        QCOMPARE(modeOf(file), 0600);
        // A link in its place is refused, not followed.
        const QString link = base.filePath(QStringLiteral("link_known_hosts"));
        QVERIFY(QFile::link(file, link));
        QVERIFY(!appendKnownHost(link, "c ssh-ed25519 AAAA5").ok());
        QCOMPARE(read(file), QByteArray("b ssh-ed25519 AAAA2\n[a]:2222 ssh-ed25519 AAAA4\n"));
    }

    // Only a key's passphrase is answered: never a host-key question or a password prompt.
    void askpassAnswersOnlyAKeysPassphrase()
    {
        QVERIFY(isPassphrasePrompt("Enter passphrase for key '/home/u/.ssh/id_ed25519':"));
        QVERIFY(!isPassphrasePrompt("Are you sure you want to continue connecting "
                                    "(yes/no/[fingerprint])?"));
        QVERIFY(!isPassphrasePrompt("root@127.0.0.1's password:"));
        QVERIFY(!isPassphrasePrompt("Allow use of key /x? Key fingerprint SHA256:x."));
        QVERIFY(!isPassphrasePrompt("(root@h) Password:"));
    }
};

QTEST_GUILESS_MAIN(TstSshFiles)
#include "tst_ssh_files.moc"
