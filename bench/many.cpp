// roofline-many: sweeps through roofline_call_many() (Google Benchmark), per element, beside the scalar
// typed call it replaces. Prints numbers; asserts nothing.
#include <benchmark/benchmark.h>
#include <roofline.h>

#include <cstddef>
#include <vector>

namespace {

/// ROOFLINE_STEP_MS("llama-3-8b"; "h100-sxm"; batch; ctx) over n elements: batch and ctx vary, the rest is
/// one value for every element (broadcast).
void BM_call_many_step_ms(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    std::vector<roofline_value> batch(n), ctx(n);
    for (std::size_t i = 0; i < n; ++i) {
        batch[i] = {static_cast<double>(1 + i % 256), nullptr};
        ctx[i] = {static_cast<double>(128 * (i % 64)), nullptr};
    }
    const roofline_value model{0, "llama-3-8b"}, gpu{0, "h100-sxm"};
    const roofline_value* columns[4] = {&model, &gpu, batch.data(), ctx.data()};
    const std::size_t lengths[4] = {1, 1, n, n};
    std::vector<double> results(n);
    for (auto _ : state)
        benchmark::DoNotOptimize(roofline_call_many("ROOFLINE_STEP_MS", columns, lengths, 4, n, results.data(),
                                                    nullptr, nullptr));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
}
BENCHMARK(BM_call_many_step_ms)->Arg(1)->Arg(1000)->Arg(1000000);

/// ROOFLINE_DECODE_MS(8; batch; 4096; 3.35) over n batches.
void BM_call_many_decode_ms(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    std::vector<roofline_value> batch(n);
    for (std::size_t i = 0; i < n; ++i) batch[i] = {static_cast<double>(1 + i % 256), nullptr};
    const roofline_value params{8, nullptr}, ctx{4096, nullptr}, bw{3.35, nullptr};
    const roofline_value* columns[4] = {&params, batch.data(), &ctx, &bw};
    const std::size_t lengths[4] = {1, n, 1, 1};
    std::vector<double> results(n);
    for (auto _ : state)
        benchmark::DoNotOptimize(roofline_call_many("ROOFLINE_DECODE_MS", columns, lengths, 4, n, results.data(),
                                                    nullptr, nullptr));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
}
BENCHMARK(BM_call_many_decode_ms)->Arg(1)->Arg(1000)->Arg(1000000);

/// The scalar typed call, per element, for comparison.
void BM_step_ms_scalar(benchmark::State& state) {
    double ms = 0;
    double batch = 1;
    for (auto _ : state) {
        benchmark::DoNotOptimize(roofline_step_ms("llama-3-8b", "h100-sxm", batch, 4096, "bf16", "bf16", 1, "bound", &ms));
        batch = batch < 256 ? batch + 1 : 1;
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_step_ms_scalar);

}  // namespace

BENCHMARK_MAIN();
