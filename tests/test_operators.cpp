// The operator model through the C ABI, as every host computes: a decode step and a prefill are sums of
// operators, each on its own roofline; dtypes (FP4 among them), tensor parallelism, sliding windows, experts,
// the KV cache's format and the memory that bounds a batch move them as the roofline says they must, and the
// profiles only add time to the bound. (The catalogs' numbers are test_catalog.cpp's.)
#include <catch2/catch.hpp>

#include <roofline.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "support/c_api_reads.hpp"

namespace {

using c_api_reads::gpu;
using c_api_reads::model;
using c_api_reads::step;

struct Row {
    std::string name;
    double flops, bytes, ms;
};

/// The operator rows of a breakdown array (after its header row); frees the array.
std::vector<Row> rows_of(roofline_array* a) {
    REQUIRE(roofline_array_cols(a) == 5);
    CHECK(std::string(roofline_array_text(a, 0, 0)) == "operator");
    std::vector<Row> rows;
    for (size_t r = 1; r < roofline_array_rows(a); ++r)
        rows.push_back({roofline_array_text(a, r, 0), roofline_array_number(a, r, 1), roofline_array_number(a, r, 2),
                        roofline_array_number(a, r, 3)});
    roofline_array_free(a);
    return rows;
}

std::vector<Row> breakdown(const char* m, const char* g, double batch, double ctx, const char* w = "bf16", double tp = 1) {
    roofline_array* a = nullptr;
    REQUIRE(roofline_step_breakdown(m, g, batch, ctx, w, "", tp, "bound", &a) == ROOFLINE_OK);
    return rows_of(a);
}

const Row& op(const std::vector<Row>& rows, const std::string& name) {
    for (const Row& r : rows)
        if (r.name == name) return r;
    FAIL("no operator " << name);
    throw;
}

/// The prefill of `batch` prompts of `tokens` tokens, ms.
double ttft(const char* m, const char* g, double tokens, double batch, const char* w, double tp) {
    double v = NAN;
    INFO(m << " on " << g << " in " << w << ": " << roofline_errmsg());
    REQUIRE(roofline_ttft_ms(m, g, tokens, batch, w, tp, "bound", &v) == ROOFLINE_OK);
    return v;
}

std::vector<Row> ttft_breakdown(const char* m, const char* g, double tokens, double batch, const char* w, double tp,
                                const char* profile) {
    roofline_array* a = nullptr;
    INFO(m << " on " << g << ": " << roofline_errmsg());
    REQUIRE(roofline_ttft_breakdown(m, g, tokens, batch, w, tp, profile, &a) == ROOFLINE_OK);
    return rows_of(a);
}

}  // namespace

TEST_CASE("NVFP4 and MXFP4 weights compute at the FP4 peak where the GPU has it, and dequantize elsewhere", "[operators][fp4]") {
    // A compute-bound prefill: Llama 3.1 70B, 8 prompts of 4096 tokens, on one GPU (at tp 8 the prefill's
    // all-reduces take longer than its FP4 matrix products on a B200).
    const char* m = "llama-3.1-70b";
    const double tokens = 4096, batch = 8, tp = 1;
    // On a B200 the projections and the MLP run at the FP4 peak, the attention (16-bit) and the all-reduces
    // as before: about twice as fast as FP8, never more than the ratio of the peaks.
    const double peaks = gpu("b200", "fp4_tflops") / gpu("b200", "fp8_tflops");
    REQUIRE(peaks == 2);  // NVIDIA: 9 PFLOPS FP4, 4.5 PFLOPS FP8, dense
    const double fp8 = ttft(m, "b200", tokens, batch, "fp8", tp), nvfp4 = ttft(m, "b200", tokens, batch, "nvfp4", tp);
    CHECK(fp8 / nvfp4 <= peaks);
    CHECK(fp8 / nvfp4 > 0.8 * peaks);
    CHECK(ttft(m, "b200", tokens, batch, "mxfp4", tp) <= nvfp4);  // MXFP4 too, and its scales are fewer bytes
    // Operator by operator: the MLP's FLOPs at the FP4 peak on a B200 (compute bound), at the BF16 peak on an H200.
    auto mlp = [&](const char* g, const char* w) {
        roofline_array* a = nullptr;
        INFO(g << " " << w << ": " << roofline_errmsg());
        REQUIRE(roofline_ttft_breakdown(m, g, tokens, batch, w, tp, "bound", &a) == ROOFLINE_OK);
        return op(rows_of(a), "mlp");
    };
    const Row b200 = mlp("b200", "nvfp4");
    CHECK(b200.ms == Approx(b200.flops / (gpu("b200", "fp4_tflops") * 1e12) * 1e3));
    const Row h200 = mlp("h200", "nvfp4");
    CHECK(h200.ms == Approx(h200.flops / (gpu("h200", "bf16_tflops") * 1e12) * 1e3));
    // On an H200 (no FP4 units) NVFP4 weights dequantize: the prefill is no faster than in BF16.
    CHECK(ttft(m, "h200", tokens, batch, "nvfp4", tp) >= 0.99 * ttft(m, "h200", tokens, batch, "bf16", tp));
    CHECK(ttft(m, "h200", tokens, batch, "nvfp4", tp) > 1.5 * ttft(m, "h200", tokens, batch, "fp8", tp));
    // CDNA 4 takes MXFP4 (E8M0 scales per 32) at its FP4 peak, not NVFP4 (E4M3 scales per 16): that dequantizes.
    const Row mx = mlp("mi355x", "mxfp4");
    CHECK(mx.ms == Approx(mx.flops / (gpu("mi355x", "fp4_tflops") * 1e12) * 1e3));
    const Row nv = mlp("mi355x", "nvfp4");
    CHECK(nv.ms == Approx(nv.flops / (gpu("mi355x", "bf16_tflops") * 1e12) * 1e3));
}

TEST_CASE("profiles only add time to the bound", "[profiles]") {
    for (const char* m : {"llama-3-8b", "mixtral-8x7b", "deepseek-v3"}) {
        const double bound = step(m, "h200", 32, 2048, "fp8", "", 8);
        CHECK(step(m, "h200", 32, 2048, "fp8", "", 8, "typical") > bound);
        CHECK(step(m, "h200", 32, 2048, "fp8", "", 8, "llama.cpp") > bound);
    }
}

TEST_CASE("the step is the sum of its operators, each on its own roofline", "[operators]") {
    const auto rows = breakdown("llama-3-8b", "h100-sxm", 64, 4096);
    double sum = 0;
    for (const Row& r : rows) sum += r.ms;
    CHECK(sum == Approx(step("llama-3-8b", "h100-sxm", 64, 4096)));
    // Attention reads every sequence's KV: 64 x 4096 tokens x 128 KiB.
    CHECK(op(rows, "attention").bytes == Approx(64.0 * 4096 * 128 * 1024).epsilon(0.001));
    // The embedding is read as rows, not as a matrix.
    CHECK(op(rows, "embedding").bytes == 64 * model("llama-3-8b", "hidden") * 2);
    for (const Row& r : rows) {
        INFO(r.name);
        CHECK(r.ms >= std::max(r.flops / 989.4e12, r.bytes / 3.35e12) * 1e3 * 0.999);
    }
}

TEST_CASE("the experts a batch touches: k for one token, nearly all for many", "[operators]") {
    const double E = model("mixtral-8x7b", "experts"), k = model("mixtral-8x7b", "experts_per_token");
    const double one = op(breakdown("mixtral-8x7b", "h100-sxm", 1, 0), "experts").bytes;
    const double many = op(breakdown("mixtral-8x7b", "h100-sxm", 256, 0), "experts").bytes;
    const double four = op(breakdown("mixtral-8x7b", "h100-sxm", 4, 0), "experts").bytes;
    CHECK(many / one == Approx(E / k).epsilon(0.01));
    // E * (1 - (1 - k/E)^B) distinct experts for B tokens.
    CHECK(four / one == Approx(E * (1 - std::pow(1 - k / E, 4)) / k).epsilon(0.01));
}

TEST_CASE("dtypes, tensor parallelism and sliding windows move the step as they must", "[operators]") {
    const double bf16 = step("llama-3-8b", "h100-sxm", 1, 0);
    CHECK(step("llama-3-8b", "h100-sxm", 1, 0, "int4") < bf16 / 3);  // 4.25 bits instead of 16
    CHECK(step("llama-3-8b", "h100-sxm", 1, 0, "q4_0") > step("llama-3-8b", "h100-sxm", 1, 0, "int4"));  // 4.5 bits
    CHECK(step("llama-3-8b", "h100-sxm", 8, 8192, "bf16", "fp8") < step("llama-3-8b", "h100-sxm", 8, 8192));
    // Two GPUs each read half the weights, and pay for all-reduces.
    const auto tp2 = breakdown("llama-3-70b", "h100-sxm", 1, 0, "bf16", 2);
    CHECK(op(tp2, "mlp").bytes == Approx(op(breakdown("llama-3-70b", "h100-sxm", 1, 0), "mlp").bytes / 2).epsilon(0.001));
    CHECK(op(tp2, "allreduce").ms > 0);
    // Gemma 2's sliding-window layers stop reading KV past their window.
    const double w = model("gemma-2-9b", "sliding_window");
    const double at_w = op(breakdown("gemma-2-9b", "h100-sxm", 1, w / 2), "attention").bytes;
    const double at_2w = op(breakdown("gemma-2-9b", "h100-sxm", 1, 2 * w), "attention").bytes;
    CHECK(at_2w / at_w == Approx((4.0 * 21 + 2 * 21) / (21 + 21)).epsilon(0.01));  // 21 global, 21 sliding layers
    double v;
    CHECK(roofline_step_ms("llama-3-8b", "h100-sxm", 1, 0, "bf16", "", 3, "bound", &v) == ROOFLINE_ERROR_ARGUMENT);
    CHECK(std::string(roofline_errarg()) == "tp");
    // A context beyond the model's window (Gemma 2's 8192 positions, twice its sliding window) is refused, named.
    CHECK(model("gemma-2-9b", "context_window") == 2 * w);
    CHECK(roofline_step_ms("gemma-2-9b", "h100-sxm", 1, 2 * w + 1, "bf16", "", 1, "bound", &v) == ROOFLINE_ERROR_ARGUMENT);
    CHECK(std::string(roofline_errarg()) == "ctx");
    CHECK(std::string(roofline_errmsg()).find("8192 tokens") != std::string::npos);
    CHECK(roofline_ttft_ms("llama-3.1-8b", "h100-sxm", 131073, 1, "bf16", 1, "bound", &v) == ROOFLINE_ERROR_ARGUMENT);
    CHECK(std::string(roofline_errarg()) == "prompt_tokens");
    CHECK(roofline_ttft_ms("llama-3.1-8b", "h100-sxm", 131072, 1, "bf16", 1, "bound", &v) == ROOFLINE_OK);
}

TEST_CASE("the prefill operator by operator adds up to ROOFLINE_TTFT_MS under every profile", "[operators][ttft]") {
    struct Case {
        const char* model;
        const char* gpu;
        double tokens, batch;
        const char* weights;
        double tp;
    };
    for (const Case& c : {Case{"llama-3-8b", "h100-sxm", 2000, 1, "bf16", 1}, Case{"llama-3-70b", "h100-sxm", 512, 4, "fp8", 4},
                          Case{"mixtral-8x7b", "a100-sxm-80gb", 128, 8, "int4", 2}, Case{"deepseek-v3", "h200", 4096, 1, "fp8", 8},
                          Case{"gemma-2-9b", "rtx-4090", 8192, 1, "q4_k_m", 1}}) {
        for (const char* profile : {"bound", "typical", "llama.cpp"}) {
            INFO(c.model << " " << profile);
            double ttft = NAN;
            REQUIRE(roofline_ttft_ms(c.model, c.gpu, c.tokens, c.batch, c.weights, c.tp, profile, &ttft) == ROOFLINE_OK);
            const auto rows = ttft_breakdown(c.model, c.gpu, c.tokens, c.batch, c.weights, c.tp, profile);
            double sum = 0;
            for (const Row& r : rows) sum += r.ms;
            CHECK(sum == Approx(ttft).epsilon(1e-12));
            CHECK(op(rows, "attention").flops > 0);  // prefill attention is one of the rows
        }
    }
    // One prompt token: the attention writes 128 KiB of 16-bit KV and moves Q, K, V and the output, for
    // 16-bit and 8-bit weights alike.
    const double layers = model("llama-3-8b", "layers"), heads = model("llama-3-8b", "heads");
    const double head_dim = model("llama-3-8b", "head_dim");
    const double expected = model("llama-3-8b", "kv_kib_per_token") * 1024 + layers * heads * 3 * head_dim * 2;
    for (const char* w : {"bf16", "fp8", "fp32", "q4_k_m"}) {
        INFO(w);
        CHECK(op(ttft_breakdown("llama-3-8b", "h100-sxm", 1, 1, w, 1, "bound"), "attention").bytes == Approx(expected));
    }
}

TEST_CASE("prefill is compute bound, with causal attention", "[operators]") {
    double t1 = NAN, t2 = NAN;
    REQUIRE(roofline_ttft_ms("llama-3-8b", "h100-sxm", 2000, 1, "bf16", 1, "bound", &t1) == ROOFLINE_OK);
    REQUIRE(roofline_ttft_ms("llama-3-8b", "h100-sxm", 4000, 1, "bf16", 1, "bound", &t2) == ROOFLINE_OK);
    // The article's 2 FLOP per parameter per token at 989 TFLOP/s, for every weight but the embedding
    // (a lookup) and the lm_head (the last token only), plus attention.
    const double matmul_params = model("llama-3-8b", "params_b") * 1e9 - 2 * model("llama-3-8b", "vocab") * model("llama-3-8b", "hidden");
    CHECK(t1 > 2 * matmul_params * 2000 / 989.4e12 * 1e3);
    CHECK(t1 < 2 * model("llama-3-8b", "params_b") * 1e9 * 2000 / 989.4e12 * 1e3 * 1.1);
    CHECK(t2 > 2 * t1);  // attention grows with the square of the prompt
}

TEST_CASE("memory: how many sequences fit", "[operators]") {
    double n = NAN, n2 = NAN;
    REQUIRE(roofline_fit_batch("llama-3-8b", "h100-sxm", 4096, "bf16", "", 1, 0.9, &n) == ROOFLINE_OK);
    const double kv_seq = 4096 * model("llama-3-8b", "kv_kib_per_token") * 1024;
    const double weights = model("llama-3-8b", "params_b") * 1e9 * 2;
    // 0.9 of what the driver reports of an "80 GB" H100 SXM: 85.52 GB (the catalog's memory_reported_gb, since 0.16).
    CHECK(n == std::floor((0.9 * 85.52e9 - weights) / kv_seq));
    REQUIRE(roofline_fit_batch("llama-3-8b", "h100-sxm", 4096, "bf16", "fp8", 1, 0.9, &n2) == ROOFLINE_OK);
    CHECK(n2 >= 2 * n);
    CHECK(roofline_fit_batch("llama-3.1-405b", "h100-sxm", 4096, "bf16", "", 1, 0.9, &n) == ROOFLINE_ERROR_NO_SOLUTION);
}

TEST_CASE("the KV cache is 16-bit unless named, whatever the weights' format", "[operators][kv]") {
    // The README's example: Llama-3-8B in q4_k_m on an RTX 4090 (24 GB), 8192 tokens of context.
    double by_default = NAN, named = NAN, quantized = NAN;
    REQUIRE(roofline_fit_batch("llama-3-8b", "rtx-4090", 8192, "q4_k_m", "", 1, 0.9, &by_default) == ROOFLINE_OK);
    REQUIRE(roofline_fit_batch("llama-3-8b", "rtx-4090", 8192, "q4_k_m", "bf16", 1, 0.9, &named) == ROOFLINE_OK);
    REQUIRE(roofline_fit_batch("llama-3-8b", "rtx-4090", 8192, "q4_k_m", "q4_k_m", 1, 0.9, &quantized) == ROOFLINE_OK);
    CHECK(by_default == named);
    // 4.84 bits per weight (norms in 16 bits), 128 KiB of KV per token.
    const double norms = (2 * model("llama-3-8b", "layers") + 1) * model("llama-3-8b", "hidden");
    const double weights = (model("llama-3-8b", "params_b") * 1e9 - norms) * 4.84 / 8 + norms * 2;
    CHECK(by_default == std::floor((0.9 * 24e9 - weights) / (8192 * 128 * 1024.0)));
    CHECK(by_default == 15);
    CHECK(quantized > 3 * by_default);
    // The table says so too: the default is bf16, and "" is that default.
    const roofline_formula_info* f = roofline_formula_find("ROOFLINE_STEP_MS");
    CHECK(std::string(f->args[5]->name) == "kv_dtype");
    CHECK(std::string(f->args[5]->default_text) == "bf16");
    for (const char* w : {"fp32", "bf16", "fp16", "fp8", "int8", "int4", "q8_0", "q4_0", "q4_k_m"}) {
        INFO(w);
        CHECK(step("mixtral-8x7b", "h100-sxm", 8, 4096, w, "") == step("mixtral-8x7b", "h100-sxm", 8, 4096, w, "bf16"));
    }
    CHECK(step("llama-3-8b", "h100-sxm", 8, 4096, "fp8", "") > step("llama-3-8b", "h100-sxm", 8, 4096, "fp8", "fp8"));
}

TEST_CASE("a long prompt's attention runs at the measured kernels' rate, on NVIDIA and AMD (issue #44, point 5)",
          "[operators][profiles]") {
    // typical sets attention's compute from measured attention kernels (profiles.json "set": aiconfigurator's
    // prefill rows for NVIDIA, Composable Kernel's published MI355X/MI350X rates for AMD's variant): a 32k-token
    // prompt's attention, compute bound, takes its FLOPs at that fraction of the BF16 peak.
    // H200: the datacenter GPUs' median (0.5899) times Hopper's measured ratio to it (kernels.json attention_compute, 0.15).
    for (const auto& [g, efficiency] : {std::pair{"h200", 0.5899 * 1.0124}, std::pair{"mi355x", 0.3238}}) {
        const auto rows = ttft_breakdown("llama-3.1-70b", g, 32768, 1, "fp8", 8, "typical");
        const Row& a = op(rows, "attention");
        INFO(g);
        CHECK(a.ms == Approx(a.flops / (gpu(g, "bf16_tflops") * 1e12 * efficiency) * 1e3).epsilon(0.002));
    }
    // Deliver 5: DeepSeek-V3.2's 40,000-token prefill on 8 MI355X (2.5x an H200's dense peak) is not slower than on
    // 8 H200 (no published measurement says it is); before 0.14, 3,424 ms against 2,492.
    double mi355x = NAN, h200 = NAN;
    REQUIRE(roofline_ttft_ms("deepseek-v3.2", "mi355x", 40000, 1, "native", 8, "typical", &mi355x) == ROOFLINE_OK);
    REQUIRE(roofline_ttft_ms("deepseek-v3.2", "h200", 40000, 1, "native", 8, "typical", &h200) == ROOFLINE_OK);
    CHECK(mi355x < h200);
}

TEST_CASE("DeepSeek's sparse attention makes a long prefill cheaper, its indexer scoring in FP8 (issue #44)",
          "[operators][sparse]") {
    // DSA's main attention reads the top 2,048 tokens of each query; its indexer scores every earlier token with 64
    // heads of 128, replicated on each GPU of tensor parallelism, in FP8 (DeepSeek-V3.2's fp8_index; DeepGEMM's
    // fp8_mqa_logits). Before 0.14 those scores ran at the 16-bit rate and a 40,000-token prefill on 8 B200 took 34%
    // longer than DeepSeek-R1's dense MLA. bound: not slower, and cheaper the longer the prompt.
    double ratio_40k = 0;
    for (const double tokens : {40000.0, 128000.0}) {
        double v32 = NAN, r1 = NAN;
        INFO(tokens << ": " << roofline_errmsg());
        REQUIRE(roofline_ttft_ms("deepseek-v3.2", "b200", tokens, 1, "native", 8, "bound", &v32) == ROOFLINE_OK);
        REQUIRE(roofline_ttft_ms("deepseek-r1", "b200", tokens, 1, "native", 8, "bound", &r1) == ROOFLINE_OK);
        CHECK(v32 < r1);
        if (tokens == 40000) ratio_40k = v32 / r1;
        else CHECK(v32 / r1 < ratio_40k);
    }
    // typical (0.14, Profile::sparse_gather): as the engines' measured DSA modules run it, each query gathering its own
    // top-k latents, in tensor parallelism every GPU gathers for every query: V3.2 is slower than R1 at 40k tokens on
    // 8 B200, as vLLM's TP8 ran them at 32k on 8 H200 (GPUStack: 3.8 against 6.0 tokens/s per GPU, 1.6x); with
    // data-parallel attention each GPU gathers for its own prompts: V3.2 is the faster (SGLang's DP8: 7.8 against 6.2).
    double v32 = NAN, r1 = NAN;
    REQUIRE(roofline_ttft_ms("deepseek-v3.2", "b200", 40000, 1, "native", 8, "typical", &v32) == ROOFLINE_OK);
    REQUIRE(roofline_ttft_ms("deepseek-r1", "b200", 40000, 1, "native", 8, "typical", &r1) == ROOFLINE_OK);
    CHECK(v32 / r1 > 1.2);
    CHECK(v32 / r1 < 2);
    REQUIRE(roofline_ttft_ms_v2("deepseek-v3.2", "b200", 40000, 8, "native", 8, "typical", 1, 8, 1, &v32) == ROOFLINE_OK);
    REQUIRE(roofline_ttft_ms_v2("deepseek-r1", "b200", 40000, 8, "native", 8, "typical", 1, 8, 1, &r1) == ROOFLINE_OK);
    CHECK(v32 < r1);
    // The breakdown's attention: its FLOPs are FLOPs (the indexer's among them); its time counts the indexer's at
    // the FP8 peak, twice B200's BF16 one.
    const auto rows = ttft_breakdown("deepseek-v3.2", "b200", 40000, 1, "native", 8, "bound");
    const auto dense = ttft_breakdown("deepseek-r1", "b200", 40000, 1, "native", 8, "bound");
    const Row& sparse = op(rows, "attention");
    CHECK(sparse.flops > op(dense, "attention").flops);  // more FLOPs than dense MLA (the indexer's, replicated) ...
    CHECK(sparse.ms < op(dense, "attention").ms);        // ... in less time (FP8)
    CHECK(gpu("b200", "fp8_tflops") == Approx(2 * gpu("b200", "bf16_tflops")));
}
