// fit-profiles: fits every profile the measured rows name (`typical` on all of them, each engine's profile on
// its own rows) and writes libroofline/catalog/profiles.json (committed, embedded into the library at build
// time) and the per-row errors beside it.
//
//   build/tools/fit-profiles PROFILES.json ROWS.csv MEASUREMENTS.csv...
//
// scripts/fit-profiles runs it on tests/data/measurements.csv and tests/data/calibration/*.csv. The parameters
// (roofline/calibrate.hpp, kFitParameters) are fitted by the library's one fitter (as ROOFLINE_CALIBRATE fits a
// user's rows): it minimises the sum of |log(predicted / measured)|, a robust loss that no single row dominates.
// A profile's own parameters are fitted on its NVIDIA rows; each other vendor with enough rows
// (calibration_rows::kMinVendorRows) gets a variant fitted on its rows ("vendors" in profiles.json), which GPUs
// of that vendor run under. An engine's profile starts from `typical`'s fit (of its vendor), so a parameter its
// rows cannot tell keeps typical's value. The errors are the median absolute percentage error on the rows and,
// honestly, in leave-one-out cross-validation (each row predicted by a fit that never saw it); ROWS.csv has
// every row's measured, fitted and leave-one-out times, which bench/accuracy.cpp reports by group.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <future>
#include <iostream>
#include <thread>

#include "calibration_rows.hpp"

using namespace roofline;
using calibration_rows::Case;

namespace {

// Where the fit of `typical` starts. NCCL reaches well over half of NVLink or PCIe bandwidth on large all-reduces:
// below 0.5 (the fitter's limit) interconnect efficiency would only stand in for fixed costs.
Profile start_profile() {
    Profile p = with_parameters(Profile{}, {{"bw", 0.8}, {"mfu", 0.6}, {"link", 0.7}, {"step_ms", 1.0},
                                            {"allreduce_us", 10.0}, {"alltoall_us", 10.0}});
    p.name = "fit";
    return p;
}

/// The parameters as profiles.json keeps them (4 decimals), so that the rows' predictions are the library's.
Profile rounded(Profile p) {
    for (const FitParameter& f : kFitParameters) p.*f.field = std::round(p.*f.field * 1e4) / 1e4;
    return p;
}

std::vector<const CalibrationCase*> as_cases(const std::vector<const Case*>& cases) {
    return {cases.begin(), cases.end()};
}

struct Group {
    std::string profile, vendor;  ///< vendor: "" for the profile's own parameters
    std::vector<const Case*> rows;
    Profile start, fitted;
    FitMask free;  ///< the parameters this fit moves
    std::vector<double> predicted, loo;
};

/// What each fit moves. `typical`'s own parameters: all of them, on the most rows. A vendor's variant: what the
/// hardware's kernels reach (bandwidth, compute, attention) and the fixed cost of a step; the costs of layers and
/// collectives stay its profile's (its rows are few, and those costs belong to the engine), but for one that the
/// profile's own rows cannot tell (variant_moves). An engine's own parameters: the same, its cost per layer (graph
/// capture) and per routed expert (a kernel per expert, or one fused); token-dependent compute and collectives stay
/// typical's (few of an engine's rows tell them).
constexpr FitMask kVariantMoves = {true, true, false, true, false, false, true, false, false, false};
constexpr FitMask kEngineMoves = {true, true, false, true, false, false, true, true, false, true};
static_assert(kFitParameters[6].field == &Profile::attention_efficiency && kFitParameters[7].field == &Profile::layer_overhead_us &&
              kFitParameters[9].field == &Profile::expert_overhead_us);

/// What an engine's own fit moves: kEngineMoves, but the compute and attention efficiencies only where the engine has
/// rows of a forward pass alone (decode steps, prefills) to tell them: a serving TPOT carries the engine's serving
/// loop, and fitted alone on such rows those efficiencies take up what the model lacks (vllm's 0.18 and 0.25 in
/// 0.10, issue #31). Without such rows they stay typical's.
FitMask engine_moves(const std::vector<const Case*>& rows) {
    FitMask moves = kEngineMoves;
    const bool forward_pass = std::any_of(rows.begin(), rows.end(), [](const Case* c) {
        return c->metric == "step_ms" || c->metric == "ttft_ms";
    });
    if (!forward_pass) {
        moves[fit_index(&Profile::compute_efficiency)] = false;
        moves[fit_index(&Profile::attention_efficiency)] = false;
    }
    return moves;
}

/// What a vendor's variant moves: kVariantMoves, and each parameter that the profile's own fit moves but that none of
/// its rows depends on (its value changes no prediction): the profile's rows cannot tell it, the variant's may
/// (llama.cpp's own rows, on NVIDIA GPUs, are of dense models; its AMD rows, of DeepSeek-V3, tell its cost per
/// routed expert).
FitMask variant_moves(const Group& own) {
    FitMask moves = kVariantMoves;
    for (std::size_t k = 0; k < kFitParameterCount; ++k) {
        if (moves[k] || !own.free[k]) continue;
        const FitParameter& f = kFitParameters[k];
        Profile other = own.fitted;
        other.*f.field = own.fitted.*f.field == f.hi ? f.lo : f.hi;
        moves[k] = std::none_of(own.rows.begin(), own.rows.end(),
                                [&](const Case* c) { return predict_ms(*c, other) != predict_ms(*c, own.fitted); });
    }
    return moves;
}

/// Fits the group, then each row again without it (on the machine's cores: each fit is independent).
void fit(Group& g) {
    g.fitted = rounded(fit_profile(as_cases(g.rows), g.start, FitSearch::polished, g.free));
    g.predicted.clear();
    for (const Case* c : g.rows) g.predicted.push_back(predict_ms(*c, g.fitted));
    g.loo.assign(g.rows.size(), 0);
    const std::size_t workers = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::future<void>> running;
    for (std::size_t w = 0; w < workers; ++w)
        running.push_back(std::async(std::launch::async, [&, w] {
            for (std::size_t i = w; i < g.rows.size(); i += workers) {
                std::vector<const Case*> rest;
                for (const Case* o : g.rows)
                    if (o != g.rows[i]) rest.push_back(o);
                g.loo[i] = predict_ms(*g.rows[i], rounded(fit_profile(as_cases(rest), g.start, FitSearch::polished, g.free)));
            }
        }));
    for (auto& r : running) r.get();
}

nlohmann::ordered_json errors(const Group& g) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const std::string metric : {"step_ms", "ttft_ms", "tpot_ms", "e2e_ms"}) {
        std::vector<double> train, loo;
        for (std::size_t i = 0; i < g.rows.size(); ++i) {
            if (g.rows[i]->metric != metric) continue;
            train.push_back(std::abs(g.predicted[i] / g.rows[i]->measured_ms - 1) * 100);
            loo.push_back(std::abs(g.loo[i] / g.rows[i]->measured_ms - 1) * 100);
        }
        if (train.empty()) continue;
        out[metric] = {{"rows", train.size()},
                       {"fitted", std::round(calibration_rows::median(train) * 10) / 10},
                       {"leave_one_out", std::round(calibration_rows::median(loo) * 10) / 10}};
        fmt::print("  {:<13} {:<7} {:<8} rows {:3}  MdAPE fitted {:5.1f}%  leave-one-out {:5.1f}%\n", g.profile,
                   g.vendor.empty() ? "all" : g.vendor, metric, train.size(), calibration_rows::median(train),
                   calibration_rows::median(loo));
    }
    return out;
}

/// A "set" entry that names a fitted parameter (kFitParameters' JSON name: typical's allreduce_latency_us, measured
/// on the engines' all-reduce kernels) holds it at that value: the fit starts there and does not move it.
void hold_set(const nlohmann::ordered_json& set, Profile& start, FitMask& moves) {
    if (!set.is_object()) return;
    for (std::size_t k = 0; k < kFitParameterCount; ++k)
        if (const std::string key(kFitParameters[k].json); set.contains(key)) {
            start.*kFitParameters[k].field = set[key].get<double>();
            moves[k] = false;
        }
}

nlohmann::ordered_json parameters(const Profile& p) {
    nlohmann::ordered_json out;
    for (const FitParameter& f : kFitParameters) out[std::string(f.json)] = p.*f.field;
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        fmt::print(stderr, "usage: fit-profiles PROFILES.json ROWS.csv MEASUREMENTS.csv...\n");
        return 2;
    }
    std::vector<Case> cases;
    try {
        cases = calibration_rows::read_cases({argv + 3, argv + argc});
    } catch (const std::exception& e) {
        fmt::print(stderr, "fit-profiles: {}\n", e.what());
        return 1;
    }

    // A profile's "set" parameters (documented, not fitted) are kept from the file being rewritten; a new profile
    // takes typical's.
    nlohmann::ordered_json previous;
    if (std::ifstream in(argv[1]); in) previous = nlohmann::ordered_json::parse(in, nullptr, false);
    // A profile's entry of the file, and its "set"; a vendor's variant may have "set" parameters of its own
    // (measured on that vendor's GPUs), kept the same way.
    const auto entry_of = [&](const std::string& name) {
        if (previous.is_object() && previous.contains("profiles"))
            for (const auto& p : previous["profiles"])
                if (p.value("name", "") == name) return p;
        return nlohmann::ordered_json::object();  // not in the file: no set parameters
    };
    const auto set_of = [&](const std::string& name) { return entry_of(name).value("set", nlohmann::ordered_json()); };
    const auto vendor_set_of = [&](const std::string& name, const std::string& vendor) {
        const auto vendors = entry_of(name).value("vendors", nlohmann::ordered_json::object());
        return vendors.contains(vendor) ? vendors.at(vendor).value("set", nlohmann::ordered_json()) : nlohmann::ordered_json();
    };

    nlohmann::ordered_json out;
    out["about"] =
        "Profiles fitted by tools/fit-profiles.cpp (scripts/fit-profiles) on tests/data/measurements.csv (a committed "
        "copy of shared/reference/measurements.csv) and tests/data/calibration/*.csv: `typical` on every row, each "
        "engine's profile on the rows of that engine. Parameters (roofline/calibrate.hpp, kFitParameters): fitted on "
        "all rows of the profile at once by minimising the sum of |log(predicted/measured)|, on its NVIDIA rows; "
        "'vendors' holds a variant fitted on another vendor's rows, which that vendor's GPUs run under. An engine's "
        "profile starts from typical's fit, so a parameter its rows cannot tell keeps typical's value. Errors: median "
        "absolute percentage error on the rows, and in leave-one-out cross-validation "
        "(tests/data/calibration/fit-rows.csv has every row's). A profile's 'set' parameters are not fitted: each is "
        "documented with its source in 'sources', and the fitter keeps them.";
    out["profiles"] = nlohmann::json::array();
    std::ofstream rows_out(argv[2]);
    rows_out << "profile,variant,id,engine,vendor,kind,metric,measured_ms,predicted_ms,loo_predicted_ms\n";

    std::map<std::string, Profile> typical_of;  // typical's fit per vendor ("" for its own parameters)
    for (const std::string& name : calibration_rows::profile_names(cases)) {
        std::map<std::string, std::vector<const Case*>> by_vendor;
        std::vector<const Case*> held_out;
        for (const Case& c : cases)
            if (calibration_rows::fits(c, name) && c.held_out) held_out.push_back(&c);
            else if (calibration_rows::fits(c, name)) by_vendor[c.vendor == calibration_rows::kMainVendor ? "" : c.vendor].push_back(&c);
        // Vendors with too few rows join the main fit; with no NVIDIA rows, the largest vendor is the main fit.
        for (auto it = by_vendor.begin(); it != by_vendor.end();) {
            if (!it->first.empty() && it->second.size() < calibration_rows::kMinVendorRows) {
                auto& main_rows = by_vendor[""];
                main_rows.insert(main_rows.end(), it->second.begin(), it->second.end());
                it = by_vendor.erase(it);
            } else {
                ++it;
            }
        }
        if (by_vendor[""].empty()) {
            by_vendor.erase("");
            auto largest = std::max_element(by_vendor.begin(), by_vendor.end(),
                                            [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
            auto rows = std::move(largest->second);
            by_vendor.erase(largest);
            by_vendor[""] = std::move(rows);
        }
        // The "set" parameters (not fitted) are the profile's in the fit too, as the library reads them.
        auto set = set_of(name);
        if (set.is_null()) set = set_of("typical");
        Profile base = name == "typical" ? start_profile() : typical_of.at("");
        if (!set.is_null()) {
            for (const SetParameter& s : kSetParameters) base.*s.field = set.value(std::string(s.json), s.absent);
            base.overlap_expert_traffic = set.value("overlap_expert_traffic", false);
        }
        Group main{name, "", by_vendor[""], base, {}, name == "typical" ? kFitAll : engine_moves(by_vendor[""]), {}, {}};
        hold_set(set, main.start, main.free);
        main.start.name = name;
        fit(main);
        nlohmann::ordered_json prof;
        prof["name"] = name;
        std::vector<std::string> engines;
        for (const auto& [vendor, rows] : by_vendor)
            for (const Case* c : rows)
                if (std::find(engines.begin(), engines.end(), c->engine) == engines.end()) engines.push_back(c->engine);
        std::sort(engines.begin(), engines.end());
        prof["engines"] = engines;
        prof["rows"] = main.rows.size();
        prof["fitted"] = parameters(main.fitted);
        prof["mdape_percent"] = errors(main);
        std::vector<Group> variants;
        for (const auto& [vendor, rows] : by_vendor) {
            if (vendor.empty()) continue;
            Profile start = name == "typical" || !typical_of.count(vendor) ? main.fitted : typical_of.at(vendor);
            start.expert_imbalance = base.expert_imbalance;
            start.overlap_expert_traffic = base.overlap_expert_traffic;
            start.name = name;
            // The set parameters as the library reads the variant's: the profile's, then the variant's own.
            const auto own_set = vendor_set_of(name, vendor);
            for (const SetParameter& s : kSetParameters)
                start.*s.field = own_set.contains(std::string(s.json)) ? own_set[std::string(s.json)].get<double>()
                                                                        : base.*s.field;
            Group v{name, vendor, rows, start, {}, variant_moves(main), {}, {}};
            hold_set(set, v.start, v.free);
            hold_set(own_set, v.start, v.free);
            fit(v);
            prof["vendors"][vendor] = {{"rows", v.rows.size()}, {"fitted", parameters(v.fitted)}, {"mdape_percent", errors(v)}};
            if (!own_set.is_null()) prof["vendors"][vendor]["set"] = own_set;
            variants.push_back(std::move(v));
        }
        if (name == "typical") {
            typical_of[""] = main.fitted;
            for (const Group& v : variants) typical_of[v.vendor] = v.fitted;
        }
        if (!set.is_null()) prof["set"] = set;
        out["profiles"].push_back(prof);
        fmt::print("{:13} {}\n", name, prof["fitted"].dump());
        // Held-out rows: predicted by the fit of their vendor (never fitted on them: their "leave-one-out" is that).
        Group held{name, "held-out", held_out, {}, {}, {}, {}, {}};
        for (const Case* c : held_out) {
            const Group* by = &main;
            for (const Group& v : variants)
                if (v.vendor == c->vendor) by = &v;
            held.predicted.push_back(predict_ms(*c, by->fitted));
            held.loo.push_back(held.predicted.back());
        }
        if (!held_out.empty()) prof["held_out"] = errors(held);
        variants.insert(variants.begin(), std::move(main));
        variants.push_back(std::move(held));
        for (const Group& g : variants)
            for (std::size_t i = 0; i < g.rows.size(); ++i) {
                const Case& c = *g.rows[i];
                rows_out << fmt::format("{},{},{},\"{}\",{},{},{},{},{:.4f},{:.4f}\n", name,
                                        g.vendor.empty() ? "main" : g.vendor, c.id, c.engine, c.vendor, c.kind, c.metric,
                                        c.measured_ms, g.predicted[i], g.loo[i]);
            }
    }
    std::ofstream(argv[1]) << out.dump(2) << "\n";
    fmt::print("wrote {} and {}\n", argv[1], argv[2]);
    return 0;
}
