// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"
#include "core/Wording.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <optional>

namespace inventory {

// Where a site keeps stock and receipts. Templates use the placeholders <sku> and <order>;
// the default puts the SKU in a hash tag so both keys of one deduction share a cluster slot.
class KeySchema
{
public:
    static constexpr auto DefaultStockTemplate = "stock:{<sku>}:available";
    static constexpr auto DefaultReceiptTemplate = "idem:{<sku>}:<order>";
    // The repair records (issue 32): a release of an order's deduction, and a manual
    // adjustment under its id. They carry the stock key's hash tag, so that every key of one
    // repair lives in one cluster slot.
    static constexpr auto DefaultReleaseTemplate = "rel:{<sku>}:<order>";
    static constexpr auto DefaultAdjustmentTemplate = "adj:{<sku>}:<id>";

    KeySchema(); // the defaults
    // Validates: the stock template has <sku> once and no <order>; the receipt template has
    // <sku> and <order> once each, <sku> first, with literal text between them.
    static core::Result<KeySchema, QString> fromTemplates(const QString &stockTemplate,
                                                          const QString &receiptTemplate);

    // This schema with the repair templates: the release template has <sku> and <order>, the
    // adjustment template <sku> and <id>, once each, <sku> first, with literal text between;
    // each starts with its own text before <sku> (unlike the receipt template's, so that no
    // scan of receipts takes a repair record for one); and where the stock template has a
    // hash tag holding <sku>, each has the same one.
    core::Result<KeySchema, QString> withRepairTemplates(const QString &releaseTemplate,
                                                         const QString &adjustmentTemplate) const;

    QString stockTemplate() const { return m_stock; }
    QString receiptTemplate() const { return m_receipt; }
    QString releaseTemplate() const { return m_release; }
    QString adjustmentTemplate() const { return m_adjustment; }

    // Why `sku` cannot name keys in this schema, or nullopt. Keys must name one (SKU, order)
    // pair each. A SKU is the hash tag of its keys: a '{' or '}' in it moves the tag's
    // boundary, and "a}:b" with order "c" would share idem:{a}:b}:c with "a" and "b}:c". Nor
    // may it hold the character that starts the text between <sku> and <order> in the
    // receipt template, or where the SKU ends in a receipt key would be ambiguous.
    std::optional<core::Sentence> skuProblem(QByteArrayView sku) const;

    QByteArray stockKey(const QByteArray &sku) const;
    QByteArray receiptKey(const QByteArray &sku, const QByteArray &orderId) const;
    QByteArray releaseKey(const QByteArray &sku, const QByteArray &orderId) const;
    QByteArray adjustmentKey(const QByteArray &sku, const QByteArray &adjustmentId) const;

    // SCAN MATCH patterns for each family (literal parts glob-escaped).
    QByteArray stockPattern() const;
    QByteArray receiptPattern() const;
    // Receipts of one SKU / of one order across SKUs.
    QByteArray receiptPatternForSku(const QByteArray &sku) const;
    QByteArray receiptPatternForOrder(const QByteArray &orderId) const;

    std::optional<QByteArray> skuOfStockKey(const QByteArray &key) const;
    struct ReceiptKey
    {
        QByteArray sku;
        QByteArray orderId;
    };
    std::optional<ReceiptKey> parseReceiptKey(const QByteArray &key) const;

    // True when stock and receipt keys of any SKU land in the same cluster slot.
    bool sharesSlot(const QByteArray &sku) const;

private:
    KeySchema(const QString &stockTemplate, const QString &receiptTemplate);
    struct Parts
    {
        QByteArray prefix, middle, suffix; // around the placeholders
    };
    // The parts of a template with <sku> and a second placeholder (<order>, <id>).
    static Parts pairParts(const QString &pairTemplate, const QString &second);
    QString m_stock, m_receipt, m_release, m_adjustment;
    Parts m_stockParts, m_receiptParts, m_releaseParts, m_adjustmentParts;
};

// Escapes glob metacharacters (* ? [ ] \) for SCAN MATCH.
QByteArray globEscape(const QByteArray &literal);

} // namespace inventory
