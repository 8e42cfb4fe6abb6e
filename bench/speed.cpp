// roofline-speed: how long formulas take through the C ABI (Google Benchmark). Prints numbers; asserts nothing.
#include <benchmark/benchmark.h>
#include <roofline.h>

static void BM_decode_ms(benchmark::State& state) {
    double ms;
    for (auto _ : state) benchmark::DoNotOptimize(roofline_decode_ms(8, 64, 4096, 3.35, 989, 128, 2, &ms));
}
BENCHMARK(BM_decode_ms);

static void BM_step_ms(benchmark::State& state) {
    double ms;
    for (auto _ : state)
        benchmark::DoNotOptimize(roofline_step_ms("llama-3-8b", "h100-sxm", 64, 4096, "bf16", "", 1, "typical", &ms));
}
BENCHMARK(BM_step_ms);

// Cells that alternate two models: every call resolves its texts again (formulas_catalog.cpp keeps only the last
// deployment a thread resolved), as a sheet with one model per row computes.
static void BM_step_ms_alternating_models(benchmark::State& state) {
    double ms;
    const char* models[2] = {"llama-3-8b", "llama-3.1-70b"};
    unsigned i = 0;
    for (auto _ : state)
        benchmark::DoNotOptimize(roofline_step_ms(models[i++ & 1], "h100-sxm", 64, 4096, "bf16", "", 1, "typical", &ms));
}
BENCHMARK(BM_step_ms_alternating_models);

// A profile text in place of "typical" (calibrate.hpp): parsed once, then found by its text.
static void BM_step_ms_profile_text(benchmark::State& state) {
    double ms;
    const char* profile = "fit(typical; n=12; mdape=3.1%; loo=4.1%): bw=0.8159, mfu=0.5, link=0.5, step_ms=2.4198, "
                          "allreduce_us=20.0818, ep_imbalance=1.11, overlap_ep=0";
    for (auto _ : state)
        benchmark::DoNotOptimize(roofline_step_ms("llama-3-8b", "h100-sxm", 64, 4096, "bf16", "", 1, profile, &ms));
}
BENCHMARK(BM_step_ms_profile_text);

static void BM_step_ms_deepseek_v3_tp8(benchmark::State& state) {
    double ms;
    for (auto _ : state)
        benchmark::DoNotOptimize(roofline_step_ms("deepseek-v3", "h200", 256, 8192, "fp8", "", 8, "typical", &ms));
}
BENCHMARK(BM_step_ms_deepseek_v3_tp8);

// Models of layers of several kinds (issue 17: <= 400 ns through the C ABI): Gated DeltaNet beside gated
// attention and 512 experts, Mamba2 beside attention and MoE, chunked beside global attention, sparse top-k.
static void BM_step_ms_hybrid(benchmark::State& state, const char* model) {
    double ms = 0;
    for (auto _ : state)
        benchmark::DoNotOptimize(roofline_step_ms(model, "h100-sxm", 64, 8192, "", "", 1, "typical", &ms));
}
BENCHMARK_CAPTURE(BM_step_ms_hybrid, qwen3_next_80b_a3b, "qwen3-next-80b-a3b");
BENCHMARK_CAPTURE(BM_step_ms_hybrid, nemotron_3_nano_30b_a3b, "nemotron-3-nano-30b-a3b");
BENCHMARK_CAPTURE(BM_step_ms_hybrid, llama_4_scout, "llama-4-scout");
BENCHMARK_CAPTURE(BM_step_ms_hybrid, gpt_oss_120b, "gpt-oss-120b");
// Compressed attention (a window, CSA top-k over 1 in 4, HCA over 1 in 128), and Kimi Delta Attention beside MLA.
BENCHMARK_CAPTURE(BM_step_ms_hybrid, deepseek_v4_flash, "deepseek-v4-flash");
BENCHMARK_CAPTURE(BM_step_ms_hybrid, kimi_k3, "kimi-k3");

// ROOFLINE_STEP_MS by name, every argument given (as a spreadsheet or Python passes them).
static void BM_call_step_by_name(benchmark::State& state) {
    const roofline_value args[8] = {{0, "llama-3-8b"}, {0, "h100-sxm"}, {64, nullptr}, {4096, nullptr},
                                    {0, "bf16"},       {0, ""},         {1, nullptr},  {0, "typical"}};
    for (auto _ : state) {
        roofline_array* r = nullptr;
        benchmark::DoNotOptimize(roofline_call("ROOFLINE_STEP_MS", args, 8, &r));
        roofline_array_free(r);
    }
}
BENCHMARK(BM_call_step_by_name);

// The same with the trailing optional arguments left out: the table's defaults filled in.
static void BM_call_step_by_name_defaults(benchmark::State& state) {
    const roofline_value args[4] = {{0, "llama-3-8b"}, {0, "h100-sxm"}, {64, nullptr}, {4096, nullptr}};
    for (auto _ : state) {
        roofline_array* r = nullptr;
        benchmark::DoNotOptimize(roofline_call("ROOFLINE_STEP_MS", args, 4, &r));
        roofline_array_free(r);
    }
}
BENCHMARK(BM_call_step_by_name_defaults);

// A refused call: the error's message is formatted and kept for roofline_errmsg().
static void BM_step_ms_unknown_model(benchmark::State& state) {
    double ms;
    for (auto _ : state)
        benchmark::DoNotOptimize(roofline_step_ms("llama-9", "h100-sxm", 64, 4096, "bf16", "", 1, "typical", &ms));
}
BENCHMARK(BM_step_ms_unknown_model);

static void BM_call_by_name(benchmark::State& state) {
    const roofline_value args[4] = {{8, nullptr}, {64, nullptr}, {4096, nullptr}, {3.35, nullptr}};
    for (auto _ : state) {
        roofline_array* r = nullptr;
        benchmark::DoNotOptimize(roofline_call("ROOFLINE_DECODE_MS", args, 4, &r));
        roofline_array_free(r);
    }
}
BENCHMARK(BM_call_by_name);

// The capacity planner over the whole catalog (the example: Llama 3.1 70B, 100 requests/s, prompts of
// 2000 tokens, answers of 300, TTFT <= 500 ms, TPOT <= 50 ms), by name as a spreadsheet calls it ...
static void BM_call_plan_by_name(benchmark::State& state) {
    const roofline_value args[6] = {{0, "llama-3.1-70b"}, {100, nullptr}, {2000, nullptr},
                                    {300, nullptr},       {500, nullptr}, {50, nullptr}};
    for (auto _ : state) {
        roofline_array* r = nullptr;
        benchmark::DoNotOptimize(roofline_call("ROOFLINE_PLAN", args, 6, &r));
        roofline_array_free(r);
    }
}
BENCHMARK(BM_call_plan_by_name)->Unit(benchmark::kMillisecond);

// ... and through its typed function, disaggregated (a prefill pool and a decode pool).
static void BM_plan_disaggregated(benchmark::State& state) {
    for (auto _ : state) {
        roofline_array* r = nullptr;
        benchmark::DoNotOptimize(
            roofline_plan("llama-3.1-70b", 100, 2000, 300, 500, 50, "", "", "", "typical", 1, "", 0.9, &r));
        roofline_array_free(r);
    }
}
BENCHMARK(BM_plan_disaggregated)->Unit(benchmark::kMillisecond);

static void BM_roof_50_points(benchmark::State& state) {
    for (auto _ : state) {
        roofline_array* r = nullptr;
        benchmark::DoNotOptimize(roofline_roof(989, 3.35, 0.1, 1e4, 50, &r));
        roofline_array_free(r);
    }
}
BENCHMARK(BM_roof_50_points);

BENCHMARK_MAIN();
