#include "AuditViewerPanel.h"

#include "OutcomeStyle.h"
#include "core/Bytes.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace ui {

using namespace inventory;

namespace {
// Unknown outcomes are the records someone has to follow up: they stand out. An attempt with
// no outcome record is one of them, tinted as well: the console stopped before the reply.
class AuditColorProxy : public QIdentityProxyModel
{
public:
    using QIdentityProxyModel::QIdentityProxyModel;
    QVariant data(const QModelIndex &index, int role) const override
    {
        const auto flag = [&](AuditTableModel::Role r) {
            return QIdentityProxyModel::data(index, r).toBool();
        };
        if (role == Qt::ForegroundRole && flag(AuditTableModel::OutcomeUnknownRole))
            return outcomeColor(OutcomeKind::Unknown);
        if (role == Qt::BackgroundRole && flag(AuditTableModel::NoOutcomeRecordedRole))
            return outcomeTint(OutcomeKind::Unknown);
        return QIdentityProxyModel::data(index, role);
    }
};
constexpr int MaxColumnWidth = 340; // long results and commands: the tooltip and pane show all
} // namespace

AuditViewerPanel::AuditViewerPanel(const QString &auditLogPath, QWidget *parent)
    : QWidget(parent)
    , m_path(auditLogPath)
{
    m_model = new AuditTableModel(this);
    m_action = new QComboBox(this);
    m_action->setObjectName(QStringLiteral("actionFilter"));
    m_action->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_text = new QLineEdit(this);
    m_text->setObjectName(QStringLiteral("textFilter"));
    m_text->setPlaceholderText(tr("Filter: key, order, result, profile, server, user…"));
    m_text->setClearButtonEnabled(true);
    m_unknownOnly = new QCheckBox(tr("Outcome unknown only"), this);
    m_unknownOnly->setObjectName(QStringLiteral("unknownOnly"));
    auto *reloadButton = new QPushButton(tr("Reload"), this);
    auto *csv = new QPushButton(tr("Export CSV…"), this);
    auto *jsonl = new QPushButton(tr("Export JSON lines…"), this);

    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Action"), this));
    bar->addWidget(m_action);
    bar->addWidget(m_text, 1);
    bar->addWidget(m_unknownOnly);
    bar->addWidget(reloadButton);
    bar->addWidget(csv);
    bar->addWidget(jsonl);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("auditStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problems = new QLabel(this);
    m_problems->setObjectName(QStringLiteral("auditProblems"));
    m_problems->setTextFormat(Qt::PlainText);
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(QStringLiteral(
        "background: #fff4e5; color: #8a4b00; padding: 6px; border: 1px solid #a86200;"));
    m_problems->hide();

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("auditTable"));
    auto *proxy = new AuditColorProxy(this);
    proxy->setSourceModel(m_model);
    m_table->setModel(proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_detail = new QPlainTextEdit(this);
    m_detail->setObjectName(QStringLiteral("auditDetail"));
    m_detail->setReadOnly(true);
    m_detail->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_detail->setPlaceholderText(tr("Select a record to see its whole command and result."));
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_status);
    layout->addWidget(m_problems);
    layout->addWidget(split, 1);

    connect(m_action, &QComboBox::currentIndexChanged, this, &AuditViewerPanel::applyFilter);
    connect(m_text, &QLineEdit::textChanged, this, &AuditViewerPanel::applyFilter);
    connect(m_unknownOnly, &QCheckBox::toggled, this, &AuditViewerPanel::applyFilter);
    connect(reloadButton, &QPushButton::clicked, this, &AuditViewerPanel::reload);
    connect(csv, &QPushButton::clicked, this, [this] { exportInteractively(Format::Csv); });
    connect(jsonl, &QPushButton::clicked, this, [this] { exportInteractively(Format::JsonLines); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &AuditViewerPanel::showSelected);
    reload();
}

void AuditViewerPanel::setAuditLogPath(const QString &path)
{
    m_path = path;
    reload();
}

void AuditViewerPanel::reload()
{
    AuditLog::ReadResult read = AuditLog::read(m_path);
    m_model->setRecords(read.records);
    if (read.problems.isEmpty()) {
        m_problems->hide();
    } else {
        const int shown = 5;
        QStringList lines = read.problems.mid(0, shown);
        if (read.problems.size() > shown)
            lines << tr("… and %1 more").arg(read.problems.size() - shown);
        m_problems->setText(tr("%n line(s) of the audit log could not be read and were skipped "
                               "(a truncated last line usually means the machine lost power "
                               "while writing):",
                               nullptr, int(read.problems.size()))
                            + QLatin1Char('\n') + lines.join(QLatin1Char('\n')));
        m_problems->show();
    }
    // Keep the chosen action if it still exists.
    const QString current = m_action->currentData().toString();
    {
        const QSignalBlocker block(m_action);
        m_action->clear();
        m_action->addItem(tr("All actions"), QString());
        for (const QString &a : m_model->actions())
            m_action->addItem(a, a);
        m_action->setCurrentIndex(std::max(0, m_action->findData(current)));
    }
    applyFilter();
    m_table->resizeColumnsToContents();
    for (int c = 0; c < AuditTableModel::ColumnCount; ++c)
        m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), MaxColumnWidth));
}

void AuditViewerPanel::applyFilter()
{
    AuditFilter f;
    f.action = m_action->currentData().toString();
    f.text = m_text->text();
    f.unknownOnly = m_unknownOnly->isChecked();
    m_model->setFilter(f);
    QString status =
        tr("%1 of %2 writes shown").arg(m_model->rowCount()).arg(m_model->totalCount());
    if (const int lone = m_model->noOutcomeCount())
        status += tr("  ·  %n with no outcome recorded (the console stopped before the reply)",
                     nullptr, lone);
    m_status->setText(status + QStringLiteral("  ·  ") + m_path);
    m_detail->clear();
}

void AuditViewerPanel::showSelected()
{
    const AuditRecord *r = m_model->recordAt(m_table->currentIndex().row());
    if (!r) {
        m_detail->clear();
        return;
    }
    QStringList lines{
        tr("time (UTC)  %1").arg(r->timeUtc.toUTC().toString(Qt::ISODateWithMs)),
        tr("action      %1").arg(r->action),
        tr("result      %1%2")
            .arg(r->result, r->outcomeUnknown ? tr("  [OUTCOME UNKNOWN]") : QString())};
    // An attempt with no outcome (after pairAttempts): say what that means before the rest.
    if (r->phase == AuditRecord::Phase::Attempt)
        lines << tr("attempt     %1: written before sending, no outcome followed. Check the "
                    "key, receipt or library before retrying.")
                     .arg(r->attemptId);
    lines << tr("profile     %1   server %2   run_id %3").arg(r->profile, r->server, r->runId)
          << tr("os user     %1   duration %2")
                 .arg(r->osUser,
                      r->durationMs < 0 ? tr("not known") : tr("%1 ms").arg(r->durationMs))
          << tr("command     %1").arg(commandText(r->command));
    if (!r->detail.isEmpty())
        lines << tr("detail      %1").arg(r->detail);
    if (r->phase == AuditRecord::Phase::Outcome)
        lines << tr("attempt     %1 (written before sending, paired with this outcome)")
                     .arg(r->attemptId);
    m_detail->setPlainText(lines.join(QLatin1Char('\n')));
}

QString AuditViewerPanel::problemsText() const
{
    return m_problems->isHidden() ? QString() : m_problems->text();
}

core::Result<int, QString> AuditViewerPanel::exportTo(const QString &path, Format format) const
{
    const QList<AuditRecord> records = m_model->visibleRecords();
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return tr("cannot write %1: %2").arg(path, f.errorString());
    f.write(format == Format::Csv ? auditToCsv(records) : auditToJsonLines(records));
    if (!f.commit())
        return tr("cannot write %1: %2").arg(path, f.errorString());
    return int(records.size());
}

void AuditViewerPanel::exportInteractively(Format format)
{
    const bool csv = format == Format::Csv;
    const QString path = QFileDialog::getSaveFileName(
        this, csv ? tr("Export audit records as CSV") : tr("Export audit records as JSON lines"),
        csv ? QStringLiteral("audit.csv") : QStringLiteral("audit.jsonl"),
        csv ? tr("CSV (*.csv)") : tr("JSON lines (*.jsonl)"));
    if (path.isEmpty())
        return;
    const auto written = exportTo(path, format);
    if (!written.ok())
        QMessageBox::warning(this, tr("Export failed"), written.error());
    else
        m_status->setText(tr("Exported %1 records to %2").arg(written.value()).arg(path));
}

} // namespace ui
