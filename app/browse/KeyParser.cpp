// SPDX-License-Identifier: GPL-3.0-or-later
#include "KeyParser.h"

namespace browse {

KeyParser::KeyParser(const inventory::KeySchema &schema)
{
    const QByteArray st = schema.stockTemplate().toUtf8();
    const qsizetype s = st.indexOf("<sku>");
    m_stockPrefix = st.left(s);
    m_stockSuffix = st.mid(s + 5);
    const QByteArray rt = schema.receiptTemplate().toUtf8();
    const qsizetype rs = rt.indexOf("<sku>"), ro = rt.indexOf("<order>");
    m_receiptPrefix = rt.left(rs);
    m_receiptMiddle = rt.mid(rs + 5, ro - rs - 5);
    m_receiptSuffix = rt.mid(ro + 7);
}

std::optional<KeyParser::Span> KeyParser::stockSku(QByteArrayView key) const
{
    const qsizetype p = m_stockPrefix.size(), s = m_stockSuffix.size();
    if (key.size() <= p + s || !key.startsWith(m_stockPrefix) || !key.endsWith(m_stockSuffix))
        return std::nullopt;
    return Span{p, key.size() - p - s};
}

std::optional<KeyParser::Receipt> KeyParser::receipt(QByteArrayView key) const
{
    const qsizetype p = m_receiptPrefix.size(), m = m_receiptMiddle.size(),
                    s = m_receiptSuffix.size();
    if (key.size() <= p + m + s || !key.startsWith(m_receiptPrefix)
        || !key.endsWith(m_receiptSuffix))
        return std::nullopt;
    const QByteArrayView inner = key.sliced(p, key.size() - p - s);
    const qsizetype sep = inner.indexOf(m_receiptMiddle);
    if (sep <= 0 || sep + m >= inner.size())
        return std::nullopt;
    return Receipt{Span{p, sep}, Span{p + sep + m, inner.size() - sep - m}};
}

} // namespace browse
