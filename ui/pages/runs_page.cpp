#include "ui/pages/runs_page.h"

#include <QDesktopServices>
#include <QDir>
#include <QEvent>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>

#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include "core/record/merged_from.h"

#include "ui/history/effects_view.h"
#include "ui/history/stored_charts.h"
#include "ui/pages/page_parts.h"
#include "ui/workspace/run_folder_scanner.h"
#include "ui/workspace/workspace.h"

namespace lb::ui {
namespace {

const char* kBannerStyle =
    "QLabel { background: #fff4d6; border: 1px solid #e0b84c; border-radius: 4px; padding: 6px; "
    "color: #5a4300; }";

}  // namespace

RunsPage::RunsPage(Workspace& workspace, std::shared_ptr<widgets::LanePalette> palette,
                   QWidget* parent)
    : QWidget(parent), workspace_(workspace), palette_(std::move(palette)) {
  auto* heading =
      make_page_heading(tr("<h2>Runs</h2><p>Every run leaves a folder with its plan, "
                           "requests, outputs, summary, review and decision. Open one "
                           "(Return) to see its charts again, review it and decide.</p>"),
                        this);
  table_ = make_row_table(&model_, tr("Runs"), this);
  connect(table_, &QTableView::doubleClicked, this, &RunsPage::open_current);
  table_->viewport()->installEventFilter(this);
  // The last column stretches with the viewport by itself: only the others are the user's.
  connect(table_->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int column) {
    if (!fitting_ && column + 1 < model_.columnCount()) user_sized_ = true;
  });
  auto* enter = new QShortcut(QKeySequence(Qt::Key_Return), table_);
  enter->setContext(Qt::WidgetShortcut);
  connect(enter, &QShortcut::activated, this, &RunsPage::open_current);
  empty_ = new QLabel(tr("No runs yet: start one on the Run page."), this);
  empty_->setStyleSheet("color: gray");
  auto* open = new QPushButton(tr("&Open"), this);
  auto* reveal = new QPushButton(tr("Show &Folder"), this);
  auto* refresh = new QPushButton(tr("&Refresh"), this);
  refresh->setShortcut(QKeySequence::Refresh);
  connect(open, &QPushButton::clicked, this, &RunsPage::open_current);
  connect(refresh, &QPushButton::clicked, this, &RunsPage::refresh);
  connect(reveal, &QPushButton::clicked, this, [this] {
    const models::RunFolderInfo* run = model_.run_at(table_->currentIndex().row());
    QDesktopServices::openUrl(QUrl::fromLocalFile(run ? run->path : workspace_.runs_dir()));
  });
  connect(&loader_, &RunFolderJob::loaded, this, &RunsPage::on_loaded);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(open);
  buttons->addWidget(reveal);
  buttons->addStretch();
  buttons->addWidget(refresh);
  auto* list = new QWidget(this);
  auto* list_layout = new QVBoxLayout(list);
  list_layout->setContentsMargins(0, 0, 0, 0);
  list_layout->addWidget(heading);
  list_layout->addLayout(buttons);
  list_layout->addWidget(table_, 1);
  list_layout->addWidget(empty_);
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(list);
  splitter->addWidget(build_detail());
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 3);
  splitter->setSizes({260, 640});
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(splitter);
}

QWidget* RunsPage::build_detail() {
  auto* detail = new QWidget(this);
  detail_title_ = new QLabel(tr("Open a run to see its charts here."), detail);
  detail_title_->setStyleSheet("color: gray");
  banner_ = new QLabel(detail);
  banner_->setWordWrap(true);
  banner_->setStyleSheet(kBannerStyle);
  banner_->hide();
  shards_ = new QLabel(detail);
  shards_->setWordWrap(true);
  shards_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  shards_->hide();
  views_ = new QTabWidget(detail);
  charts_ = new StoredCharts(palette_, views_);
  effects_ = new EffectsView(views_);
  views_->addTab(charts_, tr("&Charts"));
  views_->addTab(effects_, tr("&Effects"));
  auto* layout = new QVBoxLayout(detail);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(detail_title_);
  layout->addWidget(shards_);
  layout->addWidget(banner_);
  layout->addWidget(views_, 1);
  return detail;
}

void RunsPage::show_effects() { views_->setCurrentWidget(effects_); }

QString RunsPage::banner_text() const { return banner_->isHidden() ? QString() : banner_->text(); }

QString RunsPage::shards_text() const { return shards_->isHidden() ? QString() : shards_->text(); }

void RunsPage::refresh() {
  const int generation = ++scan_generation_;
  const QString dir = workspace_.runs_dir();
  using Scan = std::vector<models::RunFolderInfo>;
  auto* watcher = new QFutureWatcher<Scan>(this);
  connect(watcher, &QFutureWatcher<Scan>::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (generation == scan_generation_) show_runs(watcher->result());
  });
  watcher->setFuture(QtConcurrent::run([dir] { return scan_runs(dir); }));
}

void RunsPage::show_runs(std::vector<models::RunFolderInfo> runs) {
  model_.set_runs(std::move(runs));
  // Each column's contents and title (the last column's width is what it stretched to).
  const QAbstractItemView* view = table_;
  content_widths_.clear();
  for (int c = 0; c < model_.columnCount(); ++c)
    content_widths_.push_back(
        std::max(view->sizeHintForColumn(c), table_->horizontalHeader()->sectionSizeHint(c)));
  user_sized_ = false;
  fit_columns();
  empty_->setVisible(model_.rowCount() == 0);
  if (!select_run(opened_)) table_->selectRow(0);
  emit refreshed();
}

void RunsPage::fit_columns() {
  if (user_sized_) return;
  fitting_ = true;
  fit_columns_now();
  fitting_ = false;
}

void RunsPage::fit_columns_now() {
  constexpr int kLeastPx = 160;
  int over = -table_->viewport()->width();
  for (size_t c = 0; c < content_widths_.size(); ++c) {
    table_->setColumnWidth(static_cast<int>(c), content_widths_[c]);
    over += content_widths_[c];
  }
  for (int c : {int(models::RunHistoryModel::Experiments), int(models::RunHistoryModel::Name)}) {
    if (over <= 0 || static_cast<size_t>(c) >= content_widths_.size()) break;
    const int width = content_widths_[static_cast<size_t>(c)];
    const int cut = std::min(over, std::max(0, width - kLeastPx));
    table_->setColumnWidth(c, width - cut);
    over -= cut;
  }
}

bool RunsPage::eventFilter(QObject* watched, QEvent* event) {
  if (watched == table_->viewport() && event->type() == QEvent::Resize) fit_columns();
  return QWidget::eventFilter(watched, event);
}

bool RunsPage::select_run(const QString& run_dir) {
  if (run_dir.isEmpty()) return false;
  for (int row = 0; row < model_.rowCount(); ++row) {
    const models::RunFolderInfo* run = model_.run_at(row);
    if (run && QDir(run->path) == QDir(run_dir)) {
      table_->selectRow(row);
      return true;
    }
  }
  return false;
}

void RunsPage::open_current() {
  const models::RunFolderInfo* run = model_.run_at(table_->currentIndex().row());
  if (!run) return;
  open_run(run->path);
  emit open_requested(run->path);
}

void RunsPage::open_run(const QString& run_dir) {
  opened_ = run_dir;
  select_run(run_dir);  // the table shows which run the charts are of
  detail_title_->setText(tr("Loading %1 …").arg(QDir(run_dir).dirName()));
  loader_.load(run_dir);
}

// A merged run (docs/fleet.md): each shard's lanes, host and clock offset; a partial merge's
// missing shards are a warning.
void RunsPage::show_shards(const report::RunFolder& folder, QStringList& notes) {
  const auto merged = record::merged_from(folder.record);
  shards_->setVisible(merged.has_value());
  if (!merged) return;
  QStringList shards;
  for (const record::ShardOrigin& s : merged->shards)
    shards << QString::fromStdString(record::describe(s)).toHtmlEscaped();
  shards_->setText(
      merged->shards.size() == 1
          ? tr("Merged from 1 shard: %1").arg(shards.join(" · "))
          : tr("Merged from %1 shards: %2").arg(merged->shards.size()).arg(shards.join(" · ")));
  if (!merged->partial()) return;
  QStringList missing;
  for (int64_t i : merged->missing) missing << QString::number(i);
  notes << tr("Partial run: shard(s) %1 of %2 are missing or did not finish; their lanes are "
              "absent from every chart and table.")
               .arg(missing.join(", "))
               .arg(merged->of);
}

void RunsPage::on_loaded(std::shared_ptr<const LoadedRun> run) {
  if (!run->folder) {
    current_.reset();
    charts_->clear();
    effects_->show_charts({});
    banner_->hide();
    shards_->hide();
    detail_title_->setText(tr("Cannot open the run: %1").arg(run->error));
    emit status(tr("Cannot open the run: %1").arg(run->error));
    return;
  }
  current_ = run;
  const report::RunFolder& folder = *run->folder;
  charts_->show_run(run->series);
  effects_->show_charts(run->effects);
  views_->setTabText(
      1, run->effects.empty() ? tr("&Effects") : tr("&Effects (%1)").arg(run->effects.size()));
  detail_title_->setText(tr("<b>%1</b> — %2 requests%3")
                             .arg(QDir(run->dir).dirName().toHtmlEscaped())
                             .arg(folder.request_count)
                             .arg(folder.complete ? QString() : tr(" — incomplete")));
  detail_title_->setStyleSheet(QString());
  QStringList notes = run->damage;
  if (!folder.complete)
    notes << tr("Incomplete run: it was stopped or killed before it finished. Every finished "
                "request it kept (%1) is charted%2.")
                 .arg(folder.request_count)
                 .arg(folder.torn_lines > 0
                          ? tr("; %1 request line cut short by the interruption was skipped")
                                .arg(folder.torn_lines)
                          : QString());
  show_shards(folder, notes);
  banner_->setVisible(!notes.isEmpty());
  banner_->setText(notes.join("\n"));
  emit status(
      tr("Opened %1%2").arg(run->dir).arg(folder.complete ? QString() : tr(" (incomplete)")));
  emit run_loaded(run);
}

}  // namespace lb::ui
