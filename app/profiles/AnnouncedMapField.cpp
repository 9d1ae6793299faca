// SPDX-License-Identifier: GPL-3.0-or-later
#include "AnnouncedMapField.h"

#include <QRegularExpression>

namespace profiles {

core::Result<QStringList, core::Sentence> parseAnnouncedEntries(const QString &text)
{
    QStringList entries;
    const QStringList lines = text.split(QRegularExpression(QStringLiteral("\r\n|\n|\r")));
    for (qsizetype n = 0; n < lines.size(); ++n) {
        for (const QString &raw : lines[n].split(QLatin1Char(','))) {
            const QString entry = raw.trimmed();
            if (entry.isEmpty())
                continue;
            const auto parsed = redis::AnnouncedAddressMap::parse(entry);
            if (!parsed.ok())
                return lines.size() > 1
                           ? core::Sentence::translated(
                                 "profiles::AnnouncedMapField",
                                 QT_TRANSLATE_NOOP("profiles::AnnouncedMapField", "line %1: %2"))
                                 .arg(n + 1, parsed.error())
                           : parsed.error();
            const QStringList sides = entry.split(QLatin1Char('='));
            entries << sides[0].trimmed() + QLatin1Char('=') + sides[1].trimmed();
        }
    }
    return entries;
}

QString announcedEntriesText(const QStringList &entries)
{
    QStringList lines;
    for (const QString &e : entries)
        lines << QString(e).replace(QLatin1Char('='), QStringLiteral(" = "));
    return lines.join(QLatin1Char('\n'));
}

QString announcedEntriesArgument(const QStringList &entries)
{
    return entries.join(QLatin1Char(','));
}

redis::AnnouncedAddressMap announcedMapOf(const QStringList &entries)
{
    const auto map = redis::AnnouncedAddressMap::parse(announcedEntriesArgument(entries));
    return map.ok() ? map.value() : redis::AnnouncedAddressMap{};
}

} // namespace profiles
