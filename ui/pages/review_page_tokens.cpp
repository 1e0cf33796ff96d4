// ReviewPage: the token evidence of the selected pair (strips under each lane's text, top-K table,
// header, cause filter).
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTableWidget>
#include <QVBoxLayout>
#include <tuple>

#include "ui/pages/review_page.h"
#include "ui/review/token_strip.h"
#include "widgets/diff/diff_view.h"

namespace lb::ui {
namespace {

QScrollArea* scrolled(TokenStrip* strip, QWidget* parent) {
  auto* area = new QScrollArea(parent);
  area->setWidget(strip);
  area->setWidgetResizable(true);
  area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  area->setFrameShape(QFrame::NoFrame);  // the first token starts where the text does
  area->setMinimumHeight(60);
  area->setMaximumHeight(110);
  return area;
}

QString token_cell(const std::string& bytes) {
  QString t = QString::fromUtf8(bytes);
  t.replace('\n', QStringLiteral("↵"));
  return "\"" + t + "\"";
}

}  // namespace

QWidget* ReviewPage::build_token_panel(QWidget* parent) {
  auto* panel = new QWidget(parent);
  token_header_ = new QLabel(panel);
  token_header_->setWordWrap(true);
  token_header_->setTextFormat(Qt::RichText);
  token_header_->setAccessibleName(tr("Token evidence of the pair"));
  strip_a_ = new TokenStrip(panel);
  strip_b_ = new TokenStrip(panel);
  strip_label_a_ = new QLabel(panel);
  strip_label_b_ = new QLabel(panel);
  // Each strip sits inside its lane's pane, under the text and aligned with it.
  for (auto [label, strip, side] :
       {std::tuple{strip_label_a_, strip_a_, widgets::DiffView::Side::Left},
        std::tuple{strip_label_b_, strip_b_, widgets::DiffView::Side::Right}}) {
    auto* column = new QWidget(panel);
    auto* column_layout = new QVBoxLayout(column);
    column_layout->setContentsMargins(0, 2, 0, 0);
    column_layout->setSpacing(2);
    column_layout->addWidget(label);
    column_layout->addWidget(scrolled(strip, column));
    diff_->set_pane_footer(side, column);
    connect(strip, &TokenStrip::token_clicked, this, &ReviewPage::show_top_k);
  }
  auto* legend = new QLabel(
      tr("<span style='color:gray'>Shading: <span style='background:%1'>&nbsp;sure (p≈1)&nbsp;"
         "</span> <span style='background:%2'>&nbsp;p 0.5&nbsp;</span> "
         "<span style='background:%3'>&nbsp;p 0.1&nbsp;</span> "
         "<span style='background:%4'>&nbsp;no logprob&nbsp;</span> · red frame: first "
         "divergent token · click a token for both lanes' top-K there</span>")
          .arg(TokenStrip::shade_for(0).name(), TokenStrip::shade_for(std::log(0.5)).name(),
               TokenStrip::shade_for(std::log(0.1)).name(),
               TokenStrip::shade_for(std::nan("")).name()),
      panel);
  legend->setWordWrap(true);
  top_k_title_ = new QLabel(panel);
  top_k_ = new QTableWidget(0, 5, panel);
  top_k_->setHorizontalHeaderLabels(
      {tr("Rank"), tr("Baseline token"), tr("Logprob"), tr("Candidate token"), tr("Logprob")});
  top_k_->verticalHeader()->hide();
  top_k_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  top_k_->setFocusPolicy(Qt::NoFocus);  // j/k stay with the pair table
  top_k_->setMinimumHeight(120);
  top_k_->setMaximumHeight(190);
  top_k_->setAccessibleName(tr("Top-K at the clicked token"));
  top_k_->hide();
  top_k_title_->hide();
  auto* layout = new QVBoxLayout(panel);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(token_header_);
  layout->addWidget(legend);
  layout->addWidget(top_k_title_);
  layout->addWidget(top_k_);
  return panel;
}

void ReviewPage::refill_causes() {
  const QString current = cause_->currentData().toString();
  cause_->clear();
  cause_->addItem(tr("All causes"), QString());
  for (const QString& c : model_.causes()) cause_->addItem(QString(c).replace('_', ' '), c);
  const int keep = cause_->findData(current);
  cause_->setCurrentIndex(std::max(0, keep));
  if (keep < 0) proxy_.set_cause({});
  cause_->setEnabled(cause_->count() > 1);
}

void ReviewPage::show_tokens(int prompt_index) {
  shown_prompt_ = prompt_index;
  top_k_->hide();
  top_k_title_->hide();
  strip_label_a_->setText(tr("<b>%1</b> tokens").arg(pair_ ? pair_->lane_a.toHtmlEscaped() : ""));
  strip_label_b_->setText(tr("<b>%1</b> tokens").arg(pair_ ? pair_->lane_b.toHtmlEscaped() : ""));
  const PromptTokens* t = pair_ ? pair_->tokens.at(static_cast<size_t>(prompt_index)) : nullptr;
  if (!t) {
    strip_a_->clear_tokens();
    strip_b_->clear_tokens();
    token_header_->setText(QString("<span style='color:gray'>%1</span>")
                               .arg(pair_ ? pair_->tokens.note.toHtmlEscaped() : QString()));
    return;
  }
  strip_a_->set_tokens(t->a.tokens, t->token_index);
  strip_b_->set_tokens(t->b.tokens, t->token_index);
  QString html = tr("<b>Cause:</b> %1").arg(QString(t->cause).replace('_', ' ').toHtmlEscaped());
  if (t->token_index >= 0) html += tr(" at token %1").arg(t->token_index);
  if (!std::isnan(t->margin_nats))
    html += tr(" · baseline margin %1 nats (near-tie at ≤ %2)")
                .arg(t->margin_nats, 0, 'f', 3)
                .arg(pair_->tokens.near_tie_margin_nats);
  if (!t->cross_scores.isEmpty())
    html += "<br><b>Cross-scores:</b> " + t->cross_scores.toHtmlEscaped();
  html += QString("<br><span style='color:gray'>%1 (%2)</span>")
              .arg(t->reason.toHtmlEscaped(), pair_->tokens.source.toHtmlEscaped());
  token_header_->setText(html);
  if (t->token_index >= 0 &&
      t->token_index < std::max(strip_a_->token_count(), strip_b_->token_count()))
    show_top_k(static_cast<int>(t->token_index));
}

void ReviewPage::show_top_k(int token_index) {
  const PromptTokens* t = pair_ ? pair_->tokens.at(static_cast<size_t>(shown_prompt_)) : nullptr;
  if (!t || token_index < 0) return;
  strip_a_->set_selected(token_index);
  strip_b_->set_selected(token_index);
  const auto at =
      [token_index](const logprobs::PromptLogprobs& p) -> const logprobs::TokenLogprob* {
    return static_cast<size_t>(token_index) < p.tokens.size()
               ? &p.tokens[static_cast<size_t>(token_index)]
               : nullptr;
  };
  const logprobs::TokenLogprob* a = at(t->a);
  const logprobs::TokenLogprob* b = at(t->b);
  const size_t rows = std::max(a ? a->top.size() : 0, b ? b->top.size() : 0);
  top_k_->setRowCount(static_cast<int>(rows));
  for (size_t r = 0; r < rows; ++r) {
    top_k_->setItem(static_cast<int>(r), 0, new QTableWidgetItem(QString::number(r + 1)));
    int column = 1;
    for (const logprobs::TokenLogprob* side : {a, b}) {
      const bool has = side && r < side->top.size();
      auto* token = new QTableWidgetItem(has ? token_cell(side->top[r].token) : QString("–"));
      auto* lp = new QTableWidgetItem(has ? QString::number(side->top[r].logprob, 'f', 4) : "–");
      if (has && side->top[r].token == side->token) {  // the token this lane chose
        QFont bold = token->font();
        bold.setBold(true);
        token->setFont(bold);
        lp->setFont(bold);
      }
      if (has) lp->setBackground(TokenStrip::shade_for(side->top[r].logprob));
      top_k_->setItem(static_cast<int>(r), column++, token);
      top_k_->setItem(static_cast<int>(r), column++, lp);
    }
  }
  top_k_->resizeColumnsToContents();
  top_k_title_->setText(
      tr("<b>Top-%1 at token %2</b> — chosen tokens in bold: %3 chose %4, %5 chose %6")
          .arg(rows)
          .arg(token_index)
          .arg(pair_->lane_a.toHtmlEscaped(),
               a ? token_cell(a->token).toHtmlEscaped() : tr("nothing"),
               pair_->lane_b.toHtmlEscaped(),
               b ? token_cell(b->token).toHtmlEscaped() : tr("nothing")));
  top_k_title_->show();
  top_k_->show();
}

}  // namespace lb::ui
