// main() of every test program: picks the registered QtTest class named by the first argument,
// makes the application object that class asked for, and runs it (see test_main.h).
#include "test_main.h"

#include <QCoreApplication>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#if defined(QT_WIDGETS_LIB)
#include <QApplication>
#elif defined(QT_GUI_LIB)
#include <QGuiApplication>
#endif

namespace lb::test {
namespace {

std::vector<RegisteredTest>& registry() {
  static std::vector<RegisteredTest> tests;
  return tests;
}

std::unique_ptr<QCoreApplication> make_app(AppKind kind, int& argc, char** argv) {
  std::unique_ptr<QCoreApplication> app;
  if (kind == AppKind::gui) {
#if defined(QT_WIDGETS_LIB)
    app = std::make_unique<QApplication>(argc, argv);
#elif defined(QT_GUI_LIB)
    app = std::make_unique<QGuiApplication>(argc, argv);
#endif
  }
  if (!app) app = std::make_unique<QCoreApplication>(argc, argv);
  app->setAttribute(Qt::AA_Use96Dpi, true);
  return app;
}

int usage(const char* program) {
  std::fprintf(stderr, "usage: %s CLASS [QtTest options]   (or --list); classes:\n", program);
  for (const auto& test : registry()) std::fprintf(stderr, "  %s\n", test.class_name);
  return 2;
}

}  // namespace

bool register_test(const RegisteredTest& test) {
  registry().push_back(test);
  return true;
}

namespace {

bool g_in_init_main = false;

void require_init_main(const char* what, const char* name) {
  if (g_in_init_main) return;
  std::fprintf(stderr,
               "%s(\"%s\") outside initMain(): a test may change the environment only before "
               "any thread exists (tests/support/test_main.h)\n",
               what, name);
  std::abort();
}

}  // namespace

void set_environment_before_threads(const char* name, const char* value) {
  require_init_main("set_environment_before_threads", name);
  ::setenv(name, value, 1);
}

void unset_environment_before_threads(const char* name) {
  require_init_main("unset_environment_before_threads", name);
  ::unsetenv(name);
}

}  // namespace lb::test

int main(int argc, char** argv) {
  using lb::test::registry;
  if (argc >= 2 && std::strcmp(argv[1], "--list") == 0) {
    for (const auto& test : registry()) std::printf("%s\n", test.class_name);
    return 0;
  }
  if (argc < 2) return lb::test::usage(argv[0]);
  const lb::test::RegisteredTest* chosen = nullptr;
  for (const auto& test : registry()) {
    if (std::strcmp(test.class_name, argv[1]) == 0) chosen = &test;
  }
  if (chosen == nullptr) {
    std::fprintf(stderr, "%s: no test class \"%s\"\n", argv[0], argv[1]);
    return lb::test::usage(argv[0]);
  }
  // QtTest sees the program name and the options after the class name.
  std::vector<char*> args{argv[0]};
  args.insert(args.end(), argv + 2, argv + argc);
  int qt_argc = static_cast<int>(args.size());
  args.push_back(nullptr);
  lb::test::g_in_init_main = true;
  chosen->init_main();
  lb::test::g_in_init_main = false;
  auto app = lb::test::make_app(chosen->app, qt_argc, args.data());
  return chosen->run(qt_argc, args.data());
}
