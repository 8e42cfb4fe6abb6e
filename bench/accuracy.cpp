// roofline-accuracy: how far the profiles' predictions are from published and measured steps, honestly.
//
//   build/bench/roofline-accuracy [--summary] [--rows FIT-ROWS.csv] [MEASUREMENTS.csv...]
//
// Without files: tests/data/measurements.csv and tests/data/calibration/{h200-graph,engines}.csv, and the
// leave-one-out predictions of tests/data/calibration/fit-rows.csv (tools/fit-profiles writes them: a
// leave-one-out error needs a fit per row, minutes, so it is done once, when the profiles are fitted). For every
// row and every profile fitted on it (`typical` on all rows, the engine's profile on its own), the measured
// value, `bound`'s prediction, the fitted profile's (computed now, by the library; a row of step_ms or ttft_ms
// also through the C ABI, as every host computes it) and its leave-one-out prediction; then the median absolute
// percentage error (MdAPE), fitted and leave-one-out, by profile and metric, by profile, GPU vendor and metric, by
// engine and by model kind (dense, MoE, MLA, hybrid). --summary prints the tables only.
// Then every built-in profile's fitted parameters against their ranges (calibrate.hpp).
// Exit status 1 when `bound` is above a measurement (no engine beats it), when a fitted parameter is outside its
// range, when fit-rows.csv does not hold what
// the library computes now (rerun scripts/fit-profiles), or when the C ABI and the library disagree; 2 on bad
// arguments.
#include <roofline.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "calibration_rows.hpp"
#include "roofline/calibrate.hpp"
#include "roofline/serving.hpp"

namespace {

using calibration_rows::Case;

struct FitRow {
    std::string profile, variant;
    double predicted = NAN, loo = NAN;
};

/// The row's time through the C ABI (step_ms and ttft_ms rows in tensor parallelism; TTFT_MS with the KV cache in
/// 16 bits, which it assumes), NAN where it has no formula.
double through_c_abi(const measurements::Row& r, const std::string& profile) {
    double out = NAN;
    if (calibration_rows::number_or(r, "ep", 1) != 1 || calibration_rows::number_or(r, "dp_attention", 1) != 1) return NAN;
    if (r["metric"] == "ttft_ms" && r["kv_dtype"] != "bf16" && r["kv_dtype"] != "fp16") return NAN;
    int st = ROOFLINE_OK;
    if (r["metric"] == "step_ms")
        st = roofline_step_ms(r["model"].c_str(), r["gpu"].c_str(), r.number("batch"), r.number("ctx_mean"),
                              r["weight_dtype"].c_str(), r["kv_dtype"].c_str(), r.number("tp"), profile.c_str(), &out);
    else if (r["metric"] == "ttft_ms")
        st = roofline_ttft_ms(r["model"].c_str(), r["gpu"].c_str(), r.number("prompt_tokens"), r.number("batch"),
                              r["weight_dtype"].c_str(), r.number("tp"), profile.c_str(), &out);
    else
        return NAN;
    if (st != ROOFLINE_OK) fmt::print(stderr, "{}: {}\n", r["id"], roofline_errmsg());
    return out;
}

double error_percent(double predicted, double measured) { return (predicted / measured - 1) * 100; }

struct Errors {
    std::vector<double> fitted, loo;
};

void print_table(const std::string& title, const std::map<std::vector<std::string>, Errors>& groups,
                 const std::vector<std::string>& columns) {
    fmt::print("\n{}\n", title);
    std::string header;
    for (const auto& c : columns) header += fmt::format("{:<14}", c);
    fmt::print("  {}{:>5} {:>9} {:>14}\n", header, "rows", "fitted", "leave-one-out");
    for (const auto& [key, e] : groups) {
        std::string k;
        for (const auto& c : key) k += fmt::format("{:<14}", c);
        fmt::print("  {}{:>5} {:>8.1f}% {:>13.1f}%\n", k, e.fitted.size(), calibration_rows::median(e.fitted),
                   calibration_rows::median(e.loo));
    }
}

}  // namespace

int main(int argc, char** argv) {
    bool summary = false;
    std::string rows_path = "tests/data/calibration/fit-rows.csv";
    std::vector<std::string> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--summary") summary = true;
        else if (a == "--rows" && i + 1 < argc) rows_path = argv[++i];
        else if (!a.empty() && a[0] == '-') {
            fmt::print(stderr, "usage: roofline-accuracy [--summary] [--rows FIT-ROWS.csv] [MEASUREMENTS.csv...]\n");
            return 2;
        } else paths.push_back(a);
    }
    if (paths.empty())
        paths = {"tests/data/measurements.csv", "tests/data/calibration/h200-graph.csv", "tests/data/calibration/engines.csv"};

    // The models of the configs folders, in the library's catalog and in the C ABI's (libroofline.so's own).
    for (const auto& [id, text] : calibration_rows::add_configs_beside(paths))
        if (roofline_model_import_hf_config(id.c_str(), text.c_str()) != ROOFLINE_OK)
            fmt::print(stderr, "roofline-accuracy: {}: {}\n", id, roofline_errmsg());
    // (profile, id) -> the fit's row.
    std::map<std::pair<std::string, std::string>, FitRow> fit_rows;
    for (const auto& r : measurements::read(rows_path))
        fit_rows[{r["profile"], r["id"]}] = {r["profile"], r["variant"], r.number("predicted_ms"), r.number("loo_predicted_ms")};

    std::map<std::vector<std::string>, Errors> by_profile, by_vendor, by_engine, by_kind;
    int above = 0, stale = 0, disagree = 0, rows = 0;
    if (!summary)
        fmt::print("{:<34} {:<13} {:<24} {:<7} {:>9} {:>9} {:>7} {:<13} {:>9} {:>7} {:>7}\n", "id", "gpu", "model", "metric",
                   "measured", "bound", "err", "profile", "predicted", "err", "loo");
    for (const std::string& path : paths) {
        for (const auto& r : measurements::read(path)) {
            Case c;
            try {
                c = calibration_rows::to_case(r);
            } catch (const std::exception& e) {
                fmt::print(stderr, "roofline-accuracy: {}: {}\n", path, e.what());
                return 2;
            }
            ++rows;
            const double bound = roofline::predict_ms(c, *roofline::find_profile("bound"));
            if (!(bound <= c.measured_ms)) ++above;
            for (const std::string& profile : {std::string("typical"), c.profile}) {
                if (!calibration_rows::fits(c, profile)) continue;
                const auto it = fit_rows.find({profile, c.id});
                if (it == fit_rows.end()) {
                    fmt::print(stderr, "{}: no row '{}' of profile '{}': rerun scripts/fit-profiles\n", rows_path, c.id, profile);
                    ++stale;
                    continue;
                }
                const double predicted = roofline::predict_ms(c, *roofline::find_profile(profile));
                if (!(std::abs(predicted / it->second.predicted - 1) < 1e-4)) {
                    fmt::print(stderr, "{}: row '{}' of '{}': {} ms there, {} ms now: rerun scripts/fit-profiles\n",
                               rows_path, c.id, profile, it->second.predicted, predicted);
                    ++stale;
                }
                const double abi = through_c_abi(r, profile);
                if (!std::isnan(abi) && !(std::abs(abi / predicted - 1) < 1e-9)) {
                    fmt::print(stderr, "row '{}': the C ABI gives {} ms, the library {} ms\n", c.id, abi, predicted);
                    ++disagree;
                }
                const double e = error_percent(predicted, c.measured_ms), l = error_percent(it->second.loo, c.measured_ms);
                // Held-out rows (engine builds before calibration_rows::kFitFrom) apart: never fitted on.
                const std::string metric = c.held_out ? c.metric + " held" : c.metric;
                for (auto* g : {&by_profile, &by_vendor, &by_engine, &by_kind}) {
                    std::vector<std::string> key;
                    if (g == &by_profile) key = {profile, metric};
                    else if (g == &by_vendor) key = {profile, c.vendor, metric};
                    else if (g == &by_engine) key = {profile, c.engine.substr(0, 13), metric};
                    else key = {profile, c.kind, metric};
                    (*g)[key].fitted.push_back(std::abs(e));
                    (*g)[key].loo.push_back(std::abs(l));
                }
                if (!summary)
                    fmt::print("{:<34} {:<13} {:<24} {:<7} {:>9.2f} {:>9.2f} {:>6.1f}% {:<13} {:>9.2f} {:>6.1f}% {:>6.1f}%\n",
                               c.id.substr(0, 34), r["gpu"], r["model"], c.metric, c.measured_ms, bound,
                               error_percent(bound, c.measured_ms), profile, predicted, e, l);
                if (c.profile == "typical") break;  // fitted by typical alone
            }
        }
    }
    fmt::print("\nMedian absolute percentage error: fitted (on the rows the profile was fitted on) and leave-one-out "
               "(each row predicted by a fit without it). {} rows. 'held': rows of engine builds before {}, never "
               "fitted on (both columns: the fit's prediction).\n",
               rows, calibration_rows::kFitFrom);
    print_table("By profile and metric", by_profile, {"profile", "metric"});
    print_table("By profile, GPU vendor and metric (a vendor with a variant of its own: profiles.json 'vendors')",
                by_vendor, {"profile", "vendor", "metric"});
    print_table("By engine (the profile the rows fit: typical and the engine's own)", by_engine,
                {"profile", "engine", "metric"});
    print_table("By model kind", by_kind, {"profile", "kind", "metric"});
    // Every fitted parameter of every built-in profile (and its vendors' variants) against the range the fitter keeps
    // it in (calibrate.hpp, kFitParameters): outside is an error; at an end, the data pushing it there is shown.
    fmt::print("\nFitted parameters against their ranges (roofline/calibrate.hpp, kFitParameters; 'floor'/'ceiling': at "
               "an end of the range)\n");
    int outside = 0;
    for (const std::string& name : roofline::profile_names()) {
        const roofline::Profile& base = *roofline::find_profile(name);
        if (roofline::serving::is_bound(base)) continue;
        std::vector<std::pair<std::string, const roofline::Profile*>> variants{{"", &base}};
        for (const auto& [vendor, v] : base.vendors) variants.emplace_back(vendor, v.get());
        for (const auto& [vendor, p] : variants) {
            std::string line = fmt::format("  {:<13} {:<7}", name, vendor.empty() ? "all" : vendor);
            for (const roofline::FitParameter& f : roofline::kFitParameters) {
                const double v = p->*f.field;
                const bool out = v < f.lo || v > f.hi;
                outside += out;
                const char* mark = out ? " OUTSIDE" : v == f.lo && f.lo > 0 ? " floor" : v == f.hi ? " ceiling" : "";
                line += fmt::format(" {}={:.4g}{}", f.key, v, mark);
            }
            fmt::print("{}\n", line);
        }
    }
    fmt::print("parameters outside their ranges: {}\n", outside);
    fmt::print("\nbound above a measurement: {} of {} rows\n", above, rows);
    if (stale > 0) fmt::print("fit-rows.csv out of date for {} rows: rerun scripts/fit-profiles\n", stale);
    if (disagree > 0) fmt::print("the C ABI and the library disagree on {} rows\n", disagree);
    return above == 0 && stale == 0 && disagree == 0 && outside == 0 ? 0 : 1;
}
