#pragma once
// Turns two outputs into what DiffView paints: word-level changed spans (light) with their
// character-level refinements (dark), in UTF-16 offsets. Pure and thread-safe: called off the GUI
// thread by DiffJobRunner.
#include <string>
#include <utility>

#include "widgets/diff/diff_types.h"

namespace lb::ui {

std::pair<widgets::DiffSide, widgets::DiffSide> highlight_pair(const std::string& a_utf8,
                                                               const std::string& b_utf8);

}  // namespace lb::ui
