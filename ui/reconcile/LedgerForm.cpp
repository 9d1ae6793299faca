// SPDX-License-Identifier: GPL-3.0-or-later
#include "LedgerForm.h"

#include "LedgerPreviewDialog.h"

#include "browse/Glob.h"
#include "reconcile/SavedLedger.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace ui {

namespace {
// Identifiers as both Qt SQL drivers escape them: in double quotes, a quote doubled.
QString identifier(const QString &name)
{
    return QLatin1Char('"') + QString(name).replace(QLatin1Char('"'), QStringLiteral("\"\""))
           + QLatin1Char('"');
}

QLineEdit *lineEdit(const char *name, const QString &placeholder, QWidget *parent)
{
    auto *e = new QLineEdit(parent);
    e->setObjectName(QLatin1String(name));
    e->setPlaceholderText(placeholder);
    e->setClearButtonEnabled(true);
    return e;
}
} // namespace

LedgerForm::LedgerForm(QWidget *parent)
    : QWidget(parent)
{
    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("ledgerKind"));
    m_kind->addItems(
        {tr("CSV or JSON-lines file"), tr("SQLite database file"), tr("PostgreSQL server")});
    m_location = lineEdit("ledgerLocation", {}, this);
    m_browse = new QPushButton(tr("Browse…"), this);
    m_save = new QPushButton(tr("Save in profile"), this);
    m_save->setObjectName(QStringLiteral("saveLedgerInProfile"));
    m_save->setVisible(false);
    m_password = lineEdit("ledgerPassword", tr("typed for this run only; never saved"), this);
    m_password->setEchoMode(QLineEdit::Password);
    m_query = lineEdit("ledgerQuery", tr("empty: the mapped columns of the table"), this);
    m_table = lineEdit("ledgerTable", QStringLiteral("orders"), this);
    m_table->setToolTip(tr("The table whose mapped columns are read when no query is given"));
    m_columns = lineEdit("ledgerColumns", tr("e.g. order_id=id,sku=product,time=created_at"), this);
    m_states = lineEdit("ledgerStates", tr("e.g. paid=committed,refunded=cancelled"), this);
    m_sku = lineEdit("skuGlob", tr("all SKUs (a Redis glob, e.g. sku-1*)"), this);
    m_since = lineEdit("since", tr("from (ISO 8601 with zone)"), this);
    m_until = lineEdit("until", tr("until (exclusive)"), this);
    m_grace = new QSpinBox(this);
    m_grace->setObjectName(QStringLiteral("grace"));
    m_grace->setRange(0, 31536000 / 60);
    m_grace->setValue(int(reconcile::DefaultGraceMs / 60000));
    m_grace->setSuffix(tr(" min"));
    m_grace->setToolTip(tr("How long a receipt the ledger does not have is given before it is "
                           "a release candidate (an export runs behind the orders written)."));
    m_preview = new QLabel(this);
    m_preview->setObjectName(QStringLiteral("queryPreview"));
    // One line: a long query of the user's own is in the Query field and the tooltip whole.
    m_preview->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);

    const auto row = [](std::initializer_list<QWidget *> widgets) {
        auto *box = new QHBoxLayout;
        for (QWidget *w : widgets)
            box->addWidget(w, qobject_cast<QLineEdit *>(w) ? 1 : 0);
        return box;
    };
    m_layout = new QFormLayout(this);
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->addRow(tr("Ledger:"), row({m_kind, m_location, m_browse, m_save}));
    m_layout->addRow(tr("Password:"), m_password);
    m_queryRow = row({m_query, new QLabel(tr("or table:"), this), m_table});
    m_queryRow->setStretch(2, 0);
    m_table->setMaximumWidth(260);
    m_layout->addRow(tr("Query:"), m_queryRow);
    m_previewRows = new QPushButton(tr("Previe&w rows…"), this);
    m_previewRows->setObjectName(QStringLiteral("previewLedgerRows"));
    m_previewRows->setToolTip(
        tr("Read the first rows with this mapping, to check it before a run"));
    m_layout->addRow(tr("Columns:"),
                     row({m_columns, new QLabel(tr("States:"), this), m_states, m_previewRows}));
    m_layout->addRow(tr("SKUs:"), row({m_sku, new QLabel(tr("Window:"), this), m_since, m_until,
                                       new QLabel(tr("Grace:"), this), m_grace}));
    m_layout->addRow(QString(), m_preview);

    connect(m_kind, &QComboBox::currentIndexChanged, this, &LedgerForm::updateKind);
    connect(m_browse, &QPushButton::clicked, this, &LedgerForm::browse);
    connect(m_previewRows, &QPushButton::clicked, this, &LedgerForm::previewRows);
    connect(m_save, &QPushButton::clicked, this, &LedgerForm::saveRequested);
    for (QLineEdit *e :
         {m_location, m_password, m_query, m_table, m_columns, m_states, m_sku, m_since, m_until})
        connect(e, &QLineEdit::textChanged, this, [this] {
            updateKind();
            emit changed();
        });
    updateKind();
}

void LedgerForm::previewRows()
{
    auto *dialog = new LedgerPreviewDialog(request(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void LedgerForm::updateKind()
{
    const int kind = m_kind->currentIndex();
    const bool sql = kind != FileKind;
    m_browse->setVisible(kind != PostgresKind);
    m_layout->setRowVisible(m_password, kind == PostgresKind);
    m_layout->setRowVisible(m_queryRow, sql);
    m_location->setPlaceholderText(
        kind == FileKind     ? tr("/path/to/orders.csv or orders.jsonl (header order_id,sku,"
                                      "quantity,state)")
        : kind == SqliteKind ? tr("/path/to/ledger.db (opened read-only)")
                             : tr("postgresql://user@host:5432/database (read-only session)"));
    const QString query = queryPreview();
    m_preview->setText(sql ? tr("Will run, read-only: %1").arg(query)
                           : tr("Reads the file line by line; a query does not apply."));
    m_preview->setToolTip(m_preview->text());
}

void LedgerForm::browse()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Choose the order ledger"), m_location->text(),
        m_kind->currentIndex() == SqliteKind ? tr("SQLite databases (*.db *.sqlite *.sqlite3);;All "
                                                  "files (*)")
                                             : tr("Ledger exports (*.csv *.jsonl *.ndjson);;All "
                                                  "files (*)"));
    if (!path.isEmpty())
        m_location->setText(path);
}

LedgerForm::Kind LedgerForm::currentKind() const
{
    return Kind(m_kind->currentIndex());
}

void LedgerForm::offerSave(const QString &profileName)
{
    m_save->setVisible(true);
    m_save->setToolTip(tr("Keep this ledger in the profile '%1' (a PostgreSQL password in the "
                          "system keyring, never in a file), for the next session and for "
                          "inventory-cli reconcile --profile")
                           .arg(profileName));
    m_password->setPlaceholderText(tr("kept in the keyring only when saved in the profile"));
}

profiles::LedgerSettings LedgerForm::settings() const
{
    profiles::LedgerSettings s;
    const QString where = m_location->text().trimmed();
    s.source = currentKind() == SqliteKind && !where.isEmpty()
                       && !where.startsWith(QLatin1String("sqlite:"))
                   ? QStringLiteral("sqlite://") + where
                   : where;
    if (currentKind() != FileKind) {
        s.query = m_query->text().trimmed();
        s.table = m_table->text().trimmed();
    }
    s.columns = m_columns->text().trimmed();
    s.states = m_states->text().trimmed();
    return s;
}

void LedgerForm::setSettings(const profiles::LedgerSettings &saved)
{
    setLedger(saved.source.trimmed(), saved.columns);
    m_query->setText(saved.query);
    m_table->setText(saved.table);
    m_states->setText(saved.states);
}

QString LedgerForm::password() const
{
    return m_password->text();
}

void LedgerForm::setPassword(const QString &password)
{
    m_password->setText(password);
}

void LedgerForm::setLedger(const QString &ledger, const QString &columns)
{
    const bool sqlite = ledger.startsWith(QLatin1String("sqlite://"));
    const bool postgres = ledger.startsWith(QLatin1String("postgres"));
    m_kind->setCurrentIndex(sqlite ? SqliteKind : postgres ? PostgresKind : FileKind);
    m_location->setText(sqlite ? ledger.mid(9) : ledger);
    m_columns->setText(columns);
}

QString LedgerForm::queryPreview() const
{
    if (m_kind->currentIndex() == FileKind)
        return {};
    if (!m_query->text().trimmed().isEmpty())
        return m_query->text().trimmed();
    const auto columns = ledger::Columns::parse(m_columns->text().trimmed());
    if (!columns)
        return tr("(the column mapping is not valid: %1)").arg(columns.error().text);
    const ledger::Columns &c = columns.value();
    const ledger::Columns defaults;
    const QString table = m_table->text().trimmed();
    if (table.isEmpty() && c.orderId == defaults.orderId && c.sku == defaults.sku
        && c.quantity == defaults.quantity && c.state == defaults.state && c.time.isEmpty())
        return QStringLiteral("SELECT order_id, sku, quantity, state FROM orders");
    QStringList names{c.orderId, c.sku, c.quantity, c.state};
    if (!c.time.isEmpty())
        names << c.time;
    for (QString &n : names)
        n = identifier(n);
    return QStringLiteral("SELECT %1 FROM %2")
        .arg(names.join(QLatin1String(", ")),
             identifier(table.isEmpty() ? QStringLiteral("orders") : table));
}

core::Result<ReconcileRequest, QString> LedgerForm::request() const
{
    const QString where = m_location->text().trimmed();
    if (where.isEmpty())
        return core::err(tr("Give the ledger: a file, a SQLite database or a PostgreSQL URL."));
    const int kind = m_kind->currentIndex();
    auto spec = reconcile::ledgerSpecOf(settings());
    if (!spec) {
        const reconcile::LedgerSettingsProblem &p = spec.error();
        using Field = reconcile::LedgerSettingsProblem::Field;
        switch (p.field) {
        case Field::Source:
            return core::err(tr("Ledger: %1").arg(p.why.text));
        case Field::Query:
            return core::err(tr("Query: %1").arg(p.why.text));
        case Field::Columns:
            return core::err(tr("Columns: %1").arg(p.why.text));
        case Field::States:
            return core::err(tr("States: %1").arg(p.why.text));
        }
    }
    ReconcileRequest r;
    r.spec = spec.value();
    if ((kind == PostgresKind) != (r.spec.kind == ledger::LedgerSpec::Kind::Postgres))
        return core::err(tr("Ledger: %1 is not a %2").arg(where, m_kind->currentText()));
    if (kind == PostgresKind)
        r.password = m_password->text();
    const QByteArray glob = m_sku->text().trimmed().toUtf8();
    if (const auto problem = browse::globProblem(glob))
        return core::err(tr("SKUs: %1").arg(*problem));
    r.scope.skuGlob = glob;
    for (const auto &[edit, out] :
         {std::pair{m_since, &r.scope.sinceMs}, std::pair{m_until, &r.scope.untilMs}}) {
        const QString text = edit->text().trimmed();
        if (text.isEmpty())
            continue;
        const auto t = ledger::parseLedgerTime(text.toUtf8());
        if (!t)
            return core::err(tr("Window: %1 is not a time; give ISO 8601 with a zone "
                                "(2026-12-03T10:00:00Z) or seconds since 1970")
                                 .arg(text));
        *out = *t;
    }
    if (r.scope.hasWindow() && r.spec.columns.time.isEmpty())
        return core::err(tr("Window: a time window needs the ledger's time column; map it "
                            "under Columns (time=COLUMN)"));
    r.scope.graceMs = qint64(m_grace->value()) * 60000;
    return r;
}

} // namespace ui
