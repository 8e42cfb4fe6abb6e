// The subcommands of `roofline`, one file each under commands/: setup_<name>() adds the subcommand,
// its options and the callback that runs it (CLI11's subcommands-in-files pattern). A callback
// throws Failure; main() prints it.
#pragma once

#include <CLI/CLI.hpp>

namespace cli {

void setup_decode(CLI::App& app);
void setup_prefill(CLI::App& app);
void setup_memory(CLI::App& app);
void setup_roof(CLI::App& app);
void setup_tables(CLI::App& app);
void setup_plot(CLI::App& app);
void setup_formula(CLI::App& app);
void setup_formulas(CLI::App& app);
void setup_step(CLI::App& app);
void setup_ttft(CLI::App& app);
void setup_fit(CLI::App& app);
void setup_catalog(CLI::App& app);
void setup_plan(CLI::App& app);
void setup_curve(CLI::App& app);
void setup_simulate(CLI::App& app);
void setup_calibrate(CLI::App& app);
void setup_energy(CLI::App& app);

}  // namespace cli
