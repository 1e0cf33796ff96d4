#include "ui/verify/verify_findings.h"

#include <QObject>
#include <QStringList>
#include <algorithm>

namespace lb::ui {
namespace {

using artifacts::FileStatus;
using models::FindingSeverity;
using models::VerifyFinding;

QString q(const std::string& s) { return QString::fromStdString(s); }

// Git blobs cannot be checked by SHA-256 but are not evidence of tampering; everything else
// that is not Ok fails the verification (VerifyReport::passed()).
FindingSeverity file_severity(FileStatus status) {
  if (status == FileStatus::Ok) return FindingSeverity::Ok;
  return status == FileStatus::GitBlob ? FindingSeverity::Warning : FindingSeverity::Blocker;
}

QString file_detail(const artifacts::FileVerdict& f) {
  if (f.status == FileStatus::Mismatch)
    return QObject::tr("expected %1, found %2").arg(q(f.expected), q(f.actual));
  if (f.status == FileStatus::Ok || f.status == FileStatus::Unpinned)
    return f.detail.empty() ? q(f.actual) : q(f.detail);
  if (!f.detail.empty()) return q(f.detail);
  if (f.status == FileStatus::Missing) return QObject::tr("named by the inventory, not found");
  if (f.status == FileStatus::Extra) return QObject::tr("not named by the inventory");
  return {};
}

void add_header_rows(const artifacts::VerifyReport& report, std::vector<VerifyFinding>& out) {
  for (const artifacts::SafetensorsCheck& s : report.safetensors) {
    if (s.ok()) continue;
    QStringList issues;
    for (const std::string& issue : s.issues) issues << q(issue);
    QString detail = issues.join("; ");
    if (s.unlisted_issues > 0) detail += QObject::tr(" (and %1 more)").arg(s.unlisted_issues);
    out.push_back({FindingSeverity::Blocker, QObject::tr("safetensors header"), q(s.path), detail});
  }
}

}  // namespace

std::vector<VerifyFinding> verify_findings(const artifacts::VerifyReport& report, bool include_ok) {
  std::vector<VerifyFinding> out;
  if (!report.input_error.empty())
    out.push_back(
        {FindingSeverity::Blocker, QObject::tr("input"), q(report.root), q(report.input_error)});
  for (const artifacts::InventoryProblem& p : report.inventory_problems)
    out.push_back({FindingSeverity::Blocker, QObject::tr("inventory"),
                   p.line > 0
                       ? QObject::tr("%1, line %2").arg(q(report.inventory_source)).arg(p.line)
                       : q(report.inventory_source),
                   q(p.message)});
  for (const artifacts::FileVerdict& f : report.files) {
    const FindingSeverity severity = file_severity(f.status);
    if (severity == FindingSeverity::Ok && !include_ok) continue;
    out.push_back({severity, QString::fromLatin1(artifacts::file_status_name(f.status)), q(f.path),
                   file_detail(f)});
  }
  for (const artifacts::ScanFinding& f : report.findings)
    out.push_back({f.severity == artifacts::Severity::Refuse ? FindingSeverity::Blocker
                                                             : FindingSeverity::Warning,
                   QObject::tr("refuse-list"), q(f.path), q(f.reason)});
  add_header_rows(report, out);
  std::stable_sort(out.begin(), out.end(), [](const VerifyFinding& a, const VerifyFinding& b) {
    if (a.severity != b.severity) return a.severity < b.severity;
    return a.path < b.path;
  });
  return out;
}

QString verify_verdict_text(const artifacts::VerifyReport& report) {
  if (!report.input_error.empty())
    return QObject::tr("Cannot verify: %1").arg(q(report.input_error));
  if (!report.inventory_problems.empty())
    return QObject::tr("The inventory %1 cannot be used (%2 problems).")
        .arg(q(report.inventory_source))
        .arg(report.inventory_problems.size());
  const artifacts::VerifyTotals& t = report.totals;
  if (t.cancelled > 0) return QObject::tr("Cancelled: %1 files were not hashed.").arg(t.cancelled);
  QStringList parts;
  auto add = [&parts](std::size_t n, const QString& what) {
    if (n > 0) parts << QString("%1 %2").arg(n).arg(what);
  };
  add(t.mismatch, QObject::tr("mismatched"));
  add(t.missing, QObject::tr("missing"));
  add(t.extra, QObject::tr("extra"));
  add(t.unreadable, QObject::tr("unreadable"));
  add(t.unpinned, QObject::tr("unpinned (no inventory)"));
  add(t.refused, QObject::tr("refused by the refuse-list"));
  add(t.safetensors_invalid, QObject::tr("invalid safetensors headers"));
  const QString inventory = report.inventory_format == "none"
                                ? QObject::tr("no inventory")
                                : QObject::tr("%1 inventory").arg(q(report.inventory_format));
  if (report.passed())
    return QObject::tr(
               "Verified: %1 files match the %2; %3 safetensors headers valid; %4 warnings.")
        .arg(t.ok)
        .arg(inventory)
        .arg(t.safetensors_checked)
        .arg(t.warnings + t.git_blob);
  if (parts.isEmpty()) parts << QObject::tr("no files found");
  return QObject::tr("Failed: %1 (%2 files match; %3).")
      .arg(parts.join(", "))
      .arg(t.ok)
      .arg(inventory);
}

}  // namespace lb::ui
