// roofline-planner-speed: how long the capacity planner takes over the whole catalog (Google Benchmark).
// Prints numbers; asserts nothing. The target: <= 5 ms per plan (issue #31: over the catalog, for the
// dense model below; the MoE plans are printed beside it).
#include <benchmark/benchmark.h>

#include "roofline/serving.hpp"
#include "roofline/simulate.hpp"

using namespace roofline::serving;

static void BM_plan_whole_catalog(benchmark::State& state, const char* profile, bool disaggregated) {
    PlanOptions o;
    o.profile = profile;
    o.disaggregated = disaggregated;
    for (auto _ : state) benchmark::DoNotOptimize(plan("llama-3.1-70b", 100, {2000, 300}, {500, 50}, o));
}
BENCHMARK_CAPTURE(BM_plan_whole_catalog, typical, "typical", false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_plan_whole_catalog, bound, "bound", false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_plan_whole_catalog, typical_disaggregated, "typical", true)->Unit(benchmark::kMillisecond);

// An MoE model with MLA: every GPU in TP, TEP and DEP layouts (more configurations than a dense model), and bound's
// search over schedules (serving.cpp, bound_schedule: MoE costs are concave in the prefill tokens).
static void BM_plan_moe(benchmark::State& state, const char* profile) {
    PlanOptions o;
    o.profile = profile;
    for (auto _ : state) benchmark::DoNotOptimize(plan("deepseek-r1", 10, {2000, 500}, {2000, 50}, o));
}
BENCHMARK_CAPTURE(BM_plan_moe, deepseek_r1_typical, "typical")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_plan_moe, deepseek_r1_bound, "bound")->Unit(benchmark::kMillisecond);

static void BM_replica_rps(benchmark::State& state) {
    const roofline::Deployment d{*roofline::find_model("llama-3.1-70b"), *roofline::find_gpu("h100-sxm"),
                                 roofline::DType::fp8, roofline::DType::bf16, 4};
    const roofline::Profile& p = *roofline::find_profile("typical");
    for (auto _ : state) benchmark::DoNotOptimize(replica_rps(d, p, {2000, 300}, {500, 50}));
}
BENCHMARK(BM_replica_rps)->Unit(benchmark::kMicrosecond);

// ROOFLINE_CURVE's front: every replica size and layout of one GPU, a replica at each sampled batch.
static void BM_curve_front(benchmark::State& state, const char* model, const char* gpu) {
    const roofline::Deployment d{*roofline::find_model(model), *roofline::find_gpu(gpu), roofline::DType::fp8,
                                 roofline::DType::bf16, 1};
    const roofline::Profile& p = *roofline::find_profile("typical");
    for (auto _ : state) benchmark::DoNotOptimize(curve(d, p, {2000, 300}, CurveOptions{}));
}
BENCHMARK_CAPTURE(BM_curve_front, llama_3_1_70b_h100, "llama-3.1-70b", "h100-sxm")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_curve_front, deepseek_r1_gb200, "deepseek-r1", "gb200")->Unit(benchmark::kMillisecond);

// ROOFLINE_SIMULATE's core: 10,000 requests on one replica at 70% of its capacity without targets (issue #33: at
// most 50 ms for a dense model, 200 ms for an MoE one), Poisson arrivals, lognormal lengths (spread 0.5).
static void BM_simulate(benchmark::State& state, const char* model, const char* gpu, double tp, double dp) {
    roofline::Deployment d{*roofline::find_model(model), *roofline::find_gpu(gpu), roofline::DType::fp8,
                           roofline::DType::bf16, tp};
    d.layout = {dp > 1 ? tp : 1, dp, 1};
    const roofline::Profile& p = *roofline::find_profile("typical");
    const Workload w{2000, 300};
    const double rps = 0.7 * replica_state(d, p, w, max_batch(d, p, w)).rps;
    SimulationOptions o;
    o.requests = 10000;
    o.lengths = Lengths::lognormal;
    o.spread = 0.5;
    double iterations = 0;
    for (auto _ : state) {
        const SimulationResult r = simulate(d, p, rps, w, o);
        iterations = r.iterations;
        benchmark::DoNotOptimize(r);
    }
    state.counters["iterations"] = iterations;
    state.counters["rps"] = rps;
}
BENCHMARK_CAPTURE(BM_simulate, llama_3_1_70b_h100_tp4, "llama-3.1-70b", "h100-sxm", 4, 1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_simulate, llama_3_1_8b_h100, "llama-3.1-8b", "h100-sxm", 1, 1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_simulate, deepseek_r1_b200_dep8, "deepseek-r1", "b200", 8, 8)->Unit(benchmark::kMillisecond);

// A plan with the targets met at p99 (issue #33: <= 300 ms over the catalog): the closed form's shortlist, each row a
// bisection of simulations.
static void BM_plan_percentile(benchmark::State& state) {
    PlanOptions o;
    o.percentile = 99;
    for (auto _ : state) benchmark::DoNotOptimize(plan("llama-3.1-70b", 100, {2000, 300}, {500, 50}, o));
}
BENCHMARK(BM_plan_percentile)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
