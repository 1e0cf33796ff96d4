#pragma once
// The PDF writer needs fonts, hence a QGuiApplication. A headless program (the CLI) has none:
// this makes one on the offscreen platform, so no display is needed.
#include <memory>

class QGuiApplication;

namespace lb::report_pdf {

// Null when a QGuiApplication already exists (the GUI); otherwise the new offscreen instance,
// which the caller keeps alive while writing PDFs. Null as well when a non-GUI
// QCoreApplication exists (no second application can be made); write_pdf_report then fails
// with a clear error.
std::unique_ptr<QGuiApplication> ensure_gui_application();

// Without XDG_RUNTIME_DIR (root, cron, CI) Qt warns on stderr when the application starts. This
// sets it to a private /tmp/runtime-<uid> where that is usable. It changes the process
// environment, so a program calls it first thing in main(), before any thread exists.
void provide_runtime_dir_at_startup();

}  // namespace lb::report_pdf
