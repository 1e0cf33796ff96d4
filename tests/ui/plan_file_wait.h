#pragma once
// Opens a plan file on the Run page and waits for the page to say how it ended (the file is
// checked off the GUI thread, so the answer comes through the event loop).
#include <QSignalSpy>
#include <QString>

#include "ui/pages/run_page.h"

namespace lb::test {

inline bool start_plan_file(ui::RunPage* page, const QString& path, QString* error) {
  QSignalSpy done(page, &ui::RunPage::start_answered);
  page->open_plan_file(path);
  if (done.isEmpty() && !done.wait(120'000)) {
    *error = "the Run page gave no answer about " + path;
    return false;
  }
  *error = done.first().at(1).toString();
  return done.first().at(0).toBool();
}

}  // namespace lb::test
