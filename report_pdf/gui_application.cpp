#include "report_pdf/gui_application.h"

#include <QGuiApplication>

namespace lb::report_pdf {

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
