// SPDX-License-Identifier: GPL-3.0-or-later
#include "StringPool.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace browse {

uint32_t StringPool::add(QByteArrayView s, bool *ok)
{
    const size_t end = m_data.size() + size_t(s.size());
    const bool fits = end <= std::numeric_limits<uint32_t>::max();
    if (ok)
        *ok = fits;
    if (!fits)
        return size() ? size() - 1 : 0;
    m_data.insert(m_data.end(), s.data(), s.data() + s.size());
    m_offsets.push_back(uint32_t(end));
    return size() - 1;
}

void StringPool::clear()
{
    // Release the memory too: a rescan of a smaller keyspace should not keep the old peak.
    std::vector<char>().swap(m_data);
    std::vector<uint32_t>{0}.swap(m_offsets);
}

void StringPool::reserve(size_t strings, size_t bytes)
{
    m_offsets.reserve(strings + 1);
    m_data.reserve(bytes);
}

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

qsizetype runEnd(QByteArrayView s, qsizetype i)
{
    const bool digits = isDigit(s[i]);
    while (i < s.size() && isDigit(s[i]) == digits)
        ++i;
    return i;
}

int compareDigitRuns(QByteArrayView a, QByteArrayView b)
{
    qsizetype za = 0, zb = 0;
    while (za < a.size() - 1 && a[za] == '0')
        ++za;
    while (zb < b.size() - 1 && b[zb] == '0')
        ++zb;
    const qsizetype la = a.size() - za, lb = b.size() - zb;
    if (la != lb)
        return la < lb ? -1 : 1;
    if (const int c = std::memcmp(a.data() + za, b.data() + zb, size_t(la)))
        return c < 0 ? -1 : 1;
    // Same value: fewer leading zeros first, so "7" and "007" stay distinct and ordered.
    return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

int compareBytes(QByteArrayView a, QByteArrayView b)
{
    const size_t n = size_t(std::min(a.size(), b.size()));
    if (const int c = n ? std::memcmp(a.data(), b.data(), n) : 0)
        return c < 0 ? -1 : 1;
    return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

} // namespace

int naturalCompare(QByteArrayView a, QByteArrayView b)
{
    // Skip the common prefix, then back up to the start of the run it ends in: both strings
    // split into the same runs up to there, so comparing run by run from that point decides.
    const qsizetype n = std::min(a.size(), b.size());
    qsizetype i = 0;
    while (i < n && a[i] == b[i])
        ++i;
    if (i == a.size() && i == b.size())
        return 0;
    if (i > 0) {
        const bool digits = isDigit(a[i - 1]);
        while (i > 0 && isDigit(a[i - 1]) == digits)
            --i;
    }
    qsizetype ia = i, ib = i;
    while (ia < a.size() && ib < b.size()) {
        const bool da = isDigit(a[ia]), db = isDigit(b[ib]);
        if (da != db)
            return da ? -1 : 1;
        const qsizetype ea = runEnd(a, ia), eb = runEnd(b, ib);
        const QByteArrayView ra = a.sliced(ia, ea - ia), rb = b.sliced(ib, eb - ib);
        if (const int c = da ? compareDigitRuns(ra, rb) : compareBytes(ra, rb))
            return c;
        ia = ea;
        ib = eb;
    }
    if (ia == a.size() && ib == b.size())
        return 0;
    return ia == a.size() ? -1 : 1;
}

NaturalKey naturalKey(QByteArrayView s)
{
    unsigned char out[16] = {};
    int n = 0;
    auto put = [&](unsigned char b) {
        if (n < 16)
            out[n++] = b;
    };
    qsizetype i = 0;
    while (i < s.size() && n < 16) {
        const qsizetype end = runEnd(s, i);
        if (isDigit(s[i])) {
            qsizetype z = i;
            while (z < end - 1 && s[z] == '0')
                ++z;
            put(0x01); // a digit run sorts before a text run at the same place
            put(uchar(qMin<qsizetype>(end - z, 255)));
            for (qsizetype d = z; d < end && n < 16; d += 2) {
                const int hiNibble = s[d] - '0';
                const int loNibble = d + 1 < end ? s[d + 1] - '0' : 0;
                put(uchar(hiNibble << 4 | loNibble));
            }
            put(uchar(qMin<qsizetype>(z - i, 255))); // leading zeros: fewer first
        } else {
            put(0x02);
            for (qsizetype t = i; t < end && n < 16; ++t)
                put(uchar(s[t]));
        }
        i = end;
    }
    // The end of the name is 0x00: shorter names (prefixes) first.
    NaturalKey k;
    for (int b = 0; b < 8; ++b) {
        k.hi = k.hi << 8 | out[b];
        k.lo = k.lo << 8 | out[b + 8];
    }
    return k;
}

} // namespace browse
