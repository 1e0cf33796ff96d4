// JSON objects with a repeated key: nlohmann keeps only the last value silently, which would
// turn a plan's second "concurrency" into the only one without a word. A SAX pass finds them.
#include "core/plan/plan_validation.h"

namespace lb::plan::detail {
namespace {

using nlohmann::json;

class DuplicateKeyFinder : public nlohmann::json_sax<json> {
 public:
  explicit DuplicateKeyFinder(ErrorList& errors) : errors_(errors) {}

  bool null() override { return scalar(); }
  bool boolean(bool) override { return scalar(); }
  bool number_integer(number_integer_t) override { return scalar(); }
  bool number_unsigned(number_unsigned_t) override { return scalar(); }
  bool number_float(number_float_t, const string_t&) override { return scalar(); }
  bool string(string_t&) override { return scalar(); }
  bool binary(binary_t&) override { return scalar(); }
  bool start_object(std::size_t) override { return open(true); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    Frame& f = frames_.back();
    if (!f.keys.insert(k).second) {
      errors_.add(key_path(path_of(frames_.size()), k),
                  "duplicate key '" + k + "' (only one value per key is allowed)");
    }
    f.current_key = k;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;  // syntax errors are reported by the real parse
  }

 private:
  struct Frame {
    bool is_object = false;
    std::set<std::string> keys;
    std::string current_key;
    size_t next_index = 0;  // arrays: index of the next element
  };

  // An element of an array parent takes the next index.
  void begin_value() {
    if (!frames_.empty() && !frames_.back().is_object) {
      ++frames_.back().next_index;
    }
  }
  bool scalar() {
    begin_value();
    return true;
  }
  bool open(bool is_object) {
    begin_value();
    frames_.push_back({is_object, {}, {}, 0});
    return true;
  }
  bool close() {
    frames_.pop_back();
    return true;
  }
  // Path of the container at depth `depth` (1 = the root).
  std::string path_of(size_t depth) const {
    std::string path;
    for (size_t i = 1; i < depth; ++i) {
      const Frame& parent = frames_[i - 1];
      path = parent.is_object ? key_path(path, parent.current_key)
                              : index_path(path, parent.next_index - 1);
    }
    return path;
  }

  ErrorList& errors_;
  std::vector<Frame> frames_;
};

}  // namespace

void find_duplicate_keys(std::string_view json_text, ErrorList& errors) {
  DuplicateKeyFinder finder(errors);
  json::sax_parse(json_text.begin(), json_text.end(), &finder);
}

}  // namespace lb::plan::detail
