// SPDX-License-Identifier: GPL-3.0-or-later
#include "KeySchema.h"

#include "redis/Slot.h"

#include <QCoreApplication>
#include <QStringList>

namespace inventory {

namespace {
// The template problems are shown in the window's language and printed in English by the CLI
// (which installs no translator); a SKU's problem is kept in both copies (FieldProblem).
struct KeySchemaText
{
    Q_DECLARE_TR_FUNCTIONS(inventory::KeySchema)
};

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
std::optional<QString> repairTemplateProblem(bool release, const QString &keyTemplate,
                                             const QString &stock, const QStringList &otherPrefixes)
{
    const QString &second = release ? Order : AdjustmentId;
    if (keyTemplate.count(Sku) != 1 || keyTemplate.count(second) != 1)
        return release ? KeySchemaText::tr("the release key template must contain <sku> and "
                                           "<order> exactly once each")
                       : KeySchemaText::tr("the adjustment key template must contain <sku> and "
                                           "<id> exactly once each");
    const qsizetype skuAt = keyTemplate.indexOf(Sku);
    const qsizetype secondAt = keyTemplate.indexOf(second);
    if (secondAt < skuAt || secondAt == skuAt + Sku.size())
        return release ? KeySchemaText::tr("in the release key template <sku> must come before "
                                           "<order>, with some text between them")
                       : KeySchemaText::tr("in the adjustment key template <sku> must come "
                                           "before <id>, with some text between them");
    if (otherPrefixes.contains(keyTemplate.left(skuAt)))
        return (release ? KeySchemaText::tr("the release key template must start with text of "
                                            "its own before <sku> (\"%1\" starts another key "
                                            "family)")
                        : KeySchemaText::tr("the adjustment key template must start with text "
                                            "of its own before <sku> (\"%1\" starts another "
                                            "key family)"))
            .arg(keyTemplate.left(skuAt));
    const QString tag = templateHashTag(stock);
    if (tag.contains(Sku) && templateHashTag(keyTemplate) != tag)
        return (release ? KeySchemaText::tr("the release key template must carry the stock "
                                            "key's hash tag {%1}, so that both keys of a "
                                            "repair share a cluster slot")
                        : KeySchemaText::tr("the adjustment key template must carry the stock "
                                            "key's hash tag {%1}, so that both keys of a "
                                            "repair share a cluster slot"))
            .arg(tag);
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
    if (auto p = repairTemplateProblem(true, releaseTemplate, m_stock, {receiptPrefix}))
        return core::err(*p);
    if (auto p = repairTemplateProblem(false, adjustmentTemplate, m_stock,
                                       {receiptPrefix, releasePrefix}))
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
        return KeySchemaText::tr("the stock key template must contain <sku> exactly once and "
                                 "no <order> (for example %1)")
            .arg(QLatin1String(DefaultStockTemplate));
    if (receiptTemplate.count(Sku) != 1 || receiptTemplate.count(Order) != 1)
        return KeySchemaText::tr("the receipt key template must contain <sku> and <order> "
                                 "exactly once each (for example %1)")
            .arg(QLatin1String(DefaultReceiptTemplate));
    const qsizetype skuAt = receiptTemplate.indexOf(Sku);
    const qsizetype orderAt = receiptTemplate.indexOf(Order);
    if (orderAt < skuAt || orderAt == skuAt + Sku.size())
        return KeySchemaText::tr("in the receipt key template <sku> must come before <order>, "
                                 "with some text between them");
    if (stockTemplate == receiptTemplate)
        return KeySchemaText::tr("the stock and receipt templates must differ");
    return KeySchema(stockTemplate, receiptTemplate);
}

std::optional<core::Sentence> KeySchema::skuProblem(QByteArrayView sku) const
{
    for (const char brace : {'{', '}'})
        if (sku.contains(brace))
            return core::Sentence::translated(
                       "inventory::KeySchema",
                       QT_TRANSLATE_NOOP("inventory::KeySchema",
                                         "the SKU contains '%1': a SKU is the hash tag of its "
                                         "keys, and a brace would move the tag's end, so two "
                                         "orders could share one receipt key"))
                .arg(QString(QLatin1Char(brace)));
    const char separator = m_receiptParts.middle.isEmpty() ? '{' : m_receiptParts.middle.front();
    if (sku.contains(separator))
        return core::Sentence::translated(
                   "inventory::KeySchema",
                   QT_TRANSLATE_NOOP("inventory::KeySchema",
                                     "the SKU contains '%1', the character that ends a SKU in "
                                     "receipt keys (%2), so two orders could share one receipt "
                                     "key"))
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
