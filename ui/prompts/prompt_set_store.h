#pragma once
// Where a workspace keeps its prompt sets: prompts/NAME.jsonl, one file per set, in the JSONL
// format of resources/prompts/README.md. Built-in sets are compiled in and read-only; a workspace
// set is referenced from a plan by its file path. Files are written atomically (QSaveFile).
#include <QString>
#include <QStringList>
#include <vector>

#include "core/plan/prompt_set.h"

namespace lb::ui {

struct PromptSetEntry {
  QString ref;    // "builtin:NAME" or the absolute path of the workspace's file
  QString label;  // "NAME (built-in)" or the file's base name
  bool builtin = false;
};

QString prompts_dir(const QString& workspace_dir);
// Built-in sets first, then the workspace's prompts/*.jsonl by name.
std::vector<PromptSetEntry> list_prompt_sets(const QString& workspace_dir);

// Loads a set by ref; on failure returns false with every error (file and line) in *error.
bool load_prompt_set_ref(const QString& ref, plan::PromptSet* out, QString* error);

// The prompt as one JSONL line (fields in the file format's order).
std::string prompt_to_jsonl(const plan::PromptSpec& prompt);
// Checks the prompts as core will when loading the file (ids unique and non-empty, checks
// valid), then writes them. Images and videos go with them: a medium read from a file in the
// set's folder keeps its path, any other (a built-in set's items, a set from elsewhere) is
// written under "<set>.media/" beside the set. False with a message naming the prompt on any
// problem.
bool save_prompt_set(const QString& path, const std::vector<plan::PromptSpec>& prompts,
                     QString* error);

// Reads a JSONL / ShareGPT / JSON-array file, and writes it as a new workspace set named after
// the file (NAME.jsonl, NAME-2.jsonl, ... when taken). Returns the new file's path, or "" with
// the parse errors (each naming the file and line) in *error.
QString import_prompt_file(const QString& source_path, const QString& workspace_dir,
                           QString* error);
// Writes the prompts as a new workspace set called base_name (made unique); returns its path.
QString add_workspace_set(const QString& workspace_dir, const QString& base_name,
                          const std::vector<plan::PromptSpec>& prompts, QString* error);

// A workspace set's name (its file name without .jsonl): letters, digits, '.', '_' and '-',
// starting with a letter or digit, at most 100 characters. "" when valid, else why not.
QString check_set_name(const QString& name);
// Creates prompts/NAME.jsonl holding `prompts`; "" with *error when the name is not valid or a
// set of that name exists already (nothing is overwritten).
QString create_workspace_set(const QString& workspace_dir, const QString& name,
                             const std::vector<plan::PromptSpec>& prompts, QString* error);
// Renames a workspace set's file to NEW_NAME.jsonl beside it; returns the new path, or "" with
// *error (name not valid, taken, or the file could not be renamed).
QString rename_workspace_set(const QString& path, const QString& new_name, QString* error);
// Removes a workspace set's file; false with *error. Built-in sets cannot be removed.
bool remove_workspace_set(const QString& path, QString* error);

}  // namespace lb::ui
