// Test programs hold several QtTest classes each: one program per test folder, so that the
// static libraries are linked once per folder rather than once per class (docs/building.md).
// A test file ends with LANEBENCH_TEST_MAIN(Class) (QApplication when the program has Qt
// Widgets, else QGuiApplication) or LANEBENCH_TEST_GUILESS_MAIN(Class) (QCoreApplication) where a
// single-class program had QTEST_MAIN or QTEST_GUILESS_MAIN. The program runs one class:
//   PROGRAM CLASS [QtTest options...]     PROGRAM --list
// and ctest registers one test per class (cmake/Warnings.cmake, lanebench_add_test).
#pragma once

#include <QtTest>

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
