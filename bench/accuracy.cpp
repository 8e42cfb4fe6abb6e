// roofline-accuracy: for every row of tests/data/measurements.csv, the measured value, the `bound`
// prediction and the calibrated profile's, with errors; then the median absolute percentage error per
// metric and profile. Computed through the C ABI, as every host computes.
//
//   build/bench/roofline-accuracy tests/data/measurements.csv
#include <roofline.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "measurements.hpp"

namespace {

double predict(const measurements::Row& r, const std::string& profile) {
    double out = NAN;
    int st;
    if (r["metric"] == "step_ms")
        st = roofline_step_ms(r["model"].c_str(), r["gpu"].c_str(), r.number("batch"), r.number("ctx_mean"),
                              r["weight_dtype"].c_str(), r["kv_dtype"].c_str(), r.number("tp"), profile.c_str(), &out);
    else
        st = roofline_ttft_ms(r["model"].c_str(), r["gpu"].c_str(), r.number("prompt_tokens"), r.number("batch"),
                              r["weight_dtype"].c_str(), r.number("tp"), profile.c_str(), &out);
    if (st != ROOFLINE_OK) fmt::print(stderr, "{}: {}\n", r["id"], roofline_errmsg());
    return out;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n == 0 ? NAN : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string path = argc > 1 ? argv[1] : "tests/data/measurements.csv";
    const auto rows = measurements::read(path);
    std::map<std::pair<std::string, std::string>, std::vector<double>> errors;  // (profile, metric) -> |%|
    int above = 0;
    fmt::print("{:<24} {:<14} {:<13} {:<7} {:>3} {:>4} {:<8} {:>9} {:>9} {:>7} {:<10} {:>9} {:>7}\n", "id", "gpu",
               "model", "weights", "tp", "b", "metric", "measured", "bound", "err", "profile", "predicted", "err");
    for (const auto& r : rows) {
        const double measured = r.number("value");
        const double bound = predict(r, "bound");
        const double fitted = predict(r, r["profile"]);
        const double e_bound = (bound / measured - 1) * 100, e_fit = (fitted / measured - 1) * 100;
        errors[{"bound", r["metric"]}].push_back(std::abs(e_bound));
        errors[{r["profile"], r["metric"]}].push_back(std::abs(e_fit));
        if (!(bound <= measured)) ++above;
        fmt::print("{:<24} {:<14} {:<13} {:<7} {:>3} {:>4} {:<8} {:>9.2f} {:>9.2f} {:>6.1f}% {:<10} {:>9.2f} {:>6.1f}%\n",
                   r["id"], r["gpu"], r["model"], r["weight_dtype"], r["tp"], r["batch"], r["metric"], measured, bound,
                   e_bound, r["profile"], fitted, e_fit);
    }
    fmt::print("\nMedian absolute percentage error (on the rows the profiles were fitted on; see profiles.json for "
               "leave-one-out)\n");
    for (const auto& [key, v] : errors)
        fmt::print("  {:<10} {:<8} {:>3} rows  {:6.1f}%\n", key.first, key.second, v.size(), median(v));
    fmt::print("\nbound above a measurement: {} of {} rows\n", above, rows.size());
    return above == 0 ? 0 : 1;
}
