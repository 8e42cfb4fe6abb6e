// roofline-tail-accuracy: the serving simulation's percentiles against published ones. For every row of
// tests/data/tail-validation.csv (MLPerf Inference Server and Interactive runs: Poisson arrivals at a rate, limits on
// the p99 TTFT and p99 TPOT, the measured p50 and p99 of both), three questions, as a capacity planner asks them:
//
//   1. At the run's own rate per replica, what p50 and p99 TTFT and TPOT does the simulation give (simulate: Poisson,
//      the row's mean lengths, `requests` requests, seed 1), against the measured ones?
//   2. What rate does a replica sustain with both p99 limits met (replica_rps_at at p99), against the run's rate
//      (a submitter raises its rate until a limit binds: the published rate is near the most the system sustains)?
//   3. The same with the p99 limits taken as means (the closed form's replica_rps): the error of a planner that knows
//      no tails; and `bound` (no queue, no tail), which no run may beat.
//
// Then the median absolute percentage error (MdAPE) of each, overall and per GPU. A file of serving-benchmark runs
// instead (tests/data/tail-validation-bench.csv, a column rps): each run simulated at its rate, its measured medians of
// TTFT and inter-token latency, mean latency and throughput against the simulation's.
//
//   build/bench/roofline-tail-accuracy [tests/data/tail-validation.csv] [--requests N] [--lengths fixed|uniform|lognormal]
//                                      [--spread X]
//
// Exit status 1 when `bound` is below a published rate (no engine should beat it), 2 on bad arguments.
#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/calibrate.hpp"
#include "roofline/simulate.hpp"
#include "serving_validation.hpp"

namespace {

using namespace roofline;
using roofline::median;

double error_percent(double predicted, double measured) { return 100 * (predicted / measured - 1); }

struct Errors {
    std::vector<double> ttft_p50, ttft_p99, tpot_p50, tpot_p99, capacity_p99, capacity_means;
    void add_abs(std::vector<double>& v, double e) { v.push_back(std::fabs(e)); }
};

std::string mdape(const std::vector<double>& v) {
    return v.empty() ? std::string("-") : fmt::format("{:.1f}%", median(v));
}

/// A file of serving-benchmark runs (tests/data/tail-validation-bench.csv: a rate, lengths, the measured medians): each
/// simulated at its rate with its requests and lengths; the medians, mean latency and throughput against the run's.
int bench_runs(const std::vector<measurements::Row>& rows, const std::string& path) {
    const Profile& typical = *find_profile("typical");
    fmt::print("Simulated against serving-benchmark runs ({} rows of {}): typical, seed 1, Poisson, each row's requests "
               "and lengths\n\n{:<46} {:>5} | {:>15} {:>15} {:>15} {:>15}\n{:<46} {:>5} | {:>15} {:>15} {:>15} {:>15}\n",
               rows.size(), path, "row", "rps", "TTFT p50 ms", "ITL p50 ms", "E2E mean ms", "output tok/s", "", "",
               "meas / sim", "meas / sim", "meas / sim", "meas / sim");
    std::map<std::string, std::array<std::vector<double>, 4>> by;
    for (const measurements::Row& r : rows) {
        const Deployment d = serving_validation::deployment(r);
        const serving::Workload w{r.number("prompt_tokens"), r.number("output_tokens")};
        serving::SimulationOptions o;
        o.requests = r.number("requests");
        const auto lengths = serving::parse_lengths(r["lengths"]);
        if (!lengths) throw std::runtime_error(r["id"] + ": lengths must be fixed, uniform or lognormal");
        o.lengths = *lengths;
        o.spread = r.number("spread");
        const serving::SimulationResult s = serving::simulate(d, typical, r.number("rps"), w, o);
        const double measured[] = {r.number("ttft_p50_ms"), r.number("itl_p50_ms"), r.number("e2e_mean_ms"),
                                   r.number("output_tok_s")};
        const double simulated[] = {s.ttft_ms.p50, s.itl_ms.p50, s.e2e_ms.mean, s.throughput_tok_s};
        fmt::print("{:<46} {:>5g} |", r["id"].substr(0, 46), r.number("rps"));
        for (int i = 0; i < 4; ++i) fmt::print(" {:>7.4g} {:>7.4g}", measured[i], simulated[i]);
        fmt::print("\n");
        for (const std::string& key : {std::string("all"), r["model"] + " tp" + r["tp"]})
            for (int i = 0; i < 4; ++i) by[key][static_cast<std::size_t>(i)].push_back(std::fabs(error_percent(simulated[i], measured[i])));
    }
    fmt::print("\nMedian absolute percentage error (typical):\n\n{:<22} {:>5} {:>9} {:>9} {:>9} {:>9}\n", "", "rows",
               "TTFT p50", "ITL p50", "E2E mean", "tok/s");
    for (const auto& [key, e] : by)
        fmt::print("{:<22} {:>5} {:>9} {:>9} {:>9} {:>9}\n", key, e[0].size(), mdape(e[0]), mdape(e[1]), mdape(e[2]),
                   mdape(e[3]));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::string path = "tests/data/tail-validation.csv";
    serving::SimulationOptions o;
    o.requests = 2000;
    o.percentile = 99;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", argv[i]);
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--requests") o.requests = std::atof(value().c_str());
        else if (a == "--spread") o.spread = std::atof(value().c_str());
        else if (a == "--lengths") {
            const std::string l = value();
            const auto lengths = serving::parse_lengths(l);
            if (!lengths) {
                std::fprintf(stderr, "--lengths: fixed, uniform or lognormal (got %s)\n", l.c_str());
                return 2;
            }
            o.lengths = *lengths;
        } else if (!a.empty() && a[0] != '-') path = std::string(a);
        else {
            std::fprintf(stderr, "usage: %s [tail-validation.csv] [--requests N] [--lengths L] [--spread X]\n", argv[0]);
            return 2;
        }
    }
    const std::vector<measurements::Row> rows = measurements::read(path);
    if (!rows.empty() && rows.front().field.count("rps")) return bench_runs(rows, path);
    const Profile& typical = *find_profile("typical");
    const Profile& bound = *find_profile("bound");
    fmt::print("Simulated percentiles against MLPerf's ({} rows of {}): {} requests a run, seed 1, Poisson, lengths {}",
               rows.size(), path, o.requests, serving::to_string(o.lengths));
    if (o.lengths != serving::Lengths::fixed) fmt::print(" (spread {})", o.spread);
    fmt::print("\n\n{:<52} {:>7} | {:>15} {:>15} {:>13} {:>13} | {:>6} {:>6} {:>6} {:>6}\n", "row", "rps/GPU",
               "TTFT p50 ms", "TTFT p99 ms", "TPOT p50 ms", "TPOT p99 ms", "p99", "means", "bound", "");
    fmt::print("{:<52} {:>7} | {:>15} {:>15} {:>13} {:>13} | {:>20}\n", "", "", "meas / sim", "meas / sim",
               "meas / sim", "meas / sim", "capacity, % of the run's");
    std::map<std::string, Errors> by;  // "all" and per GPU
    bool beaten = false;
    for (const measurements::Row& r : rows) {
        const Deployment d = serving_validation::deployment(r);
        const serving::Workload w{r.number("prompt_tokens"), r.number("output_tokens")};
        const serving::Targets limits{r.number("ttft_limit_ms"), r.number("tpot_limit_ms")};
        o.mem_util = r.number("mem_util");
        const double replicas = r.number("gpus") / d.tp;
        const double rate = r.number("samples_per_s") / replicas;  // requests/s of one replica
        const serving::SimulationResult at = serving::simulate(d, typical, rate, w, o);
        double p99 = 0, means = 0;
        try {
            p99 = serving::replica_rps_at(d, typical, w, limits, o).state.rps;
        } catch (const Error& e) {
            if (e.status() != Status::no_solution) throw;
        }
        try {
            means = serving::replica_rps(d, typical, w, limits, o.mem_util).rps;
        } catch (const Error& e) {
            if (e.status() != Status::no_solution) throw;
        }
        const double most = serving::replica_rps(d, bound, w, limits, o.mem_util).rps;
        if (most < rate) beaten = true;
        const double per_gpu = rate / d.tp;
        fmt::print("{:<52} {:>7.2f} | {:>7.0f} {:>7.0f} {:>7.0f} {:>7.0f} {:>6.1f} {:>6.1f} {:>6.1f} {:>6.1f} | {:>+5.0f}% "
                   "{:>+5.0f}% {:>+5.0f}%{}\n",
                   r["id"].substr(0, 52), per_gpu, r.number("ttft_p50_ms"), at.ttft_ms.p50, r.number("ttft_p99_ms"),
                   at.ttft_ms.p99, r.number("tpot_p50_ms"), at.tpot_ms.p50, r.number("tpot_p99_ms"), at.tpot_ms.p99,
                   error_percent(p99, rate), error_percent(means, rate), error_percent(most, rate),
                   most < rate ? "  BOUND BEATEN" : "");
        for (const std::string& key : {std::string("all"), r["gpu"] + " " + r["scenario"]}) {
            Errors& e = by[key];
            e.add_abs(e.ttft_p50, error_percent(at.ttft_ms.p50, r.number("ttft_p50_ms")));
            e.add_abs(e.ttft_p99, error_percent(at.ttft_ms.p99, r.number("ttft_p99_ms")));
            e.add_abs(e.tpot_p50, error_percent(at.tpot_ms.p50, r.number("tpot_p50_ms")));
            e.add_abs(e.tpot_p99, error_percent(at.tpot_ms.p99, r.number("tpot_p99_ms")));
            e.add_abs(e.capacity_p99, error_percent(p99, rate));
            e.add_abs(e.capacity_means, error_percent(means, rate));
        }
    }
    fmt::print("\nMedian absolute percentage error (typical):\n\n{:<22} {:>5} {:>9} {:>9} {:>9} {:>9} {:>13} {:>15}\n", "",
               "rows", "TTFT p50", "TTFT p99", "TPOT p50", "TPOT p99", "capacity p99", "limits as means");
    for (const auto& [key, e] : by)
        fmt::print("{:<22} {:>5} {:>9} {:>9} {:>9} {:>9} {:>13} {:>15}\n", key, e.ttft_p99.size(), mdape(e.ttft_p50),
                   mdape(e.ttft_p99), mdape(e.tpot_p50), mdape(e.tpot_p99), mdape(e.capacity_p99),
                   mdape(e.capacity_means));
    if (beaten) {
        std::fprintf(stderr, "a published rate beats bound\n");
        return 1;
    }
    return 0;
}
