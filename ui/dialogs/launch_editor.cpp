#include "ui/dialogs/launch_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <set>

#include "core/plan/api_key_source.h"
#include "ui/workspace/lane_json.h"

namespace lb::ui {
namespace {

enum EnvColumn { NameColumn = 0, ValueColumn = 1, SecretColumn = 2 };
constexpr char kReferenceProperty[] = "keyringReference";

QDoubleSpinBox* seconds_box(double value, double max, QWidget* parent) {
  auto* box = new QDoubleSpinBox(parent);
  box->setRange(0, max);
  box->setDecimals(1);
  box->setSuffix(" s");
  box->setValue(value);
  return box;
}

QPushButton* small_button(const QString& text, QWidget* parent) {
  auto* b = new QPushButton(text, parent);
  b->setAutoDefault(false);
  return b;
}

}  // namespace

LaunchEditor::LaunchEditor(const plan::Lane& lane, QWidget* parent)
    : QGroupBox(tr("Launch this lane's server (managed lane)"), parent), original_(lane.launch) {
  setCheckable(true);
  setChecked(lane.launch.has_value());
  setObjectName("launchEditor");
  const plan::LaunchSpec spec = lane.launch.value_or(plan::LaunchSpec{});
  ready_url_ = new QLineEdit(QString::fromStdString(spec.ready_url), this);
  ready_url_->setObjectName("readyUrl");
  ready_url_->setPlaceholderText(tr("http://127.0.0.1:{port}/health"));
  timeout_ = seconds_box(spec.ready_timeout_s, 86'400, this);
  timeout_->setObjectName("readyTimeout");
  signal_ = new QComboBox(this);
  signal_->setObjectName("stopSignal");
  signal_->addItems({"SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2"});
  signal_->setCurrentText(QString::fromStdString(spec.stop_signal));
  grace_ = seconds_box(spec.stop_grace_s, 3'600, this);
  grace_->setObjectName("stopGrace");
  log_ =
      new QCheckBox(tr("Keep the server's output as servers/<lane>.log in the run folder"), this);
  log_->setChecked(spec.log);
  auto* ready_row = new QHBoxLayout;
  ready_row->addWidget(ready_url_, 1);
  ready_row->addWidget(new QLabel(tr("within"), this));
  ready_row->addWidget(timeout_);
  auto* stop_row = new QHBoxLayout;
  stop_row->addWidget(signal_);
  stop_row->addWidget(new QLabel(tr("then SIGKILL to its process group after"), this));
  stop_row->addWidget(grace_);
  stop_row->addStretch(1);
  auto* form = new QFormLayout(this);
  form->addRow(tr("&Command:"), build_command());
  form->addRow(tr("E&nvironment:"), build_env());
  // Rows holding a layout get labels with buddies, so their shortcuts work and show right.
  auto* ready_label = new QLabel(tr("&Ready when 200 from:"), this);
  ready_label->setBuddy(ready_url_);
  auto* stop_label = new QLabel(tr("Sto&p with:"), this);
  stop_label->setBuddy(signal_);
  form->addRow(ready_label, ready_row);
  form->addRow(stop_label, stop_row);
  form->addRow(QString(), log_);
  auto* hint = new QLabel(
      tr("{port} in the command, env values, ready URL or endpoint stands for a free loopback "
         "port picked when the server starts."),
      this);
  hint->setWordWrap(true);
  form->addRow(QString(), hint);
  QStringList args;
  for (const auto& a : spec.command) args << QString::fromStdString(a);
  set_arguments(args);
  for (const auto& [name, value] : spec.env)
    add_env_row(QString::fromStdString(name), QString::fromStdString(value),
                plan::is_launch_env_keyring_reference(value) || plan::is_secret_env_name(name));
}

QWidget* LaunchEditor::build_command() {
  auto* box = new QWidget(this);
  args_ = new QListWidget(box);
  args_->setObjectName("launchArguments");
  args_->setAccessibleName(tr("Server command, one argument per row"));
  args_->setToolTip(
      tr("The program, then one argument per row. It runs without a shell: no quoting, "
         "$VARIABLES or &&. Empty rows are left out."));
  args_->setMinimumHeight(110);
  auto* add = small_button(tr("Add"), box);
  auto* remove = small_button(tr("Remove"), box);
  auto* up = small_button(tr("Up"), box);
  auto* down = small_button(tr("Down"), box);
  connect(add, &QPushButton::clicked, this, [this] {
    auto* item = new QListWidgetItem(QString(), args_);
    item->setFlags(item->flags() | Qt::ItemIsEditable);
    args_->setCurrentItem(item);
    args_->editItem(item);
  });
  connect(remove, &QPushButton::clicked, this, [this] { delete args_->currentItem(); });
  connect(up, &QPushButton::clicked, this, [this] { move_argument(-1); });
  connect(down, &QPushButton::clicked, this, [this] { move_argument(1); });
  auto* buttons = new QVBoxLayout;
  for (auto* b : {add, remove, up, down}) buttons->addWidget(b);
  buttons->addStretch(1);
  auto* layout = new QHBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(args_, 1);
  layout->addLayout(buttons);
  return box;
}

QWidget* LaunchEditor::build_env() {
  auto* box = new QWidget(this);
  env_ = new QTableWidget(0, 3, box);
  env_->setObjectName("launchEnv");
  env_->setHorizontalHeaderLabels({tr("Name"), tr("Value"), tr("Secret")});
  // The names sit in line edits, which ResizeToContents does not measure: sized for a long
  // name, so HF_TOKEN does not show as "TOKEN".
  env_->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Interactive);
  env_->setColumnWidth(NameColumn, fontMetrics().horizontalAdvance("HUGGING_FACE_HUB_TOKEN") + 24);
  env_->horizontalHeader()->setSectionResizeMode(ValueColumn, QHeaderView::Stretch);
  env_->horizontalHeader()->setSectionResizeMode(SecretColumn, QHeaderView::ResizeToContents);
  env_->verticalHeader()->hide();
  env_->setMinimumHeight(90);
  env_->setToolTip(
      tr("Added to LaneBench's environment for the server. A secret's value is kept in the OS "
         "keyring, never in the workspace or the run folder; names ending in _KEY, _TOKEN, "
         "_SECRET or _PASSWORD are always secret."));
  auto* add = small_button(tr("Add"), box);
  auto* remove = small_button(tr("Remove"), box);
  connect(add, &QPushButton::clicked, this, [this] { add_env_row({}, {}, false); });
  connect(remove, &QPushButton::clicked, this, [this] {
    if (env_->currentRow() >= 0) env_->removeRow(env_->currentRow());
  });
  auto* buttons = new QVBoxLayout;
  buttons->addWidget(add);
  buttons->addWidget(remove);
  buttons->addStretch(1);
  auto* layout = new QHBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(env_, 1);
  layout->addLayout(buttons);
  return box;
}

void LaunchEditor::set_arguments(const QStringList& args) {
  args_->clear();
  for (const QString& a : args) {
    auto* item = new QListWidgetItem(a, args_);
    item->setFlags(item->flags() | Qt::ItemIsEditable);
  }
}

void LaunchEditor::add_env_row(const QString& name, const QString& value, bool secret) {
  const int row = env_->rowCount();
  env_->insertRow(row);
  auto* name_edit = new QLineEdit(name, env_);
  name_edit->setPlaceholderText(tr("NAME"));
  name_edit->setCursorPosition(0);  // the start of a long name, not its end
  auto* value_edit = new QLineEdit(env_);
  auto* secret_box = new QCheckBox(env_);
  secret_box->setToolTip(tr("Keep the value in the OS keyring, never on disk"));
  if (plan::is_launch_env_keyring_reference(value.toStdString())) {
    value_edit->setProperty(kReferenceProperty, value);
    value_edit->setPlaceholderText(tr("stored in the OS keyring; type to replace"));
  } else {
    value_edit->setText(value);
  }
  auto apply = [name_edit, value_edit, secret_box] {
    const bool forced = plan::is_secret_env_name(name_edit->text().trimmed().toStdString());
    if (forced) secret_box->setChecked(true);
    secret_box->setEnabled(!forced);
    value_edit->setEchoMode(secret_box->isChecked() ? QLineEdit::Password : QLineEdit::Normal);
  };
  secret_box->setChecked(secret);
  connect(name_edit, &QLineEdit::textChanged, this, apply);
  connect(secret_box, &QCheckBox::toggled, this, apply);
  apply();
  env_->setCellWidget(row, NameColumn, name_edit);
  env_->setCellWidget(row, ValueColumn, value_edit);
  env_->setCellWidget(row, SecretColumn, secret_box);
}

void LaunchEditor::move_argument(int by) {
  const int from = args_->currentRow();
  const int to = from + by;
  if (from < 0 || to < 0 || to >= args_->count()) return;
  QListWidgetItem* item = args_->takeItem(from);
  args_->insertItem(to, item);
  args_->setCurrentRow(to);
}

bool LaunchEditor::row_is_secret(int row) const {
  return static_cast<QCheckBox*>(env_->cellWidget(row, SecretColumn))->isChecked();
}

std::optional<plan::LaunchSpec> LaunchEditor::launch(const std::string& lane_id) const {
  if (!isChecked()) return std::nullopt;
  plan::LaunchSpec spec;
  for (int i = 0; i < args_->count(); ++i)
    if (!args_->item(i)->text().isEmpty())
      spec.command.push_back(args_->item(i)->text().toStdString());
  for (int row = 0; row < env_->rowCount(); ++row) {
    const auto* name_edit = static_cast<QLineEdit*>(env_->cellWidget(row, NameColumn));
    const auto* value_edit = static_cast<QLineEdit*>(env_->cellWidget(row, ValueColumn));
    const std::string name = name_edit->text().trimmed().toStdString();
    const bool stored = !value_edit->property(kReferenceProperty).toString().isEmpty();
    if (name.empty() && value_edit->text().isEmpty()) continue;
    if (!row_is_secret(row))
      spec.env[name] = value_edit->text().toStdString();
    else if (!value_edit->text().isEmpty() || stored)
      spec.env[name] = plan::launch_env_keyring_reference(lane_id, name);
    else
      spec.env[name] = "";
  }
  spec.ready_url = ready_url_->text().trimmed().toStdString();
  spec.ready_timeout_s = timeout_->value();
  spec.stop_signal = signal_->currentText().toStdString();
  spec.stop_grace_s = grace_->value();
  spec.log = log_->isChecked();
  return spec;
}

std::map<std::string, std::string> LaunchEditor::typed_secrets() const {
  std::map<std::string, std::string> out;
  if (!isChecked()) return out;
  for (int row = 0; row < env_->rowCount(); ++row) {
    const auto* name_edit = static_cast<QLineEdit*>(env_->cellWidget(row, NameColumn));
    const auto* value_edit = static_cast<QLineEdit*>(env_->cellWidget(row, ValueColumn));
    if (row_is_secret(row) && !value_edit->text().isEmpty())
      out[name_edit->text().trimmed().toStdString()] = value_edit->text().toStdString();
  }
  return out;
}

QString LaunchEditor::validate(const plan::Lane& lane) const {
  nlohmann::json j = {{"id", lane.id}, {"base_url", lane.base_url}};
  const auto spec = launch(lane.id);
  if (spec) j["launch"] = plan::launch_json(*spec, plan::SecretEnvValues::KeyringReferencesOnly);
  std::set<std::string> names;
  for (int row = 0; row < env_->rowCount() && spec; ++row) {
    const auto* name_edit = static_cast<QLineEdit*>(env_->cellWidget(row, NameColumn));
    const auto* value_edit = static_cast<QLineEdit*>(env_->cellWidget(row, ValueColumn));
    const std::string name = name_edit->text().trimmed().toStdString();
    if (name.empty() && value_edit->text().isEmpty()) continue;  // left out, as in launch()
    if (!names.insert(name).second)
      return tr("launch.env: %1 is set twice").arg(QString::fromStdString(name));
    if (row_is_secret(row) && spec->env.at(name).empty())
      return tr("launch.env.%1: type the value to keep in the OS keyring")
          .arg(QString::fromStdString(name));
  }
  plan::Lane copy = lane;
  const auto errors = plan::read_lane_launch(j, copy);
  if (errors.empty()) return {};
  return QString::fromStdString(errors.front().path + ": " + errors.front().message);
}

}  // namespace lb::ui
