// fit-profiles: fits the `typical` and `llama.cpp` profiles on tests/data/measurements.csv and writes
// libroofline/catalog/profiles.json (committed, embedded into the library at build time).
//
//   build/tools/fit-profiles tests/data/measurements.csv libroofline/catalog/profiles.json
//
// Each profile has five parameters (achieved fractions of bandwidth, compute and interconnect, a fixed
// cost per forward pass, a fixed cost per all-reduce), fitted on every row of its profile at once by
// minimising the sum of |log(predicted / measured)|: a robust loss that no single row dominates. The
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
#include "roofline/catalog.hpp"
#include "roofline/operators.hpp"

using namespace roofline;

namespace {

struct Case {
    std::string id, metric, profile;
    double measured = 0;
    std::vector<Operator> ops;
    GpuSpec gpu;
};

constexpr std::array<const char*, 5> kNames{"bandwidth_efficiency", "compute_efficiency", "interconnect_efficiency",
                                            "step_overhead_ms", "allreduce_latency_us"};
// NCCL reaches well over half of NVLink or PCIe bandwidth on large all-reduces: below 0.5 the fit would only
// stand in for per-step costs that step_overhead_ms and allreduce_latency_us are there to model.
constexpr std::array<double, 5> kLo{0.3, 0.1, 0.5, 0.0, 0.0};
constexpr std::array<double, 5> kHi{1.0, 1.0, 1.0, 10.0, 100.0};
using Params = std::array<double, 5>;

Profile profile(const std::string& name, const Params& p) { return {name, p[0], p[1], p[2], p[3], p[4]}; }

double predict(const Case& c, const Params& p) {
    std::vector<Operator> ops = c.ops;
    return estimate(ops, c.gpu, profile("fit", p));
}

double loss(const std::vector<const Case*>& cases, const Params& p) {
    double l = 0;
    for (const Case* c : cases) l += std::abs(std::log(predict(*c, p) / c->measured));
    return l;
}

/// Coordinate descent on a shrinking grid; deterministic.
Params fit(const std::vector<const Case*>& cases) {
    Params p{0.8, 0.6, 0.7, 1.0, 10.0};
    for (int round = 0; round < 12; ++round) {
        const double span = std::pow(0.6, round);
        for (std::size_t k = 0; k < p.size(); ++k) {
            const double lo = std::max(kLo[k], p[k] - span * (kHi[k] - kLo[k]));
            const double hi = std::min(kHi[k], p[k] + span * (kHi[k] - kLo[k]));
            double best = loss(cases, p), best_v = p[k];
            for (int i = 0; i <= 40; ++i) {
                Params q = p;
                q[k] = lo + (hi - lo) * i / 40;
                const double l = loss(cases, q);
                if (l < best - 1e-12) best = l, best_v = q[k];
            }
            p[k] = best_v;
        }
    }
    return p;
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
        c.measured = r.number("value");
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
        const Params p = fit(mine);
        nlohmann::ordered_json prof;
        prof["name"] = name;
        prof["rows"] = mine.size();
        for (std::size_t k = 0; k < p.size(); ++k) prof["fitted"][kNames[k]] = std::round(p[k] * 1e4) / 1e4;
        for (const std::string metric : {"step_ms", "ttft_ms"}) {
            std::vector<double> train, loo;
            for (const Case* c : mine) {
                if (c->metric != metric) continue;
                train.push_back(std::abs(predict(*c, p) / c->measured - 1) * 100);
                std::vector<const Case*> rest;
                for (const Case* o : mine)
                    if (o != c) rest.push_back(o);
                loo.push_back(std::abs(predict(*c, fit(rest)) / c->measured - 1) * 100);
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
