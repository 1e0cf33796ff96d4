#include "ui/dialogs/lane_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <string>
#include <vector>

#include "core/plan/api_key_source.h"
#include "ui/dialogs/launch_editor.h"
#include "ui/keyring/secret_store.h"
#include "ui/workspace/lane_json.h"

namespace lb::ui {
namespace {

QComboBox* editable_combo(const QStringList& items, const std::string& current, QWidget* parent) {
  auto* combo = new QComboBox(parent);
  combo->setEditable(true);
  combo->addItems(items);
  combo->setCurrentText(QString::fromStdString(current));
  return combo;
}

}  // namespace

LaneDialog::LaneDialog(const plan::Lane& lane, QStringList taken_ids, QString workspace_id,
                       QWidget* parent)
    : QDialog(parent),
      original_(lane),
      taken_ids_(std::move(taken_ids)),
      workspace_id_(std::move(workspace_id)) {
  setWindowTitle(lane.id.empty() ? tr("Add Lane")
                                 : tr("Edit Lane %1").arg(QString::fromStdString(lane.id)));
  id_ = new QLineEdit(QString::fromStdString(lane.id), this);
  id_->setObjectName("laneId");
  id_->setPlaceholderText(tr("e.g. fp8"));
  url_ = new QLineEdit(QString::fromStdString(lane.base_url), this);
  url_->setPlaceholderText(tr("http://127.0.0.1:8000/v1  or  sim:fp8"));
  url_->setToolTip(
      tr("An OpenAI-compatible base URL, or sim:PROFILE for a built-in simulator lane "
         "(profiles: bf16, fp8, fp8-mtp3, fp8-nocache, fp8-bf16kv)"));
  model_ = new QLineEdit(QString::fromStdString(lane.model), this);
  model_->setPlaceholderText(tr("auto (first model of /v1/models)"));
  build_key_fields(lane);
  weights_ = editable_combo({"", "bf16", "fp16", "fp8", "int8", "int4"}, lane.notes.weights, this);
  kv_ = editable_combo({"", "bf16", "fp16", "fp8"}, lane.notes.kv_cache, this);
  spec_ = editable_combo({"", "none", "mtp:1", "mtp:3", "eagle", "ngram"}, lane.notes.spec, this);
  prefix_ = new QComboBox(this);
  prefix_->addItems({tr("unknown"), tr("on"), tr("off")});
  prefix_->setCurrentIndex(!lane.notes.prefix_caching ? 0 : *lane.notes.prefix_caching ? 1 : 2);
  engine_ = new QLineEdit(QString::fromStdString(lane.notes.engine_version), this);
  engine_->setPlaceholderText(tr("e.g. vLLM 0.11.0"));
  notes_ = new QLineEdit(QString::fromStdString(lane.notes.text), this);
  error_ = new QLabel(this);
  error_->setStyleSheet("color: #b00020");
  error_->setWordWrap(true);

  auto* form = new QFormLayout;
  form->addRow(tr("&Lane id:"), id_);
  form->addRow(tr("&Endpoint:"), url_);
  form->addRow(tr("&Model:"), model_);
  form->addRow(tr("API &key:"), key_source_);
  key_env_label_ = new QLabel(tr("Key &variable:"), this);
  key_env_label_->setBuddy(key_env_);
  form->addRow(key_env_label_, key_env_);
  key_secret_label_ = new QLabel(tr("Key (&stored in OS keyring):"), this);
  key_secret_label_->setBuddy(key_secret_);
  form->addRow(key_secret_label_, key_secret_);
  show_key_source(key_source_->currentIndex());
  form->addRow(tr("&Weights:"), weights_);
  form->addRow(tr("K&V cache:"), kv_);
  form->addRow(tr("&Speculative decoding:"), spec_);
  form->addRow(tr("&Prefix caching:"), prefix_);
  form->addRow(tr("E&ngine version:"), engine_);
  form->addRow(tr("N&otes:"), notes_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons_ = buttons;
  connect(buttons, &QDialogButtonBox::accepted, this, &LaneDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &LaneDialog::reject);
  auto* lane_page = new QWidget(this);
  lane_page->setLayout(form);
  launch_ = new LaunchEditor(lane, this);
  tabs_ = new QTabWidget(this);
  tabs_->addTab(lane_page, tr("&Lane"));
  tabs_->addTab(launch_, tr("La&unch"));
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(tabs_);
  layout->addWidget(error_);
  layout->addWidget(buttons);
  setMinimumWidth(640);
}

plan::Lane LaneDialog::lane() const {
  plan::Lane lane = original_;
  lane.id = id_->text().trimmed().toStdString();
  lane.base_url = url_->text().trimmed().toStdString();
  lane.model = model_->text().trimmed().isEmpty() ? "auto" : model_->text().trimmed().toStdString();
  lane.api_key_env = key_reference();
  lane.notes.weights = weights_->currentText().trimmed().toStdString();
  lane.notes.kv_cache = kv_->currentText().trimmed().toStdString();
  lane.notes.spec = spec_->currentText().trimmed().toStdString();
  lane.notes.prefix_caching = prefix_->currentIndex() == 0
                                  ? std::nullopt
                                  : std::optional<bool>(prefix_->currentIndex() == 1);
  lane.notes.engine_version = engine_->text().trimmed().toStdString();
  lane.notes.text = notes_->text().trimmed().toStdString();
  fill_sim_fields(lane);
  lane.launch = launch_->launch(lane.id);
  return lane;
}

QString LaneDialog::validate() const {
  const plan::Lane l = lane();
  const QString id = QString::fromStdString(l.id);
  if (id.isEmpty()) return tr("A lane needs an id.");
  if (!QRegularExpression("^[A-Za-z0-9._-]+$").match(id).hasMatch())
    return tr("The lane id may use letters, digits, '.', '_' and '-' only (it names files).");
  if (taken_ids_.contains(id)) return tr("Another lane is already called \"%1\".").arg(id);
  const QString url = QString::fromStdString(l.base_url);
  if (!url.startsWith("sim:") && !url.startsWith("http://") && !url.startsWith("https://"))
    return tr("The endpoint must start with http://, https:// or sim:");
  const QString env = key_env_->text().trimmed();
  if (key_source_->currentIndex() == EnvironmentKey &&
      !QRegularExpression("^[A-Za-z_][A-Za-z0-9_]*$").match(env).hasMatch())
    return env.isEmpty()
               ? tr("Name the environment variable that holds the API key.")
               : tr("The API key variable must be an environment variable name, not a key.");
  if (key_source_->currentIndex() == KeyringKey && l.api_key_env.empty())
    return tr("Type the API key to keep in the OS keyring.");
  if (const QString launch = launch_->validate(l); !launch.isEmpty())
    return tr("Launch: %1").arg(launch);
  return {};
}

void LaneDialog::accept() {
  if (storing_) return;
  if (const QString problem = validate(); !problem.isEmpty()) return show_problem(problem);
  // The keys go to the keyring only now, for this workspace, lane id and host.
  const plan::Lane l = lane();
  const std::string host = plan::keyring_host(l.base_url);
  // The lane's own key, then each secret value of its launch env (named in LAUNCH_NAMES).
  std::vector<SecretStore::KeyToKeep> keys;
  std::vector<std::string> launch_names;
  if (key_source_->currentIndex() == KeyringKey && !key_secret_->text().isEmpty()) {
    keys.push_back({{l.id, host}, key_secret_->text().toStdString()});
    launch_names.emplace_back();
  }
  for (const auto& [name, value] : launch_->typed_secrets()) {
    keys.push_back({{plan::launch_env_keyring_id(l.id, name), host}, value});
    launch_names.push_back(name);
  }
  if (keys.empty()) return QDialog::accept();
  storing_ = true;
  buttons_->setEnabled(false);
  tabs_->setEnabled(false);  // the lane as stored is the lane accepted
  error_->setText(tr("Keeping the key in the OS keyring…"));
  using Batch = SecretStore::BatchResult;
  auto* job = new QFutureWatcher<Batch>(this);
  connect(job, &QFutureWatcher<Batch>::finished, this, [this, job, launch_names] {
    const Batch outcome = job->result();
    job->deleteLater();
    storing_ = false;
    buttons_->setEnabled(true);
    tabs_->setEnabled(true);
    if (outcome.result.ok) {
      error_->clear();
      return QDialog::accept();
    }
    const QString error = QString::fromStdString(outcome.result.error);
    const std::string& launch_name = launch_names.at(outcome.failed_at);
    show_problem(launch_name.empty()
                     ? error
                     : tr("Launch: %1: %2").arg(QString::fromStdString(launch_name), error));
  });
  // One D-Bus round trip per key, or as long as an unlock prompt takes.
  job->setFuture(
      QtConcurrent::run([workspace = workspace_id_.toStdString(), keys = std::move(keys)] {
        return SecretStore(workspace).store_all(keys);
      }));
}

void LaneDialog::reject() {
  if (!storing_) QDialog::reject();
}

void LaneDialog::show_problem(const QString& problem) {
  error_->setText(problem);
  if (problem.startsWith(tr("Launch:"))) tabs_->setCurrentWidget(launch_);
}

QString LaneDialog::error_text() const { return error_->text(); }

void LaneDialog::build_key_fields(const plan::Lane& lane) {
  const bool in_keyring = plan::keyring_lane_of(lane.api_key_env).has_value();
  key_source_ = new QComboBox(this);
  key_source_->setObjectName("keySource");
  key_source_->addItems({tr("None"), tr("Environment variable"), tr("OS keyring")});
  key_source_->setCurrentIndex(lane.api_key_env.empty() ? NoKey
                               : in_keyring             ? KeyringKey
                                                        : EnvironmentKey);
  key_env_ = new QLineEdit(in_keyring ? QString() : QString::fromStdString(lane.api_key_env), this);
  key_env_->setObjectName("keyEnv");
  key_env_->setPlaceholderText(tr("e.g. FP8_API_KEY (name of an environment variable)"));
  key_env_->setToolTip(
      tr("The key is read from this environment variable when a run starts and "
         "is never written to disk."));
  key_secret_ = new QLineEdit(this);
  key_secret_->setObjectName("keySecret");
  key_secret_->setEchoMode(QLineEdit::Password);
  key_secret_->setPlaceholderText(in_keyring ? tr("stored in the OS keyring; type to replace")
                                             : tr("the API key"));
  key_secret_->setToolTip(
      tr("Kept in the OS keyring (Secret Service) for this workspace, lane id and host; the "
         "workspace only holds the reference keyring:<lane-id>."));
  connect(key_source_, &QComboBox::currentIndexChanged, this, &LaneDialog::show_key_source);
}

void LaneDialog::show_key_source(int source) {
  key_env_label_->setVisible(source == EnvironmentKey);
  key_env_->setVisible(source == EnvironmentKey);
  key_secret_label_->setVisible(source == KeyringKey);
  key_secret_->setVisible(source == KeyringKey);
}

std::string LaneDialog::key_reference() const {
  switch (key_source_->currentIndex()) {
    case EnvironmentKey:
      return key_env_->text().trimmed().toStdString();
    case KeyringKey:
      // A lane reads only its own item: a newly typed key is stored under this lane's id, and
      // a lane that already kept its key in the keyring keeps the reference. If its id or host
      // changed, the item is not found at run time and the key is asked for again.
      if (!key_secret_->text().isEmpty() || plan::keyring_lane_of(original_.api_key_env))
        return plan::keyring_reference(id_->text().trimmed().toStdString());
      return "";
    default:
      return {};
  }
}

}  // namespace lb::ui
