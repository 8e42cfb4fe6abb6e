// The power model (power.hpp): its parameters from libroofline/catalog/power.json, and the energy of a step.
#include "roofline/power.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "catalog_data.hpp"
#include "roofline/error.hpp"
#include "roofline/units.hpp"

namespace roofline {
namespace {

using json = nlohmann::json;

/// A parameter's "value", a share in [0, 1]: a power.json that says otherwise is broken, not read as something else.
double share(const json& p, const char* key) {
    const auto it = p.find(key);
    const json* v = it != p.end() && it->is_object() && it->contains("value") ? &(*it)["value"] : nullptr;
    if (!v || !v->is_number() || !(v->get<double>() >= 0) || !(v->get<double>() <= 1))
        throw Error::of_call(Status::internal, "", "",
                             fmt::format("power.json: \"{}\" needs a \"value\" in [0, 1]", key));
    return v->get<double>();
}

PowerModel read_power_model() {
    const json p = json::parse(detail::kPowerJson);
    PowerModel m;
    m.active = share(p, "active");
    m.compute = share(p, "compute");
    const json& memory = p.at("memory");
    m.memory_hbm = share(memory, "HBM");
    m.memory_gddr = share(memory, "GDDR");
    m.memory_lpddr = share(memory, "LPDDR");
    m.idle_fraction = share(p, "idle_fraction");
    m.host_fraction = share(p, "host_fraction");
    return m;
}

}  // namespace

const PowerModel& power_model() {
    static const PowerModel m = read_power_model();
    return m;
}

double memory_share(const GpuSpec& gpu, const PowerModel& model) noexcept {
    if (gpu.memory_kind == "GDDR") return model.memory_gddr;
    if (gpu.memory_kind == "LPDDR") return model.memory_lpddr;
    return model.memory_hbm;
}

double idle_power_w(const GpuSpec& gpu, const PowerModel& model) noexcept {
    return gpu.idle_w > 0 ? gpu.idle_w : model.idle_fraction * gpu.power_w;
}

double host_power_w(const GpuSpec& gpu, const PowerModel& model) noexcept {
    return gpu.host_w > 0 ? gpu.host_w : model.host_fraction * gpu.power_w;
}

StepEnergy step_energy(const std::vector<Operator>& ops, const GpuSpec& gpu, double step_ms, const PowerModel& model) {
    if (!(gpu.power_w > 0))
        throw Error::of_call(Status::no_solution, "", "gpu", fmt::format("the catalog has no board power (power_w) for '{}'", gpu.id));
    if (!(step_ms > 0) || !std::isfinite(step_ms))
        throw Error::of_call(Status::internal, "", "", fmt::format("step_energy: a step of {} ms", step_ms));
    double compute_ms = 0, memory_ms = 0;
    for (const Operator& op : ops) {
        const double peak = gpu.peak_tflops(op.compute);
        if (op.flops > 0 && peak > 0)
            compute_ms += units::ms_from_seconds(timed_flops(op, gpu) / units::flops_per_second_from_tflops(peak));
        if (op.bytes > 0) memory_ms += units::ms_from_seconds(op.bytes / units::bytes_per_second_from_tbs(gpu.hbm_tbs));
    }
    const double idle = idle_power_w(gpu, model);
    const double dynamic_ms = std::min(step_ms, model.active * step_ms + model.compute * compute_ms + memory_share(gpu, model) * memory_ms);
    StepEnergy e;
    e.joules = units::seconds_from_ms(idle * step_ms + (gpu.power_w - idle) * dynamic_ms);
    e.watts = e.joules / units::seconds_from_ms(step_ms);
    e.compute_use = compute_ms / step_ms;
    e.memory_use = memory_ms / step_ms;
    return e;
}

}  // namespace roofline
