// lanebench: the workbench GUI.
//   lanebench                      opens the last workspace (a demo one on first start)
//   lanebench --demo               opens the demo workspace (simulator lanes, ready to run)
//   lanebench --workspace DIR      opens DIR
//   lanebench --screenshot-tour D  runs a short demo experiment and saves each page into D
//   lanebench --screenshot-traffic D  runs the traffic kinds on the demo lanes, saves their charts
//   lanebench --quit-when-shown    quits once the window is on screen (install checks)
//   lanebench --version / --help   print and exit, with no display needed
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>
#include <QWindow>
#include <cstdio>
#include <cstring>

#include "sim_lane_starter.h"
#include "ui/main_window.h"
#include "ui/tour/screenshot_tour.h"
#include "ui/tour/traffic_tour.h"
#include "ui/workspace/workspace.h"

namespace {

QString demo_dir() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
      .filePath("workspaces/demo");
}

// Which folder to open: --workspace, else --demo, else the last one, else a first-start demo.
QString workspace_to_open(const QCommandLineParser& args, bool* demo) {
  *demo = args.isSet("demo") || args.isSet("screenshot-tour") || args.isSet("screenshot-traffic");
  if (args.isSet("workspace")) return args.value("workspace");
  if (*demo) return demo_dir();
  const QStringList recent = QSettings().value("recent_workspaces").toStringList();
  if (!recent.isEmpty() && QDir(recent.front()).exists()) return recent.front();
  *demo = true;  // first start: something runnable with no server at all
  return lb::ui::Workspace::default_dir();
}

void set_identity() {
  QCoreApplication::setApplicationName("LaneBench");
  QCoreApplication::setOrganizationName("LaneBench");
  QCoreApplication::setApplicationVersion(LANEBENCH_VERSION);
}

void add_options(QCommandLineParser& args) {
  args.setApplicationDescription("LaneBench: qualify a new LLM serving configuration");
  args.addHelpOption();
  args.addVersionOption();
  args.addOption({"demo", "Open the demo workspace (built-in simulator lanes)."});
  args.addOption({"workspace", "Open the workspace folder DIR.", "DIR"});
  args.addOption({"screenshot-tour",
                  "Run a short demo experiment, save a screenshot of every page into DIR, quit.",
                  "DIR"});
  args.addOption({"screenshot-traffic",
                  "Run a trace replay, sessions, a capacity search and a throughput sweep on the "
                  "demo lanes, save the Run page with each one's charts into DIR, quit.",
                  "DIR"});
  args.addOption({"quit-when-shown",
                  "Quit as soon as the main window is on screen (exit 0), or after 60 s (exit 1); "
                  "for install checks."});
}

// Install checks start the program and need to know that its window really came up: polls until
// the window is exposed, says so on stdout, and quits.
void quit_when_shown(QWidget& window) {
  constexpr int poll_ms = 50;
  constexpr int give_up_after_polls = 60'000 / poll_ms;
  auto* poll = new QTimer(&window);
  QObject::connect(poll, &QTimer::timeout, &window, [&window, polls = 0]() mutable {
    if (window.windowHandle() != nullptr && window.windowHandle()->isExposed()) {
      std::printf("lanebench: main window shown (%dx%d, \"%s\")\n", window.width(), window.height(),
                  qPrintable(window.windowTitle()));
      std::fflush(stdout);
      QApplication::exit(0);
    } else if (++polls > give_up_after_polls) {
      std::fprintf(stderr, "lanebench: the main window was not shown within 60 s\n");
      QApplication::exit(1);
    }
  });
  poll->start(poll_ms);
}

// A QApplication needs a display and aborts without one; --version and --help must work on a
// headless machine (package checks, CI), so they are answered by a QCoreApplication.
bool prints_and_exits(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    for (const char* flag : {"--version", "-v", "--help", "-h", "-?", "--help-all"}) {
      if (std::strcmp(argv[i], flag) == 0) return true;
    }
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (prints_and_exits(argc, argv)) {
    QCoreApplication core(argc, argv);
    set_identity();
    QCommandLineParser args;
    add_options(args);
    args.process(core);  // prints the version or help and exits, unless the flag was a value
  }
  QApplication app(argc, argv);
  set_identity();
  // Lets the desktop (Wayland in particular) match windows to the installed desktop entry.
  QGuiApplication::setDesktopFileName("org.lanebench.LaneBench");
  QCommandLineParser args;
  add_options(args);
  args.process(app);

  lb::app::register_sim_lane_starter();
  bool demo = false;
  const QString dir = workspace_to_open(args, &demo);
  QString error;
  if (demo && !lb::ui::Workspace::create_demo(dir, &error)) {
    QMessageBox::critical(nullptr, "LaneBench", error);
    return 2;
  }
  lb::ui::MainWindow window;
  if (!window.open_workspace(dir, &error)) {
    QMessageBox::critical(nullptr, "LaneBench", error);
    return 2;
  }
  window.show();
  if (args.isSet("screenshot-tour")) {
    auto* tour = new lb::ui::ScreenshotTour(window, args.value("screenshot-tour"), &window);
    QObject::connect(tour, &lb::ui::ScreenshotTour::done, &app,
                     [](int code) { QApplication::exit(code); });
    tour->start();
  }
  if (args.isSet("screenshot-traffic")) {
    auto* tour = new lb::ui::TrafficTour(window, args.value("screenshot-traffic"), &window);
    QObject::connect(tour, &lb::ui::TrafficTour::done, &app,
                     [](int code) { QApplication::exit(code); });
    tour->start();
  }
  if (args.isSet("quit-when-shown")) quit_when_shown(window);
  return app.exec();
}
