#include "report_pdf/gui_application.h"

#include <sys/stat.h>
#include <unistd.h>

#include <QGuiApplication>
#include <cstdlib>
#include <string>

namespace lb::report_pdf {

// Without XDG_RUNTIME_DIR Qt prints a warning to stderr and then uses /tmp/runtime-<user>. The
// offscreen PDF writer has no use for a runtime dir, so the same private dir is set up front and
// the CLI's stderr keeps only LaneBench's own messages. When that path exists but is not a
// private dir of this user, nothing is set and Qt says so itself.
void provide_runtime_dir_at_startup() {
  const char* set = std::getenv("XDG_RUNTIME_DIR");
  if (set != nullptr && *set != '\0') return;
  const std::string dir = "/tmp/runtime-" + std::to_string(::getuid());
  ::mkdir(dir.c_str(), 0700);
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid() ||
      (st.st_mode & 0777) != 0700)
    return;
  ::setenv("XDG_RUNTIME_DIR", dir.c_str(), 0);
}

std::unique_ptr<QGuiApplication> ensure_gui_application() {
  if (QCoreApplication::instance()) return nullptr;
  // QGuiApplication keeps references to argc and argv for its whole life.
  static int argc = 3;
  static char arg0[] = "lanebench-cli";
  static char arg1[] = "-platform";
  static char arg2[] = "offscreen";
  static char* argv[] = {arg0, arg1, arg2, nullptr};
  return std::make_unique<QGuiApplication>(argc, argv);
}

}  // namespace lb::report_pdf
