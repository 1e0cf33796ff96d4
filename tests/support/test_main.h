// Test programs hold several QtTest classes each: one program per test folder, so that the
// static libraries are linked once per folder rather than once per class (docs/building.md).
// A test file ends with LANEBENCH_TEST_MAIN(Class) (QApplication when the program has Qt
// Widgets, else QGuiApplication) or LANEBENCH_TEST_GUILESS_MAIN(Class) (QCoreApplication) where a
// single-class program had QTEST_MAIN or QTEST_GUILESS_MAIN. The program runs one class:
//   PROGRAM CLASS [QtTest options...]     PROGRAM --list
// and ctest registers one test per class (cmake/Warnings.cmake, lanebench_add_test).
#pragma once

#include <QtTest>

#include <nlohmann/json.hpp>

// QCOMPARE of JSON values prints them (cut at 400 characters) instead of "<null>": QtTest finds
// this toString by argument-dependent lookup.
NLOHMANN_JSON_NAMESPACE_BEGIN
inline char* toString(const basic_json<>& value) {
  std::string text = value.dump(-1, ' ', false, basic_json<>::error_handler_t::replace);
  if (text.size() > 400) text = text.substr(0, 400) + "...";
  return qstrdup(text.c_str());
}
NLOHMANN_JSON_NAMESPACE_END

namespace lb::test {

enum class AppKind { core, gui };

struct RegisteredTest {
  const char* class_name;
  AppKind app;
  void (*init_main)();  // the class's initMain(), run before the application object exists
  int (*run)(int argc, char** argv);
};

// Called during static initialisation by the macros below; returns true.
bool register_test(const RegisteredTest& test);

// The only way a test changes the process environment: from its class's static initMain(),
// which runs before the application object, QtTest's watchdog or any other thread exists.
// setenv/unsetenv are not thread-safe (they may move `environ` while another thread walks it),
// so a call at any other time aborts the test program with a message. A test that needs a
// variable later passes an lb::plan::Environment (or a lookup) to the code under test instead.
void set_environment_before_threads(const char* name, const char* value);
void unset_environment_before_threads(const char* name);

}  // namespace lb::test

#define LANEBENCH_TEST_REGISTER_(TestObject, kind)                                              \
  namespace {                                                                                   \
  int lanebench_run_##TestObject(int argc, char** argv) {                                       \
    TestObject tc;                                                                              \
    QTest::setMainSourcePath(__FILE__);                                                         \
    return QTest::qExec(&tc, argc, argv);                                                       \
  }                                                                                             \
  const bool lanebench_registered_##TestObject =                                                \
      ::lb::test::register_test({#TestObject, kind, &QTest::Internal::callInitMain<TestObject>, \
                                 &lanebench_run_##TestObject});                                 \
  }

#define LANEBENCH_TEST_MAIN(TestObject) \
  LANEBENCH_TEST_REGISTER_(TestObject, ::lb::test::AppKind::gui)
#define LANEBENCH_TEST_GUILESS_MAIN(TestObject) \
  LANEBENCH_TEST_REGISTER_(TestObject, ::lb::test::AppKind::core)
