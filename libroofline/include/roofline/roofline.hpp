// The roofline: a step takes at least max(FLOPs / peak compute, bytes moved / memory bandwidth).
//
// Pure functions over small value types, named after the article's concepts. They state their
// preconditions and do not check them: the formula layer (formulas.hpp) checks every input against
// the formula table before it calls them.
#pragma once

#include <string_view>
#include <vector>

#include "roofline/units.hpp"

namespace roofline {

/// What limits a step: the memory system (bandwidth) or the arithmetic units (compute).
enum class Bound { memory, compute };

/// "memory" or "compute".
std::string_view to_string(Bound bound) noexcept;

/// A GPU as the roofline sees it: dense peak compute and memory bandwidth.
struct Gpu {
    double tflops = 0;  ///< dense peak, TFLOP/s (> 0)
    double tbs = 0;     ///< memory bandwidth, TB/s (> 0)
};

/// The work of one step: floating-point operations and bytes moved to or from memory.
struct Work {
    double flops = 0;  ///< FLOP (>= 0)
    double bytes = 0;  ///< bytes (>= 0)
};

/// A step on the roofline: its compute time, its memory time, and which one bounds it.
struct StepTime {
    double compute_ms = 0;  ///< flops / peak compute
    double memory_ms = 0;   ///< bytes / bandwidth
    double time_ms = 0;     ///< max of the two: the lower bound of the step
    Bound bound = Bound::memory;
};

// The three below are defined here, inline: the planner evaluates them millions of times a second.

/// Compute time of `flops` at `tflops` TFLOP/s, in ms.
inline double compute_time_ms(double flops, double tflops) noexcept {
    return units::ms_from_seconds(flops / units::flops_per_second_from_tflops(tflops));
}
/// Memory time of `bytes` at `tbs` TB/s, in ms.
inline double memory_time_ms(double bytes, double tbs) noexcept {
    return units::ms_from_seconds(bytes / units::bytes_per_second_from_tbs(tbs));
}
/// Compute time, memory time, their max and the bound. A tie counts as memory bound: a step is
/// compute bound only when its compute time is strictly the longer.
inline StepTime step_time(const Work& work, const Gpu& gpu) noexcept {
    StepTime t;
    t.compute_ms = compute_time_ms(work.flops, gpu.tflops);
    t.memory_ms = memory_time_ms(work.bytes, gpu.tbs);
    t.bound = t.compute_ms > t.memory_ms ? Bound::compute : Bound::memory;
    t.time_ms = t.compute_ms > t.memory_ms ? t.compute_ms : t.memory_ms;
    return t;
}
/// Arithmetic intensity, FLOP per byte (bytes > 0).
double arithmetic_intensity(const Work& work) noexcept;
/// The balance point (ridge point) of a GPU: peak compute over bandwidth, FLOP per byte.
double balance_point(const Gpu& gpu) noexcept;
/// The roof at arithmetic intensity `ai`: min(peak, ai x bandwidth), TFLOP/s.
double attainable_tflops(double ai, const Gpu& gpu) noexcept;

/// One point of the roof.
struct RoofPoint {
    double ai = 0;                 ///< FLOP/byte
    double attainable_tflops = 0;  ///< TFLOP/s
};

/// `points` (>= 2) points of the roof, log-spaced in arithmetic intensity from ai_min to ai_max
/// (0 < ai_min < ai_max), both ends included.
std::vector<RoofPoint> roof(const Gpu& gpu, double ai_min, double ai_max, int points);

}  // namespace roofline
