// The iteration as engines schedule it (docs/serving-model.md, section 2): the closed form of serving.cpp against
// a step-by-step schedule built here, iteration by iteration; bound against every schedule enumerated; the engine
// limits of the profiles (max_seqs, max_tokens) in every planner formula.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <deque>
#include <string>
#include <vector>

#include "roofline/calibrate.hpp"
#include "roofline/catalog.hpp"
#include "roofline/error.hpp"
#include "roofline/operators.hpp"
#include "roofline/serving.hpp"

using namespace roofline;
using namespace roofline::serving;

namespace {

const Profile& bound() { return *find_profile("bound"); }
const Profile& typical() { return *find_profile("typical"); }

Deployment deploy(const char* model, const char* gpu, DType weights, double tp, Layout layout = {}) {
    Deployment d{*find_model(model), *find_gpu(gpu), weights, DType::bf16, tp};
    d.layout = layout;
    return d;
}

/// A replica of the cases below: the model on `tp` GPUs in a layout.
struct Case {
    const char* model;
    const char* gpu;
    DType weights;
    double tp;
    Layout layout;
};

/// A profile with its engine limits replaced (0: none).
Profile with_limits(const Profile& base, double max_seqs, double max_tokens) {
    Profile p = base;
    p.max_running_seqs = max_seqs;
    p.max_iteration_tokens = max_tokens;
    for (auto& [vendor, variant] : p.vendors) {
        Profile v = *variant;
        v.max_running_seqs = max_seqs;
        v.max_iteration_tokens = max_tokens;
        variant = std::make_shared<const Profile>(v);
    }
    return p;
}

/// The engine's schedule played iteration by iteration: prompt i (i = 1, 2, ...) arrives during iteration
/// ceil(i / n), n = batch / (O - 1), and waits in a first-come queue; each iteration decodes `batch` sequences and
/// takes from the queue's head as many prompt tokens as its budget leaves (`budget` - batch; a prompt cut where the
/// room ends goes on in the next iteration). With data-parallel attention the prompts go to the groups in turn and
/// the iteration waits for the group with the most prompt tokens. Each iteration is timed by iteration_ms on its own
/// prompt tokens. The
/// mean over `periods` x `period` iterations after a warm-up of as many: the schedule repeats every `period`.
double step_by_step_ms(const Deployment& d, const Profile& p, const Workload& w, double batch, double budget,
                       int period, int periods) {
    const double n = batch / (w.output_tokens - 1), room = budget - batch;
    const int groups = static_cast<int>(d.layout.dp_attention);
    struct Waiting {
        double tokens;  // left to prefill
        int group;      // the attention group it went to: prompts in turn
    };
    std::deque<Waiting> waiting;
    double arrived = 0, sum = 0;
    const int warm = period * periods, end = 2 * period * periods;
    for (int t = 1; t <= end; ++t) {
        const double by_now = std::floor(n * t + 1e-9);
        for (; arrived < by_now; ++arrived)
            waiting.push_back({w.prompt_tokens, static_cast<int>(std::fmod(arrived, groups))});
        double tokens = 0;
        std::vector<double> in_group(groups, 0.0);
        while (!waiting.empty() && tokens < room) {
            const double take = std::min(waiting.front().tokens, room - tokens);
            tokens += take;
            in_group[waiting.front().group] += take;
            waiting.front().tokens -= take;
            if (waiting.front().tokens <= 0) waiting.pop_front();
        }
        // The iteration waits for its busiest attention group.
        const double busiest = *std::max_element(in_group.begin(), in_group.end());
        if (t > warm)
            sum += iteration_ms(d, p, w, batch, tokens / w.prompt_tokens, groups * busiest / w.prompt_tokens);
    }
    return sum / (end - warm);
}

}  // namespace

TEST_CASE("the engine's schedule in closed form is the step-by-step schedule's mean: dense, MoE, MLA and hybrid",
          "[serving][schedule]") {
    const Case cases[] = {{"llama-3.1-8b", "h100-sxm", DType::bf16, 1, {}},
                          {"qwen3-30b-a3b", "h200", DType::fp8, 1, {}},
                          {"deepseek-v3", "h200", DType::fp8, 8, {8, 8, 1}},  // MLA and MoE, DEP8
                          {"qwen3-next-80b-a3b", "h100-sxm", DType::fp8, 2, {}}};
    struct Load {
        Workload w;
        double batch, budget;
        int period;
        const char* what;
    };
    const Load loads[] = {
        {{1000, 101}, 50, 8192, 2, "half a prompt per iteration: whole prompts every other iteration"},
        {{1000, 101}, 20, 512, 5, "a prompt longer than the budget's room: three chunks, 492 + 492 + 16"},
        {{200, 11}, 25, 8192, 2, "2.5 prompts per iteration: two or three in each"},
        {{3000, 301}, 12, 1024, 25, "a twenty-fifth of a prompt per iteration in chunks of 1012 tokens"},
        {{1000, 101}, 50, 1e9, 2, "no budget"}};
    for (const Case& c : cases) {
        const Deployment d = deploy(c.model, c.gpu, c.weights, c.tp, c.layout);
        for (const Load& l : loads) {
            // The budget is per attention group: the replica's is dp_attention times it.
            const Profile p = with_limits(typical(), 0, l.budget >= 1e9 ? 0 : l.budget / c.layout.dp_attention);
            INFO(c.model << ", " << l.what);
            const double closed = replica_state(d, p, l.w, l.batch, 1.0).tpot_ms;
            const double steps = step_by_step_ms(d, p, l.w, l.batch, l.budget, l.period, 40);
            CHECK(closed == Approx(steps).epsilon(1e-9));
            // Not the fluid: below a prompt per iteration, the mean over whole prompts (or chunks) differs from every
            // iteration carrying n P tokens.
            if (l.batch < l.w.output_tokens - 1) CHECK(closed != Approx(iteration_ms(d, p, l.w, l.batch, l.batch / (l.w.output_tokens - 1))).epsilon(1e-6));
        }
    }
}

TEST_CASE("bound is a bound over every schedule an engine could run: chunk sizes, whole prompts per iteration, "
          "token budgets", "[serving][schedule]") {
    const Case cases[] = {{"deepseek-r1", "h200", DType::fp8, 8, {}},         // MLA, MoE in TP8
                          {"deepseek-r1", "h200", DType::fp8, 8, {8, 8, 1}},  // DEP8
                          {"deepseek-r1", "b200", DType::nvfp4, 4, {4, 1, 1}},  // TEP4
                          {"gpt-oss-120b", "b200", DType::mxfp4, 2, {2, 2, 1}},
                          {"qwen3-235b-a22b", "mi355x", DType::fp8, 8, {8, 1, 1}},
                          {"llama-3.1-70b", "h100-sxm", DType::fp8, 4, {}}};  // dense
    const Workload loads[] = {{7373, 922}, {1024, 1024}, {2000, 300}, {128, 2048}};
    int concave_wins = 0;
    for (const Case& c : cases) {
        const Deployment d = deploy(c.model, c.gpu, c.weights, c.tp, c.layout);
        for (const Workload& w : loads)
            for (double batch : {1.0, 8.0, 64.0, 256.0}) {
                const double fit = memory_batch(d, bound(), w, 1.0);
                if (batch > fit) continue;
                INFO(c.model << " on " << c.tp << " " << c.gpu << " ep " << c.layout.ep << ", " << w.prompt_tokens
                             << " + " << w.output_tokens << " at batch " << batch);
                const double b = replica_state(d, bound(), w, batch, 1.0).tpot_ms;
                const double P = w.prompt_tokens, x = batch / (w.output_tokens - 1) * P;
                const double decode = iteration_ms(d, bound(), w, batch, 0);
                const double fluid = iteration_ms(d, bound(), w, batch, x / P);
                CHECK(b <= fluid * (1 + 1e-12));
                CHECK(b >= decode);
                if (b < fluid * (1 - 1e-6)) ++concave_wins;
                // A share x / c of the iterations carries c prompt tokens, the rest none: chunks of a prompt, whole
                // prompts, several prompts together.
                std::vector<double> sizes{x};
                for (double f : {0.125, 0.25, 0.5, 1.0, 2.0, 3.0, 4.0, 8.0, 16.0, 64.0, 256.0}) sizes.push_back(f * P);
                for (double t : {512.0, 2048.0, 8192.0, 16384.0, 65536.0}) sizes.push_back(t);
                for (double size : sizes) {
                    if (size < x) continue;
                    const double mean = decode + x / size * (iteration_ms(d, bound(), w, batch, size / P) - decode);
                    INFO("chunks of " << size << " tokens: " << mean << " ms");
                    CHECK(b <= mean * (1 + 1e-9));
                }
                // Whole prompts arriving one by one: floor(n) or ceil(n) per iteration.
                const double n = x / P, lo = std::floor(n), phi = n - lo;
                const double whole = (1 - phi) * iteration_ms(d, bound(), w, batch, lo) +
                                     phi * iteration_ms(d, bound(), w, batch, lo + 1);
                CHECK(b <= whole * (1 + 1e-9));
                // An engine's schedule at bound's costs, with each engine's budget.
                for (double budget : {2048.0, 8192.0, 16384.0}) {
                    const Profile engine = with_limits(bound(), 0, budget / c.layout.dp_attention);
                    REQUIRE(!is_bound(engine));
                    double tpot = 0;
                    try {
                        tpot = replica_state(d, engine, w, batch, 1.0).tpot_ms;
                    } catch (const Error& e) {
                        CHECK(e.status() == Status::no_solution);  // the budget cannot keep that batch full
                        CHECK(e.argument() == "batch");
                        continue;
                    }
                    CHECK(b <= tpot * (1 + 1e-9));
                }
            }
    }
    // For MoE models the fluid is not the fastest schedule: bound finds faster ones (whole prompts together).
    CHECK(concave_wins >= 10);
}

TEST_CASE("a dense model's bound is the fluid schedule: its costs are convex in the prefill tokens",
          "[serving][schedule]") {
    const Deployment d = deploy("llama-3.1-70b", "h100-sxm", DType::fp8, 4);
    const Workload w{2000, 300};
    for (double batch : {1.0, 13.0, 64.0}) {
        INFO("batch " << batch);
        CHECK(replica_state(d, bound(), w, batch).tpot_ms ==
              Approx(iteration_ms(d, bound(), w, batch, batch / 299)).epsilon(1e-12));
    }
}

TEST_CASE("a decode step of one sequence is bound by its weights' read on every GPU of the catalog, and 4-bit weights "
          "make it faster than 16-bit ones", "[serving][profile]") {
    // Llama-2-7B, one sequence, 512 tokens of context, under typical and every engine profile: each multiply of the
    // step (one row) runs on the vector units (operators.cpp, estimate). In 16 bits it is memory bound everywhere.
    // 4-bit weights (q4_0, int4) read a quarter of the bytes and are dequantized on the vector units: faster than
    // 16 bits everywhere, and memory bound where the vector units are fast beside the memory (consumer GPUs, L40S,
    // H100); on an A100 (19.5 TFLOP/s of FP32 for 2 TB/s) the dequantization binds, as gpt-fast measured (int4 at
    // batch 1: 5.08 ms, 2.5 times the weights' read; tests/data/measurements.csv, gf-7b-int4).
    const ModelSpec m = *find_model("llama-2-7b");
    const std::vector<std::string> fast_vectors{"rtx-3090", "rtx-4090", "rtx-5090", "l40s", "h100-sxm"};
    int gpus = 0;
    for (const std::string& id : gpu_ids()) {
        const GpuSpec gpu = *find_gpu(id);
        if (gpu.hbm_gb < 20) continue;  // 16-bit weights of 7B do not fit
        ++gpus;
        const bool fast = std::find(fast_vectors.begin(), fast_vectors.end(), id) != fast_vectors.end();
        for (const char* name : {"typical", "sglang", "tensorrt-llm", "llama.cpp"}) {
            const Profile& p = *find_profile(name);
            INFO(id << " under " << name);
            double ms16 = 0;
            for (DType w : {DType::fp16, DType::q4_0, DType::int4}) {
                std::vector<Operator> ops = decode_operators(DeploymentRef{m, gpu, w, DType::fp16, 1}, 1, 512);
                const double ms = estimate(ops, gpu, p);
                for (const Operator& op : ops)
                    if (op.tokens > 0 && (w == DType::fp16 || fast)) {
                        INFO(to_string(w) << " " << op.name);
                        CHECK(op.bound == Resource::memory);
                    }
                if (w == DType::fp16) ms16 = ms;
                else CHECK(ms < ms16);
            }
        }
    }
    CHECK(gpus >= 20);
}

TEST_CASE("llama.cpp's batch-1 decode steps on an RTX 3090 and 4090 are within 15% of published runs in q4_0 and fp16",
          "[serving][profile]") {
    // llama-bench tg runs (one sequence): tests/data/calibration/engines.csv group L and measurements.csv (PR #4766's
    // table and XiongjieDai's LLaMA 3 table, both fitted). No llama-bench run of q4_0 on an RTX 4090 was found; its
    // 4-bit run is q4_k_m. The weak ./main runs of XiongjieDai's LLaMA 2 overview are reported in docs/accuracy.md
    // ("Few rows"), not held to 15% here: their context is not stated.
    struct Run {
        const char *gpu, *model, *dtype;
        double ctx, ms;
        const char* source;
    };
    const Run runs[] = {
        {"rtx-3090", "codellama-7b", "fp16", 64, 1000 / 48.52, "PR #4766 tg128"},
        {"rtx-3090", "codellama-7b", "q4_0", 64, 1000 / 121.82, "PR #4766 tg128"},
        {"rtx-4090", "codellama-7b", "fp16", 64, 1000 / 61.03, "PR #4766 tg128"},
        {"rtx-3090", "llama-3-8b", "fp16", 256, 1000 / 47.40, "XiongjieDai LLaMA 3 tg512"},
        {"rtx-4090", "llama-3-8b", "fp16", 256, 1000 / 54.84, "XiongjieDai LLaMA 3 tg512"},
        {"rtx-3090", "llama-3-8b", "q4_k_m", 256, 1000 / 115.42, "XiongjieDai LLaMA 3 tg512"},
        {"rtx-4090", "llama-3-8b", "q4_k_m", 256, 1000 / 130.58, "XiongjieDai LLaMA 3 tg512"},
    };
    const Profile& p = *find_profile("llama.cpp");
    for (const Run& r : runs) {
        const GpuSpec gpu = *find_gpu(r.gpu);
        const ModelSpec m = *find_model(r.model);
        std::vector<Operator> ops =
            decode_operators(DeploymentRef{m, gpu, *parse_dtype(r.dtype), DType::fp16, 1}, 1, r.ctx);
        const double ms = estimate(ops, gpu, p);
        INFO(r.model << " " << r.dtype << " on " << r.gpu << " (" << r.source << "): " << ms << " ms against "
                     << r.ms);
        CHECK(std::abs(ms / r.ms - 1) <= 0.15);
    }
}

TEST_CASE("every engine profile's decode step stays within 35% of typical's on NVIDIA GPUs: fits that stay physical",
          "[serving][profile]") {
    // Issue #31: an engine profile fitted on a few serving-TPOT rows took up in its compute and attention efficiencies
    // what the model lacked (vllm 0.18 and 0.25 in 0.10: a Llama-3-8B step on one H200 at batch 64 of 20.2 ms where
    // typical said 7.9). Now an engine's compute and attention efficiencies move only with rows of a forward pass of
    // its own (tools/fit-profiles.cpp, engine_moves), inside the fitted ranges (calibrate.hpp). tensorrt-llm's cost
    // per layer comes from its own prefills (TensorRT-LLM 0.5, 2023): its batch-1 steps are 40% above typical's, the
    // one case allowed 45%.
    struct Case {
        const char* model;
        const char* gpu;
        DType weights;
        double tp, batch, ctx;
        Layout layout;
    };
    const Case cases[] = {{"llama-3-8b", "h200", DType::bf16, 1, 64, 4096, {}},
                          {"llama-3-8b", "h200", DType::bf16, 1, 1, 1024, {}},
                          {"llama-3.1-8b", "a100-sxm-80gb", DType::bf16, 1, 16, 2048, {}},
                          {"llama-3.1-70b", "h100-sxm", DType::fp8, 4, 32, 8192, {}},
                          {"llama-3.1-70b", "h100-sxm", DType::fp8, 4, 256, 2048, {}},
                          {"qwen3-30b-a3b", "h200", DType::fp8, 1, 64, 2048, {}},
                          {"deepseek-r1", "h200", DType::fp8, 8, 64, 4096, {8, 8, 1}},
                          {"gpt-oss-120b", "b200", DType::mxfp4, 2, 128, 2048, {2, 2, 1}}};
    for (const Case& c : cases) {
        const Deployment d = deploy(c.model, c.gpu, c.weights, c.tp, c.layout);
        std::vector<Operator> ops = decode_operators(d, c.batch, c.ctx);
        const double typical_ms = estimate(ops, d.gpu, typical());
        for (const char* name : {"vllm", "sglang", "tensorrt-llm", "llama.cpp"}) {
            ops = decode_operators(d, c.batch, c.ctx);
            const double ratio = estimate(ops, d.gpu, *find_profile(name)) / typical_ms;
            INFO(c.model << " on " << c.gpu << " at batch " << c.batch << " under " << name << ": " << ratio);
            const double allowed = std::string(name) == "tensorrt-llm" && c.batch == 1 ? 0.45 : 0.35;
            CHECK(std::abs(ratio - 1) <= allowed);
        }
    }
    // Every fitted parameter of every profile and variant inside its range.
    for (const std::string& name : profile_names()) {
        const Profile& p = *find_profile(name);
        std::vector<const Profile*> all{&p};
        for (const auto& v : p.vendors) all.push_back(v.second.get());
        for (const Profile* q : all)
            for (const FitParameter& f : kFitParameters) {
                if (name == "bound") continue;
                INFO(name << " " << f.json << " " << q->*f.field);
                CHECK(q->*f.field >= f.lo);
                CHECK(q->*f.field <= f.hi);
            }
    }
}
