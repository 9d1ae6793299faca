// SPDX-License-Identifier: GPL-3.0-or-later
#include "LibrariesView.h"

#include "LoadWizard.h"
#include "NodeMatrixView.h"
#include "RollbackDialog.h"
#include "ui/common/LuaCodeView.h"
#include "ui/common/NoticeBanner.h"
#include "ui/common/Palette.h"
#include "ui/common/TextStyle.h"

#include "functions/AlignNodes.h"

#include "functions/FunctionBackup.h"
#include "functions/InspectInBackground.h"
#include "functions/LibraryVersion.h"

#include <QDateTime>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ui {

namespace {

enum Column { Name, Version, Flags, Description, Sha, LocalFile, ColumnCount };
constexpr int LibraryRole = Qt::UserRole;
constexpr int LineRole = Qt::UserRole + 1;
const char *const DirectoriesKey = "functions/localDirectories";

QStringList savedDirectories()
{
    return QSettings().value(QLatin1String(DirectoriesKey)).toStringList();
}

} // namespace

LibrariesView::LibrariesView(functions::ChangeContext context, QWidget *parent)
    : QWidget(parent)
    , m_context(std::move(context))
    , m_matrix(new NodeMatrixView(this))
    , m_catalog(QStringList{functions::LocalCatalog::shippedDirectory()} + savedDirectories())
    , m_title(new QLabel(this))
    , m_banner(new NoticeBanner(NoticeBanner::Kind::Info, this))
    , m_preview(new QPushButton(tr("Preview upgrade…"), this))
    , m_tree(new QTreeWidget(this))
    , m_codeTitle(new QLabel(this))
    , m_code(new LuaCodeView(this))
    , m_footer(new QLabel(this))
    , m_delete(new QPushButton(tr("Delete…"), this))
{
    setHeading(m_title);
    m_title->setObjectName(QStringLiteral("librariesTitle"));
    auto *refresh = new QPushButton(tr("Refresh"), this);
    auto *load = new QPushButton(tr("Load file…"), this);
    auto *rollback = new QPushButton(tr("Roll back…"), this);
    auto *folder = new QPushButton(tr("Compare with folder…"), this);
    load->setToolTip(tr("Preview and load a library file behind the guards"));
    rollback->setToolTip(tr("Put back the state saved in a backup file"));
    folder->setToolTip(tr("Also match loaded libraries against the files of another folder"));
    connect(refresh, &QPushButton::clicked, this, &LibrariesView::refresh);
    connect(load, &QPushButton::clicked, this, &LibrariesView::chooseFile);
    connect(rollback, &QPushButton::clicked, this, &LibrariesView::chooseBackup);
    connect(m_delete, &QPushButton::clicked, this, &LibrariesView::chooseDelete);
    connect(folder, &QPushButton::clicked, this, &LibrariesView::addDirectory);
    connect(m_preview, &QPushButton::clicked, this,
            [this] { startLoadInBackground(m_upgradeFile); });
    auto *toolbar = new QHBoxLayout;
    toolbar->addWidget(m_title, 1);
    for (QPushButton *b : {refresh, load, rollback, m_delete, folder})
        toolbar->addWidget(b);

    auto *bannerRow = new QHBoxLayout;
    bannerRow->addWidget(m_banner, 1);
    bannerRow->addWidget(m_preview);
    m_preview->hide();

    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Library / function"), tr("Version"), tr("Functions / flags"),
                             tr("Description"), tr("SHA-256"), tr("Local file")});
    m_tree->setAlternatingRowColors(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setAccessibleName(tr("Loaded function libraries"));
    connect(m_tree, &QTreeWidget::itemSelectionChanged, this, &LibrariesView::onSelection);

    auto *codePane = new QWidget(this);
    auto *codeLayout = new QVBoxLayout(codePane);
    codeLayout->setContentsMargins(0, 0, 0, 0);
    m_codeTitle->setWordWrap(true);
    codeLayout->addWidget(m_codeTitle);
    codeLayout->addWidget(m_code, 1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_matrix);
    split->addWidget(m_tree);
    split->addWidget(codePane);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 2);
    m_matrix->hide();
    connect(m_matrix, &NodeMatrixView::alignRequested, this, &LibrariesView::startAlign);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(toolbar);
    layout->addLayout(bannerRow);
    layout->addWidget(split, 1);
    // The replication group's note names addresses and replication ids: unwrapped, one such
    // line made the window wider than a 1366-pixel screen.
    m_footer->setWordWrap(true);
    layout->addWidget(m_footer);
    m_title->setText(
        tr("Function libraries on %1")
            .arg(m_context.nodes.isEmpty() ? tr("(no server)") : m_context.nodes.first().address));
    m_catalog.scan();
}

LibrariesView::LibrariesView(functions::ChangeContext context, redis::ClusterRouter &router,
                             std::optional<redis::ConnectionOptions> release, QWidget *parent)
    : LibrariesView(std::move(context), parent)
{
    m_router = &router;
    m_clusterNodes = std::make_unique<functions::ClusterNodes>(router, std::move(release));
    // The topology comes after the router opened, and changes with failovers: read again.
    // The router reads the topology again every 30 s: only a change of nodes or roles reads
    // the libraries again (a refresh would drop the cell the user selected).
    connect(&router, &redis::ClusterRouter::topologyChanged, this, [this] {
        if (onCluster() && nodesSignature() != m_nodesSeen)
            refresh();
    });
}

LibrariesView::~LibrariesView() = default;

bool LibrariesView::onCluster() const
{
    return m_router && m_router->isCluster();
}

void LibrariesView::setLocalDirectories(const QStringList &directories)
{
    QSettings().setValue(QLatin1String(DirectoriesKey), directories);
    m_catalog = functions::LocalCatalog(QStringList{functions::LocalCatalog::shippedDirectory()}
                                        + directories);
    m_catalog.scan();
    refresh();
}

QStringList LibrariesView::localDirectories() const
{
    return m_catalog.directories().mid(1);
}

void LibrariesView::setReplicaSource(functions::StandaloneGroup::ReplicaSource source)
{
    if (m_clusterNodes)
        m_clusterNodes->setReplicaSource(std::move(source));
}

void LibrariesView::refresh()
{
    if (onCluster())
        return refreshMatrix();
    // A standalone session's connection may have been aimed at another server since (Sentinel
    // named a new primary): its libraries are said to be that server's.
    if (!m_context.nodes.isEmpty() && m_context.nodes.first().reader)
        m_context.nodes.first().address = m_context.nodes.first().reader->address();
    if (!m_clusterNodes)
        return refreshServer();
    // A standalone server's replication group (functions::StandaloneGroup) belongs in the
    // matrix.
    const quint64 generation = ++m_generation;
    setTextColour(m_footer, QColor());
    m_footer->setText(tr("Reading the replication group (INFO replication)…"));
    m_clusterNodes->standaloneGroup().read(this, [this, generation](const QString &why) {
        if (generation != m_generation)
            return; // a newer refresh is on its way
        m_groupNote = why;
        if (m_clusterNodes->matrixNodes().size() > 1)
            refreshMatrix();
        else
            refreshServer();
    });
}

void LibrariesView::refreshServer()
{
    m_matrix->hide();
    if (m_context.nodes.isEmpty() || !m_context.nodes.first().reader)
        return showError(tr("No connection."));
    m_title->setText(tr("Function libraries on %1").arg(m_context.nodes.first().address));
    const quint64 generation = ++m_generation;
    m_footer->setText(tr("Reading FUNCTION LIST WITHCODE…"));
    // As the release user when there is one, like every step of a change: the session user
    // may be allowed to call functions and nothing more.
    m_context.nodes.first().loadVia().send(
        {"FUNCTION", "LIST", "WITHCODE"}, this,
        [this, generation](const redis::ReplyResult &r) {
            if (generation != m_generation)
                return; // a newer refresh is on its way
            if (!r.ok())
                return showError(tr("FUNCTION LIST as user '%1' failed: %2")
                                     .arg(m_context.loadUser, r.error().message.text));
            auto libs = redis::decodeFunctionList(r.value());
            if (!libs)
                return showError(libs.error().text);
            display(libs.value());
        },
        m_context.timeoutMs);
}

QString LibrariesView::nodesSignature() const
{
    QStringList parts;
    for (const redis::ClusterNode &n : m_router->topology().nodes())
        parts << n.address() + (n.primary ? QStringLiteral("/p") : QStringLiteral("/r"));
    return parts.join(QLatin1Char(' '));
}

void LibrariesView::refreshMatrix()
{
    const QList<functions::MatrixNode> nodes = m_clusterNodes->matrixNodes();
    if (onCluster()) {
        m_nodesSeen = nodesSignature();
        // FUNCTION LOAD is not propagated between shards: a change goes to every primary, and
        // every node is read for the matrix.
        m_context.nodes = m_clusterNodes->primaries();
        int primaries = 0;
        for (const functions::MatrixNode &n : nodes)
            primaries += n.primary ? 1 : 0;
        m_title->setText(tr("Function libraries on the cluster of %1 (%2 primaries, %3 replicas)")
                             .arg(m_router->address())
                             .arg(primaries)
                             .arg(nodes.size() - primaries));
    } else if (nodes.first().address == m_router->seed().address()) {
        m_title->setText(
            nodes.size() == 2
                ? tr("Function libraries on %1 and its replica").arg(nodes.first().address)
                : tr("Function libraries on %1 and its %2 replicas")
                      .arg(nodes.first().address)
                      .arg(nodes.size() - 1));
    } else {
        m_title->setText(tr("Function libraries on %1, a replica of %2")
                             .arg(m_router->seed().address(), nodes.first().address));
    }
    const quint64 generation = ++m_generation;
    m_footer->setText(tr("Reading FUNCTION LIST WITHCODE on %1 nodes…").arg(nodes.size()));
    functions::readLibraryMatrix(nodes, this, m_context.timeoutMs,
                                 [this, generation](const functions::LibraryMatrix &matrix) {
                                     if (generation != m_generation)
                                         return; // a newer refresh is on its way
                                     m_matrix->setMatrix(matrix, m_groupNote);
                                     m_matrix->show();
                                     // Each library once, as most nodes hold it; the matrix shows
                                     // who differs.
                                     QList<redis::LibraryInfo> libs;
                                     for (const QString &name : matrix.libraries())
                                         libs << *matrix.reference(name);
                                     display(libs);
                                 });
}

void LibrariesView::showError(const QString &message)
{
    m_footer->setText(message);
    setTextColour(m_footer, Palette::error());
    emit refreshed();
}

void LibrariesView::display(const QList<redis::LibraryInfo> &libraries)
{
    const QString selected = selectedLibrary();
    m_status = functions::libraryStatuses(libraries, m_catalog);
    m_tree->clear();
    QStringList differs;
    m_upgradeFile.clear();
    QTreeWidgetItem *reselect = nullptr;
    for (const functions::LibraryStatus &s : m_status) {
        auto *lib = new QTreeWidgetItem(m_tree);
        lib->setText(Name, s.library.name);
        lib->setText(Version, functions::versionLabel(s.version));
        lib->setText(Flags, s.library.functions.size() == 1
                                ? tr("1 function")
                                : tr("%1 functions").arg(s.library.functions.size()));
        lib->setText(Sha, functions::shortFingerprint(s.fingerprint));
        lib->setToolTip(Sha, QString::fromLatin1(s.fingerprint));
        lib->setText(LocalFile, s.match.text());
        lib->setToolTip(LocalFile, s.match.text());
        lib->setData(Name, LibraryRole, s.library.name);
        QFont bold = lib->font(Name);
        bold.setBold(true);
        lib->setFont(Name, bold);
        if (s.match.kind == functions::LibraryMatch::Kind::Differs) {
            lib->setForeground(LocalFile, Palette::warning());
            differs << tr("%1: loaded %2, local file %3 (%4) differs.")
                           .arg(s.library.name, functions::versionLabel(s.version),
                                functions::versionLabel(s.match.fileVersion),
                                functions::displayPath(s.match.path, core::Wording::Translated));
            if (m_upgradeFile.isEmpty() && !m_catalog.filesFor(s.library.name).isEmpty())
                m_upgradeFile = m_catalog.filesFor(s.library.name).first()->path;
        }
        addFunctionRows(lib, s.library);
        lib->setExpanded(true);
        if (s.library.name == selected || (!reselect && selected.isEmpty()))
            reselect = lib;
    }
    fitColumns();
    m_banner->setNotice(differs.join(QLatin1Char('\n')));
    m_preview->setVisible(!m_upgradeFile.isEmpty());
    setTextColour(m_footer, QColor());
    const QString count =
        m_status.size() == 1 ? tr("1 library") : tr("%1 libraries").arg(m_status.size());
    m_footer->setText(
        tr("%1 on %2, read %3. Compared with: %4")
            .arg(count,
                 !m_matrix->isHidden() ? tr("%1 nodes").arg(m_matrix->matrix().nodes().size())
                                       : m_context.nodes.first().address,
                 QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss")),
                 QStringList(QStringList{tr("the shipped functions/")} + localDirectories())
                     .join(QStringLiteral(", ")))
        // With the matrix shown, its summary says it.
        + (m_groupNote.isEmpty() || !m_matrix->isHidden()
               ? QString()
               : QStringLiteral(". %1%2").arg(m_groupNote.left(1).toUpper(), m_groupNote.mid(1))));
    if (reselect)
        m_tree->setCurrentItem(reselect);
    else
        onSelection();
    emit refreshed();
}

void LibrariesView::addFunctionRows(QTreeWidgetItem *lib, const redis::LibraryInfo &library)
{
    // Where each function is registered, to show it in the code.
    const functions::Inspection inspected = functions::inspectLibrary(library.code);
    for (const redis::FunctionInfo &f : library.functions) {
        auto *fn = new QTreeWidgetItem(lib);
        fn->setText(Name, f.name);
        fn->setText(Flags, f.flags.isEmpty() ? tr("(no flags)") : f.flags.join(", "));
        fn->setText(Description, f.description.value_or(tr("(no description)")));
        fn->setToolTip(Description, f.description.value_or(tr("(no description)")));
        if (!f.description) {
            QFont italic = fn->font(Description);
            italic.setItalic(true);
            fn->setFont(Description, italic);
            fn->setForeground(Description, Palette::muted());
        }
        fn->setData(Name, LibraryRole, library.name);
        if (const functions::InspectedFunction *i = inspected.function(f.name))
            fn->setData(Name, LineRole, i->firstLine > 0 ? i->firstLine : i->line);
    }
}

void LibrariesView::fitColumns()
{
    for (int c = 0; c < ColumnCount; ++c)
        m_tree->resizeColumnToContents(c);
    // The description gives way first (it is elided, whole in its tooltip): the local file's
    // verdict, at the right edge, is what a release manager reads.
    int others = 0;
    for (int c = 0; c < ColumnCount; ++c)
        others += c == Description ? 0 : m_tree->columnWidth(c);
    const int room = m_tree->viewport()->width() - others;
    m_tree->setColumnWidth(Description,
                           qMax(200, qMin(room, qMin(m_tree->columnWidth(Description), 560))));
}

QString LibrariesView::selectedLibrary() const
{
    const QTreeWidgetItem *item = m_tree->currentItem();
    return item ? item->data(Name, LibraryRole).toString() : QString();
}

void LibrariesView::onSelection()
{
    const QString name = selectedLibrary();
    m_delete->setEnabled(!name.isEmpty());
    const auto it =
        std::find_if(m_status.begin(), m_status.end(),
                     [&](const functions::LibraryStatus &s) { return s.library.name == name; });
    if (it == m_status.end()) {
        m_codeTitle->setText(tr("Select a library to see its code."));
        m_code->setCode(QString());
        return;
    }
    m_codeTitle->setText(tr("Code of %1 as loaded (read-only): %2, %3 lines, sha256 %4")
                             .arg(name, functions::versionLabel(it->version))
                             .arg(it->library.code.count('\n'))
                             .arg(QString::fromLatin1(it->fingerprint)));
    if (m_code->text() != QString::fromUtf8(it->library.code))
        m_code->setCode(QString::fromUtf8(it->library.code));
    if (const QVariant line = m_tree->currentItem()->data(Name, LineRole); line.isValid())
        m_code->scrollToRow(line.toInt() - 1);
}

LoadWizard *LibrariesView::open(const functions::ChangeSpec &spec, const QStringList &firstNodes)
{
    // The nodes to change come first: the diff the wizard shows is against the first node.
    functions::ChangeContext context = m_context;
    std::stable_partition(
        context.nodes.begin(), context.nodes.end(),
        [&](const functions::ChangeTarget &t) { return firstNodes.contains(t.address); });
    auto *wizard = new LoadWizard(context, spec, this);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    connect(wizard, &LoadWizard::changeFinished, this, &LibrariesView::refresh);
    wizard->open();
    return wizard;
}

LoadWizard *LibrariesView::startLoad(const QString &path)
{
    return openInspected(path, functions::inspectFile(path));
}

void LibrariesView::startLoadInBackground(const QString &path)
{
    // A hostile file can take the inspector's whole wall-clock limit: keep painting, and
    // take no second action until it is done.
    setEnabled(false);
    functions::inspectFileInBackground(path, this, [this, path](const auto &inspected) {
        setEnabled(true);
        openInspected(path, inspected);
        emit loadInspected();
    });
}

LoadWizard *LibrariesView::openInspected(const QString &path,
                                         const functions::InspectedFile &inspected)
{
    if (!inspected) {
        QMessageBox::warning(this, tr("Load library"), inspected.error().text);
        return nullptr;
    }
    if (!inspected->ok()) {
        // A refused file is never sent: say why, with the line, and stop here.
        const functions::InspectionProblem &problem = *inspected->problem;
        const QString why =
            problem.kind == functions::InspectionProblem::Kind::NotInspected
                ? tr("%1 could not be inspected offline, so it is not loaded. This says nothing "
                     "about the code: try again when the machine is less busy.\n\n%2")
                : tr("%1 cannot be loaded, Redis would refuse it:\n\n%2");
        QMessageBox::warning(this, tr("Load library"), why.arg(path, problem.sentence().text));
        return nullptr;
    }
    return open(functions::LibraryChange::loadSpec(*inspected));
}

LoadWizard *LibrariesView::startRollback(const QString &backupPath,
                                         std::optional<functions::RestorePolicy> policy)
{
    const auto backup = functions::FunctionBackup::read(backupPath);
    if (!backup) {
        QMessageBox::warning(this, tr("Roll back"), backup.error().text);
        return nullptr;
    }
    return open(policy ? functions::LibraryChange::restoreSpec(*backup, *policy)
                       : functions::LibraryChange::rollbackSpec(*backup));
}

LoadWizard *LibrariesView::startDelete(const QString &library)
{
    return open(functions::LibraryChange::deleteSpec(library));
}

LoadWizard *LibrariesView::startAlign(const QString &from, const QString &library)
{
    const functions::LibraryMatrix &matrix = m_matrix->matrix();
    const auto spec = functions::alignSpec(matrix, from, library);
    if (!spec) {
        QMessageBox::warning(this, tr("Bring nodes in line"), spec.error());
        return nullptr;
    }
    return open(*spec, functions::primariesToAlign(matrix, from, library));
}

void LibrariesView::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Load a library file"), QString(),
                                                      tr("Lua libraries (*.lua);;All files (*)"));
    if (!path.isEmpty())
        startLoadInBackground(path);
}

void LibrariesView::chooseBackup()
{
    QStringList nodes;
    for (const functions::ChangeTarget &t : m_context.nodes)
        nodes << t.address;
    RollbackDialog dialog(m_context.backupDirectory, selectedLibrary(), nodes, this);
    if (dialog.exec() != QDialog::Accepted || dialog.backupPath().isEmpty())
        return;
    startRollback(dialog.backupPath(), dialog.policy());
}

void LibrariesView::chooseDelete()
{
    if (!selectedLibrary().isEmpty())
        startDelete(selectedLibrary());
}

void LibrariesView::addDirectory()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Compare with the library "
                                                                   "files of a folder"));
    if (!dir.isEmpty() && !localDirectories().contains(dir))
        setLocalDirectories(localDirectories() << dir);
}

} // namespace ui
