// SPDX-License-Identifier: GPL-3.0-or-later
#include "CodeDiff.h"

#include <dtl/dtl.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace functions {

namespace {

// Lines without their '\n'; a final newline does not make an extra empty line.
std::vector<std::string> splitLines(const QByteArray &code)
{
    std::vector<std::string> out;
    if (code.isEmpty())
        return out;
    for (const QByteArray &l : code.split('\n'))
        out.emplace_back(l.constData(), size_t(l.size()));
    if (code.endsWith('\n'))
        out.pop_back();
    return out;
}

QString text(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

CodeDiff diffCode(const QByteArray &before, const QByteArray &after,
                  const core::Sentence &leftLabel, const core::Sentence &rightLabel)
{
    CodeDiff out;
    out.leftLabel = leftLabel;
    out.rightLabel = rightLabel;
    out.identical = before == after;
    const std::vector<std::string> a = splitLines(before);
    const std::vector<std::string> b = splitLines(after);
    dtl::Diff<std::string, std::vector<std::string>> diff(a, b);
    diff.compose();

    // Side by side: a run of deletions followed by additions becomes "changed" rows, paired
    // in order, so that a edited line sits next to its new form.
    std::vector<DiffRow> removed;
    std::vector<DiffRow> added;
    const auto flush = [&] {
        const size_t n = std::max(removed.size(), added.size());
        for (size_t i = 0; i < n; ++i) {
            if (i < removed.size() && i < added.size()) {
                DiffRow r = removed[i];
                r.kind = DiffRow::Kind::Changed;
                r.rightLine = added[i].rightLine;
                r.right = added[i].right;
                out.rows << r;
            } else {
                out.rows << (i < removed.size() ? removed[i] : added[i]);
            }
        }
        removed.clear();
        added.clear();
    };
    for (const auto &[line, info] : diff.getSes().getSequence()) {
        DiffRow r;
        switch (info.type) {
        case dtl::SES_DELETE:
            r.kind = DiffRow::Kind::Removed;
            r.leftLine = int(info.beforeIdx);
            r.left = text(line);
            removed.push_back(r);
            ++out.removed;
            break;
        case dtl::SES_ADD:
            r.kind = DiffRow::Kind::Added;
            r.rightLine = int(info.afterIdx);
            r.right = text(line);
            added.push_back(r);
            ++out.added;
            break;
        default:
            flush();
            r.leftLine = int(info.beforeIdx);
            r.rightLine = int(info.afterIdx);
            r.left = r.right = text(line);
            out.rows << r;
        }
    }
    flush();

    if (!out.identical && out.added == 0 && out.removed == 0)
        out.note = core::Sentence::translated(
            "functions::CodeDiff",
            QT_TRANSLATE_NOOP("functions::CodeDiff", "only the final newline differs"));
    diff.composeUnifiedHunks();
    std::ostringstream hunks;
    diff.printUnifiedFormat(hunks);
    const std::string h = hunks.str();
    if (!h.empty())
        out.unified = QStringLiteral("--- %1\n+++ %2\n").arg(leftLabel.english, rightLabel.english)
                      + QString::fromUtf8(h.data(), qsizetype(h.size()));
    return out;
}

} // namespace functions
