// SPDX-License-Identifier: GPL-3.0-or-later
#include "Glob.h"

#include <QCoreApplication>

namespace browse {

namespace {

// In the installed translator's language: the window's; the CLI installs none (English).
struct GlobText
{
    Q_DECLARE_TR_FUNCTIONS(browse::Glob)
};

// One bracket class starting after '['; advances p past the closing ']'.
bool matchClass(QByteArrayView pat, qsizetype &p, unsigned char c)
{
    bool negate = false, hit = false;
    if (p < pat.size() && pat[p] == '^') {
        negate = true;
        ++p;
    }
    while (p < pat.size() && pat[p] != ']') {
        if (pat[p] == '\\' && p + 1 < pat.size()) {
            ++p;
            hit = hit || static_cast<unsigned char>(pat[p]) == c;
            ++p;
        } else if (p + 2 < pat.size() && pat[p + 1] == '-') {
            // As the server's stringmatchlen: the bound after '-' is taken even when it is
            // the ']' (so "[a-]" is never closed), and bounds compare as signed chars.
            signed char lo = pat[p], hi = pat[p + 2];
            if (lo > hi)
                std::swap(lo, hi);
            const signed char sc = static_cast<signed char>(c);
            hit = hit || (sc >= lo && sc <= hi);
            p += 3;
        } else {
            hit = hit || static_cast<unsigned char>(pat[p]) == c;
            ++p;
        }
    }
    if (p < pat.size())
        ++p; // the ']'
    return negate ? !hit : hit;
}

} // namespace

std::optional<QString> globProblem(QByteArrayView pat)
{
    for (qsizetype p = 0; p < pat.size(); ++p) {
        if (pat[p] == '\\') {
            if (p + 1 == pat.size())
                return GlobText::tr("the pattern ends with a lone '\\' (write '\\\\' for a "
                                    "backslash)");
            ++p;
        } else if (pat[p] == '[') {
            const qsizetype open = p;
            ++p;
            if (p < pat.size() && pat[p] == '^')
                ++p;
            while (p < pat.size() && pat[p] != ']')
                p += pat[p] == '\\' ? 2 : p + 2 < pat.size() && pat[p + 1] == '-' ? 3 : 1;
            if (p >= pat.size())
                return GlobText::tr("the '[' at position %1 is never closed with ']' (write "
                                    "'\\[' for a bracket)")
                    .arg(open + 1);
        }
    }
    return std::nullopt;
}

bool globMatch(QByteArrayView pat, QByteArrayView text)
{
    // The server matches nothing against an empty key (its loop needs a character), except
    // that SCAN MATCH "*" is no filter at all and an empty pattern is equal to it.
    if (text.isEmpty())
        return pat.isEmpty() || pat == "*";
    // Iterative with one backtrack point for the last '*': linear for the patterns people
    // type, and no recursion depth to blow on long keys.
    qsizetype p = 0, t = 0, starP = -1, starT = 0;
    while (t < text.size()) {
        if (p < pat.size()) {
            const char pc = pat[p];
            if (pc == '*') {
                while (p < pat.size() && pat[p] == '*')
                    ++p;
                if (p == pat.size())
                    return true;
                starP = p;
                starT = t;
                continue;
            }
            if (pc == '?') {
                ++p;
                ++t;
                continue;
            }
            if (pc == '[') {
                qsizetype q = p + 1;
                if (matchClass(pat, q, static_cast<unsigned char>(text[t]))) {
                    p = q;
                    ++t;
                    continue;
                }
            } else {
                qsizetype q = p;
                if (pc == '\\' && q + 1 < pat.size())
                    ++q;
                if (pat[q] == text[t]) {
                    p = q + 1;
                    ++t;
                    continue;
                }
            }
        }
        if (starP < 0)
            return false;
        p = starP;
        t = ++starT;
    }
    while (p < pat.size() && pat[p] == '*')
        ++p;
    return p == pat.size();
}

} // namespace browse
