// fit-profiles: fits the `typical` and `llama.cpp` profiles on tests/data/measurements.csv and writes
// libroofline/catalog/profiles.json (committed, embedded into the library at build time).
//
//   build/tools/fit-profiles tests/data/measurements.csv libroofline/catalog/profiles.json
//
// Each profile has five parameters (achieved fractions of bandwidth, compute and interconnect, a fixed
// cost per forward pass, a fixed cost per all-reduce), fitted on every row of its profile at once by the
// library's one fitter (roofline/calibrate.hpp, as ROOFLINE_CALIBRATE fits a user's rows): it minimises the
// sum of |log(predicted / measured)|, a robust loss that no single row dominates. The
// operators of each row come from the same per-operator model the formulas use. The file also records
// the errors on the rows and, honestly, in leave-one-out cross-validation (each row predicted by a fit
// that never saw it).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <iostream>

#include "measurements.hpp"
#include "roofline/calibrate.hpp"
#include "roofline/catalog.hpp"
#include "roofline/operators.hpp"

using namespace roofline;

namespace {

struct Case : CalibrationCase {
    std::string id, profile;
};

constexpr std::array<const char*, 5> kNames{"bandwidth_efficiency", "compute_efficiency", "interconnect_efficiency",
                                            "step_overhead_ms", "allreduce_latency_us"};
// Where the fit starts (calibrate.hpp: the one fitter; its limits are FitLimits). NCCL reaches well over half of
// NVLink or PCIe bandwidth on large all-reduces: below 0.5 (FitLimits) interconnect efficiency would only stand in
// for per-step costs that step_overhead_ms and allreduce_latency_us are there to model.
const Profile kStart{"fit", 0.8, 0.6, 0.7, 1.0, 10.0};

std::array<double, 5> params(const Profile& p) {
    return {p.bandwidth_efficiency, p.compute_efficiency, p.interconnect_efficiency, p.step_overhead_ms,
            p.allreduce_latency_us};
}

std::vector<const CalibrationCase*> as_cases(const std::vector<const Case*>& cases) {
    return {cases.begin(), cases.end()};
}

double median(std::vector<double> v) {
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        fmt::print(stderr, "usage: fit-profiles MEASUREMENTS.csv PROFILES.json\n");
        return 2;
    }
    std::vector<Case> cases;
    for (const auto& r : measurements::read(argv[1])) {
        Case c;
        c.id = r["id"];
        c.metric = r["metric"];
        c.profile = r["profile"];
        c.measured_ms = r.number("value");
        const auto model = find_model(r["model"]);
        const auto gpu = find_gpu(r["gpu"]);
        const auto w = parse_dtype(r["weight_dtype"]), kv = parse_dtype(r["kv_dtype"]);
        if (!model || !gpu || !w || !kv) {
            fmt::print(stderr, "fit-profiles: row {}: unknown model, GPU or dtype\n", c.id);
            return 1;
        }
        c.gpu = *gpu;
        const Deployment d{*model, *gpu, *w, *kv, r.number("tp")};
        if (c.metric == "step_ms") c.ops = decode_operators(d, r.number("batch"), r.number("ctx_mean"));
        else c.ops = prefill_operators(d, r.number("batch"), r.number("prompt_tokens"));
        cases.push_back(std::move(c));
    }

    // A profile's "set" parameters (documented, not fitted) are kept from the file being rewritten.
    nlohmann::ordered_json previous;
    if (std::ifstream in(argv[2]); in) previous = nlohmann::ordered_json::parse(in, nullptr, false);
    const auto set_of = [&](const std::string& name) {
        if (previous.is_object() && previous.contains("profiles"))
            for (const auto& p : previous["profiles"])
                if (p.value("name", "") == name && p.contains("set")) return p["set"];
        return nlohmann::ordered_json();
    };
    nlohmann::ordered_json out;
    out["about"] = "Profiles fitted by tools/fit-profiles.cpp on tests/data/measurements.csv (a committed copy of "
                   "shared/reference/measurements.csv): five parameters per profile, fitted on all rows of the profile "
                   "at once by minimising the sum of |log(predicted/measured)|. Rerun: scripts/fit-profiles. "
                   "Errors: median absolute percentage error on the rows, and in leave-one-out cross-validation. A "
                   "profile's 'set' parameters are not fitted: each is documented with its source in 'sources', and "
                   "the fitter keeps them.";
    out["profiles"] = nlohmann::json::array();
    for (const std::string name : {"typical", "llama.cpp"}) {
        std::vector<const Case*> mine;
        for (const Case& c : cases)
            if (c.profile == name) mine.push_back(&c);
        const Profile fitted = fit_profile(as_cases(mine), kStart);
        const auto p = params(fitted);
        nlohmann::ordered_json prof;
        prof["name"] = name;
        prof["rows"] = mine.size();
        for (std::size_t k = 0; k < p.size(); ++k) prof["fitted"][kNames[k]] = std::round(p[k] * 1e4) / 1e4;
        for (const std::string metric : {"step_ms", "ttft_ms"}) {
            std::vector<double> train, loo;
            for (const Case* c : mine) {
                if (c->metric != metric) continue;
                train.push_back(std::abs(predict_ms(*c, fitted) / c->measured_ms - 1) * 100);
                std::vector<const Case*> rest;
                for (const Case* o : mine)
                    if (o != c) rest.push_back(o);
                loo.push_back(std::abs(predict_ms(*c, fit_profile(as_cases(rest), kStart)) / c->measured_ms - 1) * 100);
            }
            if (train.empty()) continue;
            prof["mdape_percent"][metric] = {{"rows", train.size()},
                                             {"fitted", std::round(median(train) * 10) / 10},
                                             {"leave_one_out", std::round(median(loo) * 10) / 10}};
            fmt::print("{:10} {:8} rows {:3}  MdAPE fitted {:5.1f}%  leave-one-out {:5.1f}%\n", name, metric, train.size(),
                       median(train), median(loo));
        }
        if (auto set = set_of(name); !set.is_null()) prof["set"] = set;
        out["profiles"].push_back(prof);
        fmt::print("{:10} {}\n", name, prof["fitted"].dump());
    }
    std::ofstream(argv[2]) << out.dump(2) << "\n";
    fmt::print("wrote {}\n", argv[2]);
    return 0;
}
