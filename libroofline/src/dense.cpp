#include "roofline/dense.hpp"

#include <cmath>

#include "roofline/defaults.hpp"
#include "roofline/units.hpp"

namespace roofline {

double weight_bytes(const DenseModel& model) noexcept {
    return units::params_from_billions(model.params_b) * model.bytes_per_param;
}

double kv_bytes(const DenseModel& model, double batch, double ctx) noexcept {
    return batch * ctx * units::bytes_from_kib(model.kv_kib_per_token);
}

Work decode_work(const DenseModel& model, double batch, double ctx) noexcept {
    return {defaults::flops_per_param_per_token * units::params_from_billions(model.params_b) * batch,
            weight_bytes(model) + kv_bytes(model, batch, ctx)};
}

Work prefill_work(const DenseModel& model, double tokens) noexcept {
    return {defaults::flops_per_param_per_token * units::params_from_billions(model.params_b) * tokens,
            weight_bytes(model)};
}

CriticalBatch critical_batch(const DenseModel& model, double ctx, const Gpu& gpu) {
    // Step time of a batch B: compute B*c, memory w + B*k (c: compute per sequence, k: KV read per
    // sequence, w: weight read). Compute bound when B*c > w + B*k, i.e. B*(c - k) > w.
    const double c = compute_time_ms(decode_work(model, 1, ctx).flops, gpu.tflops);
    const double k = memory_time_ms(kv_bytes(model, 1, ctx), gpu.tbs);
    const double w = memory_time_ms(weight_bytes(model), gpu.tbs);
    if (!(c > k)) return {false, 0};
    double b = std::floor(w / (c - k)) + 1;
    if (!std::isfinite(b)) return {true, b};
    // The closed form can be one off in floating point: settle it with the same predicate that
    // step_time() applies, so that the answer agrees with the bound of the step it names.
    auto compute_bound = [&](double batch) {
        return step_time(decode_work(model, batch, ctx), gpu).bound == Bound::compute;
    };
    for (int i = 0; i < 4 && b > 1 && compute_bound(b - 1); ++i) b -= 1;
    for (int i = 0; i < 4 && !compute_bound(b); ++i) b += 1;
    return {true, b};
}

MemoryFit max_batch(const DenseModel& model, double mem_gb, double ctx, double reserve_gb) noexcept {
    const double free_bytes = units::bytes_from_gb(mem_gb - reserve_gb) - weight_bytes(model);
    if (free_bytes < 0) return {false, 0};
    // A relative nudge keeps an exact fit (3.0 computed as 2.9999999999) from losing a sequence.
    return {true, std::floor(free_bytes / kv_bytes(model, 1, ctx) * (1 + 1e-12))};
}

}  // namespace roofline
