#include "ui/workspace/key_allowances.h"

#include <QCryptographicHash>
#include <QMessageBox>
#include <QSettings>

#include "core/net/printable_text.h"
#include "core/plan/api_key_source.h"

namespace lb::ui {
namespace {

QString entry(const std::string& variable, const std::string& host) {
  return QString::fromStdString(variable + "@" + host);
}

}  // namespace

KeyAllowances::KeyAllowances(QString workspace_dir) : workspace_dir_(std::move(workspace_dir)) {}

QString KeyAllowances::group() const {
  const QByteArray digest =
      QCryptographicHash::hash(workspace_dir_.toUtf8(), QCryptographicHash::Sha256).toHex();
  return "keyAllowances/" + QString::fromLatin1(digest.left(32));
}

bool KeyAllowances::allows(const std::string& variable, const std::string& host) const {
  return QSettings().value(group()).toStringList().contains(entry(variable, host));
}

void KeyAllowances::allow(const std::string& variable, const std::string& host) {
  QSettings settings;
  QStringList list = settings.value(group()).toStringList();
  if (!list.contains(entry(variable, host))) list << entry(variable, host);
  settings.setValue(group(), list);
}

bool KeyAllowances::confirm(QWidget* parent, const plan::Plan& plan, QString* error) {
  for (const plan::Lane& lane : plan.lanes) {
    if (lane.api_key_env.empty() || plan::keyring_lane_of(lane.api_key_env)) continue;
    const std::string host = plan::keyring_host(lane.base_url);
    if (allows(lane.api_key_env, host)) continue;
    const QString name = QString::fromStdString(net::printable_line(lane.api_key_env));
    const QString shown = host == "sim" ? QObject::tr("the built-in simulator")
                                        : QString::fromStdString(net::printable_line(host));
    QMessageBox box(QMessageBox::Question, QObject::tr("Send %1 to %2?").arg(name, shown),
                    QObject::tr("Lane %1 reads its API key from the environment variable %2 and "
                                "sends it to %3.\n\nSend it only if %2 really is this lane's key "
                                "and you trust %3. The answer is remembered for this workspace "
                                "and host.")
                        .arg(QString::fromStdString(net::printable_line(lane.id)), name, shown),
                    QMessageBox::Yes | QMessageBox::No, parent);
    box.setTextFormat(Qt::PlainText);
    box.setDefaultButton(QMessageBox::No);
    if (box.exec() != QMessageBox::Yes) {
      *error = QObject::tr("Lane %1: its key variable %2 was not allowed to go to %3.")
                   .arg(QString::fromStdString(net::printable_line(lane.id)), name, shown);
      return false;
    }
    allow(lane.api_key_env, host);
  }
  return true;
}

plan::Environment KeyAllowances::environment() const {
  plan::Environment env = plan::Environment::of_process();
  for (const QString& e : QSettings().value(group()).toStringList()) {
    const int at = e.lastIndexOf('@');
    if (at > 0) env = env.allowing_key(e.left(at).toStdString(), e.mid(at + 1).toStdString());
  }
  return env;
}

}  // namespace lb::ui
