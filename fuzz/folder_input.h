#pragma once
// Fuzz input layout shared by the targets that read whole folders: files separated by lines
// "//file NAME", NAME one of the target's known names (an unknown one, or the text before the
// first marker, goes to its first name). A marker counts only at the start of a line; a file's
// text ends before the newline that precedes the next marker. A seed is a folder written out in
// this form.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <string_view>

namespace lb::fuzz {

// One scratch folder per process, under the temporary directory.
inline const std::filesystem::path& scratch_dir(const char* prefix) {
  static const std::filesystem::path dir = [prefix] {
    const std::filesystem::path d =
        std::filesystem::temp_directory_path() / (prefix + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

// Empties DIR, then writes INPUT's files into it.
template <size_t N>
void write_marked_files(const std::filesystem::path& dir, std::string_view input,
                        const std::string_view (&names)[N]) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    std::filesystem::remove_all(entry.path(), ec);
  auto known = [&](std::string_view name) {
    for (std::string_view n : names)
      if (n == name) return true;
    return false;
  };
  auto write = [&](std::string_view name, std::string_view text) {
    const std::filesystem::path path = dir / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary | std::ios::app)
        .write(text.data(), static_cast<std::streamsize>(text.size()));
  };
  std::string_view name = names[0];
  constexpr std::string_view kMarker = "//file ";
  while (!input.empty()) {
    size_t marker = input.find(kMarker);
    while (marker != std::string_view::npos && marker != 0 && input[marker - 1] != '\n')
      marker = input.find(kMarker, marker + 1);
    if (marker == std::string_view::npos) {
      write(name, input);
      break;
    }
    write(name, input.substr(0, marker == 0 ? 0 : marker - 1));
    const size_t end = input.find('\n', marker);
    const std::string_view next = input.substr(
        marker + kMarker.size(),
        end == std::string_view::npos ? std::string_view::npos : end - marker - kMarker.size());
    name = known(next) ? next : names[0];
    input = end == std::string_view::npos ? std::string_view() : input.substr(end + 1);
  }
}

}  // namespace lb::fuzz
