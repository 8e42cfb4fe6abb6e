// Command-line options from the formula table: one option per formula argument, named after it,
// with the table's default.
#pragma once

#include <CLI/CLI.hpp>

#include "calls.hpp"

namespace cli {

/// Adds one option per argument of `formula` (skipping those `cmd` already has): required unless the
/// table has a default, which becomes the option's default. `--bw`, `--kv-kib`, `--prompt` and `--output` are short names.
void add_formula_options(CLI::App& cmd, Values& values, const char* formula);

/// The argument `arg` of `formula`, found by name in the formula table.
const roofline_arg_info& formula_arg(const char* formula, const std::string& arg);

/// Adds the subcommand `name` with the options of `formula` and a --json flag; when it is given,
/// `run` gets their values.
CLI::App* add_formula_subcommand(CLI::App& app, const char* name, const char* about, const char* formula,
                                 void (*run)(const Values& values, bool json));

/// Adds the --json flag every subcommand that prints has.
void add_json_flag(CLI::App& cmd, bool& json);

}  // namespace cli
