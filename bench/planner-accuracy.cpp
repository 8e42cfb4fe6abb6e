// roofline-planner-accuracy: for every row of tests/data/serving-validation.csv (published serving
// throughput at a stated batch or under latency limits), the throughput per GPU the serving model predicts
// under `bound` and `typical`, with errors; then the median absolute percentage error of `typical` per GPU.
// A row the model finds infeasible within its limits counts as a prediction of 0 (an error of -100%).
//
//   build/bench/roofline-planner-accuracy tests/data/serving-validation.csv
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "serving_validation.hpp"

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n == 0 ? NAN : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double predict(const measurements::Row& r, const char* profile) {
    return serving_validation::predicted_tokens_per_s_per_gpu(r, *roofline::find_profile(profile));
}

}  // namespace

int main(int argc, char** argv) {
    const std::string path = argc > 1 ? argv[1] : "tests/data/serving-validation.csv";
    const auto rows = measurements::read(path);
    std::map<std::string, std::vector<double>> errors;  // gpu -> |%| of typical
    std::map<std::string, std::vector<double>> by_kind;  // "latency limits" or "stated batch" -> |%| of typical
    std::vector<double> all;
    int above = 0;
    fmt::print("{:<34} {:<14} {:<12} {:<5} {:>3} {:>5} {:>5} {:>5} {:>10} {:>10} {:>7} {:>10} {:>7}\n", "id", "gpu",
               "model", "w", "tp", "in", "out", "batch", "published", "bound", "err", "typical", "err");
    for (const auto& r : rows) {
        const double published = r.number("output_tokens_per_s_per_gpu");
        const double bound = predict(r, "bound"), typical = predict(r, "typical");
        const double e_bound = (bound / published - 1) * 100, e_typical = (typical / published - 1) * 100;
        if (!(bound >= published)) ++above;
        errors[r["gpu"]].push_back(std::abs(e_typical));
        all.push_back(std::abs(e_typical));
        by_kind[serving_validation::kind_name(serving_validation::kind(r))].push_back(std::abs(e_typical));
        fmt::print("{:<34} {:<14} {:<12} {:<5} {:>3} {:>5} {:>5} {:>5} {:>10.0f} {:>10.0f} {:>6.1f}% {:>10.0f} {:>6.1f}%\n",
                   r["id"], r["gpu"], r["model"], r["weight_dtype"], r["tp"], r["prompt_tokens"], r["output_tokens"],
                   r["batch"].empty() ? (r["ttft_ms_limit"].empty() ? "max" : "SLO") : r["batch"], published, bound, e_bound, typical, e_typical);
    }
    fmt::print("\nMedian absolute percentage error of typical, output tokens/s per GPU\n");
    for (const auto& [gpu, v] : errors) fmt::print("  {:<14} {:>2} rows  {:6.1f}%\n", gpu, v.size(), median(v));
    fmt::print("  {:<14} {:>2} rows  {:6.1f}%\n", "all", all.size(), median(all));
    for (const auto& [kind, v] : by_kind) fmt::print("  {:<20} {:>2} rows  {:6.1f}%\n", kind, v.size(), median(v));
    fmt::print("\nbound below a published throughput: {} of {} rows\n", above, rows.size());
    return above == 0 ? 0 : 1;
}
