#pragma once
// A deterministic JSON value that satisfies a JSON schema (the subset structured-output
// requests use: type, properties, required, items, enum, const, minimum/maximum, minItems,
// anyOf/oneOf). String values prefer hints taken from the prompt (e.g. a city for "city").
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::sim {

nlohmann::json schema_instance(const nlohmann::json& schema, const std::vector<std::string>& hints,
                               const std::string& key = "");

// Capitalised words of the prompt that do not open a sentence: likely names and places.
std::vector<std::string> proper_nouns(const std::string& text);

}  // namespace lb::sim
