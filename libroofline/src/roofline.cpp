#include "roofline/roofline.hpp"

#include <algorithm>
#include <cmath>

#include "roofline/units.hpp"

namespace roofline {

std::string_view to_string(Bound bound) noexcept {
    return bound == Bound::compute ? "compute" : "memory";
}

double arithmetic_intensity(const Work& work) noexcept { return work.flops / work.bytes; }

double balance_point(const Gpu& gpu) noexcept {
    return units::flops_per_second_from_tflops(gpu.tflops) / units::bytes_per_second_from_tbs(gpu.tbs);
}

double attainable_tflops(double ai, const Gpu& gpu) noexcept {
    // ai [FLOP/B] x bandwidth [1e12 B/s] is in 1e12 FLOP/s: the same scale as the peak.
    return std::min(gpu.tflops, ai * gpu.tbs);
}

std::vector<RoofPoint> roof(const Gpu& gpu, double ai_min, double ai_max, int points) {
    std::vector<RoofPoint> out;
    out.reserve(static_cast<std::size_t>(points));
    const double lo = std::log10(ai_min);
    const double step = (std::log10(ai_max) - lo) / (points - 1);
    for (int i = 0; i < points; ++i) {
        // Pin both ends exactly rather than trusting pow(10, log10(x)) to round-trip.
        const double ai = i == 0 ? ai_min : i == points - 1 ? ai_max : std::pow(10.0, lo + step * i);
        out.push_back({ai, attainable_tflops(ai, gpu)});
    }
    return out;
}

}  // namespace roofline
