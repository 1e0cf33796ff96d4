#!/usr/bin/env python3
"""scripts/check-install-deps against a finished build: it passes with bootstrap.sh's list as it
is, and fails, naming the package and a file that needs it, when a package is left out.

  check_install_deps_test.py SOURCE_DIR BUILD_DIR
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest

SOURCE, BUILD = sys.argv[1], sys.argv[2]
CHECK = os.path.join(SOURCE, "scripts", "check-install-deps")
BOOTSTRAP = os.path.join(SOURCE, "scripts", "bootstrap.sh")


def check(*args):
    out = subprocess.run([CHECK, *args], capture_output=True, text=True, timeout=300)
    return out.returncode, out.stdout + out.stderr


class CheckInstallDeps(unittest.TestCase):
    def test_bootstrap_list_covers_the_build(self):
        code, text = check(BUILD)
        self.assertEqual(code, 0, text)
        self.assertIn("ok:", text)

    def test_a_package_left_out_is_named_with_a_file_that_needs_it(self):
        # Qt6Charts' CMake config loads Qt6OpenGL's; qt6-base-dev only recommends the package.
        code, text = check(BUILD, "--without", "libqt6opengl6-dev")
        self.assertEqual(code, 1, text)
        self.assertRegex(text, r"libqt6opengl6-dev\s+\(needed by \S*/Qt6OpenGLConfig\.cmake\)")

    def test_a_package_removed_from_the_script_itself_is_noticed(self):
        text = open(BOOTSTRAP, encoding="utf-8").read()
        self.assertRegex(text, r"\blibcurl4-openssl-dev\b")
        with tempfile.TemporaryDirectory() as tmp:
            trimmed = os.path.join(tmp, "bootstrap.sh")
            with open(trimmed, "w", encoding="utf-8") as f:
                f.write(re.sub(r"\blibcurl4-openssl-dev\b", "", text))
            code, out = check(BUILD, "--bootstrap", trimmed)
        self.assertEqual(code, 1, out)
        self.assertRegex(out, r"libcurl4-openssl-dev\s+\(needed by /usr/include/\S*curl\S*\.h\)")

    def test_input_errors_are_named(self):
        code, text = check(os.path.join(BUILD, "no-such-dir"))
        self.assertEqual(code, 2, text)
        self.assertIn("is not a Ninja build dir", text)
        with tempfile.NamedTemporaryFile("w", suffix=".sh") as script:
            script.write("#!/bin/sh\necho no list here\n")
            script.flush()
            code, text = check(BUILD, "--bootstrap", script.name)
        self.assertEqual(code, 2, text)
        self.assertIn("has no packages=( ... ) list", text)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
