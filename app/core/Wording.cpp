// SPDX-License-Identifier: GPL-3.0-or-later
#include "Wording.h"

#include <QCoreApplication>

namespace core {

QString word(Wording wording, const char *context, const char *source)
{
    return wording == Wording::English ? QString::fromUtf8(source)
                                       : QCoreApplication::translate(context, source);
}

Sentence Sentence::translated(const char *context, const char *source)
{
    return {QString::fromUtf8(source), QCoreApplication::translate(context, source)};
}

QStringList copies(const Sentences &sentences, Wording wording)
{
    QStringList out;
    out.reserve(sentences.size());
    for (const Sentence &s : sentences)
        out << s.in(wording);
    return out;
}

Sentence joined(const Sentences &sentences, const QString &separator)
{
    return {copies(sentences, Wording::English).join(separator),
            copies(sentences, Wording::Translated).join(separator)};
}

} // namespace core
