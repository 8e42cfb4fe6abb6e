// The power model: what a GPU draws while it runs a step, and the energy of a step (issue #34; docs/formulas.md,
// "Energy").
//
// A GPU draws its idle power for as long as a step lasts; while it runs kernels it draws a share of the board's dynamic
// range (board power less idle) for being busy at all (its clocks up, its multiprocessors issuing), and on top of it
// a share for each millisecond of FLOPs at the peak and of bytes at the full bandwidth:
//
//   energy = idle x t + (board - idle) x min(t, active x t + compute x t_compute + memory x t_memory),
//
// with t the step's time, t_compute = FLOPs / peak (each operator's compute dtype) and t_memory = bytes / bandwidth:
// the roofline's two times. Power = energy / t is never above board power (the min) nor below idle; the fastest step,
// `bound`'s, spends the least energy (the terms of t grow with it, the others do not). `compute` is 1 (a step at the
// compute peak draws board power: board power is what the GPU draws at full load); `active` and `memory` (per memory
// technology) are fitted on measured rows (tests/data/power/measurements.csv) by tools/fit-power into
// libroofline/catalog/power.json (embedded), each in [0, 1].
#pragma once

#include <vector>

#include "roofline/catalog.hpp"
#include "roofline/operators.hpp"

namespace roofline {

/// The parameters of the power model (power.json's values).
struct PowerModel {
    double active = 0;         ///< share of the dynamic range a GPU running kernels draws, whatever they do
    double compute = 1;        ///< share of it a step at the compute peak draws
    double memory_hbm = 0.5;   ///< share of it a step that streams HBM at full bandwidth draws
    double memory_gddr = 0.5;  ///< the same for GDDR (consumer and workstation cards)
    double memory_lpddr = 0.5; ///< the same for LPDDR (DGX Spark): no measurement, GDDR's
    double idle_fraction = 0.1;  ///< idle power as a share of board power where the catalog measured none
    double host_fraction = 0.8;  ///< host power per GPU as a share of board power where the catalog has none
};

/// The power model of libroofline/catalog/power.json (read once).
const PowerModel& power_model();

/// The share of the dynamic range that streaming this GPU's memory at full bandwidth draws.
double memory_share(const GpuSpec& gpu, const PowerModel& model = power_model()) noexcept;
/// Idle power of the GPU, W: the catalog's measured idle_w, or idle_fraction of its board power.
double idle_power_w(const GpuSpec& gpu, const PowerModel& model = power_model()) noexcept;
/// Power the rest of the GPU's server draws per GPU, W: the catalog's host_w, or host_fraction of board power.
double host_power_w(const GpuSpec& gpu, const PowerModel& model = power_model()) noexcept;

/// The energy of one step on one GPU.
struct StepEnergy {
    double joules = 0;        ///< on one GPU, J
    double watts = 0;         ///< its average power, W (joules / the step's time)
    double compute_use = 0;   ///< t_compute / t: the share of the step at the compute peak
    double memory_use = 0;    ///< t_memory / t: the share of the step at the full bandwidth
};

/// The energy one GPU spends on the operators `ops` (as one GPU of a replica runs them: operators.hpp) in a step of
/// `step_ms` milliseconds. The GPU must have a board power (power_w > 0); step_ms must be > 0.
StepEnergy step_energy(const std::vector<Operator>& ops, const GpuSpec& gpu, double step_ms,
                       const PowerModel& model = power_model());

}  // namespace roofline
