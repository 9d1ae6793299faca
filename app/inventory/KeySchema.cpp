// SPDX-License-Identifier: GPL-3.0-or-later
#include "KeySchema.h"

#include "redis/Slot.h"

#include <QStringList>

namespace inventory {

namespace {
const QString Sku = QStringLiteral("<sku>");
const QString Order = QStringLiteral("<order>");
const QString AdjustmentId = QStringLiteral("<id>");

// The text between a template's first '{' and the next '}', as Redis takes a key's hash tag;
// empty when there is none.
QString templateHashTag(const QString &keyTemplate)
{
    const qsizetype open = keyTemplate.indexOf(QLatin1Char('{'));
    const qsizetype close = open < 0 ? -1 : keyTemplate.indexOf(QLatin1Char('}'), open + 1);
    return close < 0 ? QString() : keyTemplate.mid(open + 1, close - open - 1);
}

// Why a repair template cannot be used, or nullopt (see KeySchema::withRepairTemplates).
std::optional<QString> repairTemplateProblem(const QString &what, const QString &keyTemplate,
                                             const QString &second, const QString &stock,
                                             const QStringList &otherPrefixes)
{
    if (keyTemplate.count(Sku) != 1 || keyTemplate.count(second) != 1)
        return QStringLiteral("the %1 key template must contain <sku> and %2 exactly once each")
            .arg(what, second);
    const qsizetype skuAt = keyTemplate.indexOf(Sku);
    const qsizetype secondAt = keyTemplate.indexOf(second);
    if (secondAt < skuAt || secondAt == skuAt + Sku.size())
        return QStringLiteral("in the %1 key template <sku> must come before %2, with some text "
                              "between them")
            .arg(what, second);
    if (otherPrefixes.contains(keyTemplate.left(skuAt)))
        return QStringLiteral("the %1 key template must start with text of its own before "
                              "<sku> (\"%2\" starts another key family)")
            .arg(what, keyTemplate.left(skuAt));
    const QString tag = templateHashTag(stock);
    if (tag.contains(Sku) && templateHashTag(keyTemplate) != tag)
        return QStringLiteral("the %1 key template must carry the stock key's hash tag {%2}, "
                              "so that both keys of a repair share a cluster slot")
            .arg(what, tag);
    return std::nullopt;
}
} // namespace

QByteArray globEscape(const QByteArray &literal)
{
    QByteArray out;
    out.reserve(literal.size());
    for (char c : literal) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

KeySchema::KeySchema()
    : KeySchema(QString::fromLatin1(DefaultStockTemplate),
                QString::fromLatin1(DefaultReceiptTemplate))
{}

KeySchema::Parts KeySchema::pairParts(const QString &pairTemplate, const QString &second)
{
    const QByteArray t = pairTemplate.toUtf8();
    const QByteArray placeholder = second.toUtf8();
    const qsizetype s = t.indexOf("<sku>");
    const qsizetype o = t.indexOf(placeholder);
    return {t.left(s), t.mid(s + 5, o - s - 5), t.mid(o + placeholder.size())};
}

core::Result<KeySchema, QString>
KeySchema::withRepairTemplates(const QString &releaseTemplate,
                               const QString &adjustmentTemplate) const
{
    const QString receiptPrefix = m_receipt.left(m_receipt.indexOf(Sku));
    const QString releasePrefix = releaseTemplate.left(releaseTemplate.indexOf(Sku));
    if (auto p = repairTemplateProblem(QStringLiteral("release"), releaseTemplate, Order, m_stock,
                                       {receiptPrefix}))
        return core::err(*p);
    if (auto p = repairTemplateProblem(QStringLiteral("adjustment"), adjustmentTemplate,
                                       AdjustmentId, m_stock, {receiptPrefix, releasePrefix}))
        return core::err(*p);
    KeySchema schema = *this;
    schema.m_release = releaseTemplate;
    schema.m_adjustment = adjustmentTemplate;
    schema.m_releaseParts = pairParts(releaseTemplate, Order);
    schema.m_adjustmentParts = pairParts(adjustmentTemplate, AdjustmentId);
    return core::ok(schema);
}

KeySchema::KeySchema(const QString &stockTemplate, const QString &receiptTemplate)
    : m_stock(stockTemplate)
    , m_receipt(receiptTemplate)
    , m_release(QString::fromLatin1(DefaultReleaseTemplate))
    , m_adjustment(QString::fromLatin1(DefaultAdjustmentTemplate))
    , m_releaseParts(pairParts(m_release, Order))
    , m_adjustmentParts(pairParts(m_adjustment, AdjustmentId))
{
    const QByteArray st = stockTemplate.toUtf8();
    const qsizetype s = st.indexOf("<sku>");
    m_stockParts = {st.left(s), {}, st.mid(s + 5)};
    const QByteArray rt = receiptTemplate.toUtf8();
    const qsizetype rs = rt.indexOf("<sku>");
    const qsizetype ro = rt.indexOf("<order>");
    m_receiptParts = {rt.left(rs), rt.mid(rs + 5, ro - rs - 5), rt.mid(ro + 7)};
}

core::Result<KeySchema, QString> KeySchema::fromTemplates(const QString &stockTemplate,
                                                          const QString &receiptTemplate)
{
    if (stockTemplate.count(Sku) != 1 || stockTemplate.contains(Order))
        return QStringLiteral("the stock key template must contain <sku> exactly once and no "
                              "<order> (for example %1)")
            .arg(QLatin1String(DefaultStockTemplate));
    if (receiptTemplate.count(Sku) != 1 || receiptTemplate.count(Order) != 1)
        return QStringLiteral("the receipt key template must contain <sku> and <order> exactly "
                              "once each (for example %1)")
            .arg(QLatin1String(DefaultReceiptTemplate));
    const qsizetype skuAt = receiptTemplate.indexOf(Sku);
    const qsizetype orderAt = receiptTemplate.indexOf(Order);
    if (orderAt < skuAt || orderAt == skuAt + Sku.size())
        return QStringLiteral("in the receipt key template <sku> must come before <order>, "
                              "with some text between them");
    if (stockTemplate == receiptTemplate)
        return QStringLiteral("the stock and receipt templates must differ");
    return KeySchema(stockTemplate, receiptTemplate);
}

std::optional<QString> KeySchema::skuProblem(QByteArrayView sku) const
{
    for (const char brace : {'{', '}'})
        if (sku.contains(brace))
            return QStringLiteral("the SKU contains '%1': a SKU is the hash tag of its keys, and "
                                  "a brace would move the tag's end, so two orders could share "
                                  "one receipt key")
                .arg(QLatin1Char(brace));
    const char separator = m_receiptParts.middle.isEmpty() ? '{' : m_receiptParts.middle.front();
    if (sku.contains(separator))
        return QStringLiteral("the SKU contains '%1', the character that ends a SKU in receipt "
                              "keys (%2), so two orders could share one receipt key")
            .arg(QString(QLatin1Char(separator)), m_receipt);
    return std::nullopt;
}

QByteArray KeySchema::stockKey(const QByteArray &sku) const
{
    return m_stockParts.prefix + sku + m_stockParts.suffix;
}

QByteArray KeySchema::receiptKey(const QByteArray &sku, const QByteArray &orderId) const
{
    return m_receiptParts.prefix + sku + m_receiptParts.middle + orderId + m_receiptParts.suffix;
}

QByteArray KeySchema::releaseKey(const QByteArray &sku, const QByteArray &orderId) const
{
    const Parts &p = m_releaseParts;
    return p.prefix + sku + p.middle + orderId + p.suffix;
}

QByteArray KeySchema::adjustmentKey(const QByteArray &sku, const QByteArray &adjustmentId) const
{
    const Parts &p = m_adjustmentParts;
    return p.prefix + sku + p.middle + adjustmentId + p.suffix;
}

QByteArray KeySchema::stockPattern() const
{
    return globEscape(m_stockParts.prefix) + '*' + globEscape(m_stockParts.suffix);
}

QByteArray KeySchema::receiptPattern() const
{
    return globEscape(m_receiptParts.prefix) + '*' + globEscape(m_receiptParts.middle) + '*'
           + globEscape(m_receiptParts.suffix);
}

QByteArray KeySchema::receiptPatternForSku(const QByteArray &sku) const
{
    return globEscape(m_receiptParts.prefix + sku + m_receiptParts.middle) + '*'
           + globEscape(m_receiptParts.suffix);
}

QByteArray KeySchema::receiptPatternForOrder(const QByteArray &orderId) const
{
    return globEscape(m_receiptParts.prefix) + '*'
           + globEscape(m_receiptParts.middle + orderId + m_receiptParts.suffix);
}

std::optional<QByteArray> KeySchema::skuOfStockKey(const QByteArray &key) const
{
    const Parts &p = m_stockParts;
    if (key.size() <= p.prefix.size() + p.suffix.size() || !key.startsWith(p.prefix)
        || !key.endsWith(p.suffix))
        return std::nullopt;
    return key.mid(p.prefix.size(), key.size() - p.prefix.size() - p.suffix.size());
}

std::optional<KeySchema::ReceiptKey> KeySchema::parseReceiptKey(const QByteArray &key) const
{
    const Parts &p = m_receiptParts;
    if (key.size() <= p.prefix.size() + p.middle.size() + p.suffix.size()
        || !key.startsWith(p.prefix) || !key.endsWith(p.suffix))
        return std::nullopt;
    const QByteArray inner =
        key.mid(p.prefix.size(), key.size() - p.prefix.size() - p.suffix.size());
    // The SKU ends at the first separator: SKUs are hash-tag content and hold no '}'.
    const qsizetype sep = inner.indexOf(p.middle);
    if (sep <= 0 || sep + p.middle.size() >= inner.size())
        return std::nullopt;
    return ReceiptKey{inner.left(sep), inner.mid(sep + p.middle.size())};
}

bool KeySchema::sharesSlot(const QByteArray &sku) const
{
    return redis::keySlot(stockKey(sku)) == redis::keySlot(receiptKey(sku, "0"))
           && redis::keySlot(stockKey(sku)) == redis::keySlot(receiptKey(sku, "order-x"));
}

} // namespace inventory
