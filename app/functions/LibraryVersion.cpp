// SPDX-License-Identifier: GPL-3.0-or-later
#include "LibraryVersion.h"

#include "redis/LibraryList.h"

#include <QCryptographicHash>
#include <QRegularExpression>
#include <QStringList>
#include <algorithm>

namespace functions {

QString libraryVersion(const QByteArray &code)
{
    // Line 1 is the shebang; the version must be line 2, so that a "-- version:" inside a
    // comment further down (or in a function's text) is never taken for the release.
    const qsizetype first = code.indexOf('\n');
    if (!code.startsWith("#!") || first < 0)
        return {};
    qsizetype end = code.indexOf('\n', first + 1);
    if (end < 0)
        end = code.size();
    const QString line = QString::fromUtf8(code.mid(first + 1, end - first - 1)).trimmed();
    static const QRegularExpression re(QStringLiteral("^--\\s*version:\\s*(\\S+)$"));
    const QRegularExpressionMatch m = re.match(line);
    return m.hasMatch() ? m.captured(1) : QString();
}

QString versionLabel(const QString &version)
{
    return version.isEmpty() ? QStringLiteral("unversioned") : version;
}

QByteArray codeFingerprint(const QByteArray &code)
{
    return QCryptographicHash::hash(code, QCryptographicHash::Sha256).toHex();
}

QByteArray nodeFingerprint(const QList<redis::LibraryInfo> &libraries)
{
    QList<const redis::LibraryInfo *> sorted;
    for (const redis::LibraryInfo &l : libraries)
        sorted << &l;
    std::sort(sorted.begin(), sorted.end(),
              [](const auto *a, const auto *b) { return a->name < b->name; });
    QCryptographicHash h(QCryptographicHash::Sha256);
    for (const redis::LibraryInfo *l : sorted) {
        h.addData(l->name.toUtf8());
        h.addData(QByteArrayView("\n", 1));
        h.addData(codeFingerprint(l->code));
        h.addData(QByteArrayView("\n", 1));
    }
    return h.result().toHex();
}

QString shortFingerprint(const QByteArray &hexFingerprint)
{
    return QString::fromLatin1(hexFingerprint.left(12));
}

QString versionAndFingerprint(const QByteArray &code)
{
    return QStringLiteral("%1 (sha256 %2)")
        .arg(versionLabel(libraryVersion(code)), shortFingerprint(codeFingerprint(code)));
}

int compareVersions(const QString &a, const QString &b)
{
    const QStringList pa = a.split(QLatin1Char('.'));
    const QStringList pb = b.split(QLatin1Char('.'));
    for (qsizetype i = 0; i < qMax(pa.size(), pb.size()); ++i) {
        const QString x = i < pa.size() ? pa.at(i) : QStringLiteral("0");
        const QString y = i < pb.size() ? pb.at(i) : QStringLiteral("0");
        bool okX = false;
        bool okY = false;
        const qlonglong nx = x.toLongLong(&okX);
        const qlonglong ny = y.toLongLong(&okY);
        if (okX && okY) {
            if (nx != ny)
                return nx < ny ? -1 : 1;
        } else if (const int c = x.compare(y); c != 0) {
            return c < 0 ? -1 : 1;
        }
    }
    return 0;
}

} // namespace functions
