// The serving model (serving.hpp) against hand computations from the documented model
// (docs/serving-model.md), each built step by step from the operator model's primitives: decode_operators,
// prefill_operators, estimate, weight_bytes_per_gpu, kv_bytes_per_sequence_per_gpu.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/catalog.hpp"
#include "roofline/formulas.hpp"
#include "roofline/error.hpp"
#include "roofline/operators.hpp"
#include "roofline/serving.hpp"

#include "serving_validation.hpp"

using namespace roofline;
using namespace roofline::serving;
using Catch::Matchers::Contains;

namespace {

const Profile& bound() { return *find_profile("bound"); }
const Profile& typical() { return *find_profile("typical"); }

Deployment deploy(const char* model, const char* gpu, DType weights, double tp, DType kv = DType::bf16) {
    return {*find_model(model), *find_gpu(gpu), weights, kv, tp};
}

double timed(std::vector<Operator> ops, const Deployment& d, const Profile& p) { return estimate(ops, d.gpu, p); }

const Operator& named(const std::vector<Operator>& ops, const std::string& name) {
    for (const Operator& op : ops)
        if (op.name == name) return op;
    FAIL("no operator " << name);
    return ops.front();
}

/// The fused iteration of the documented model, built from operator lists: the per-token operators at every
/// token, attention = decode attention + prefill attention, lm_head for the decode tokens and one per prompt.
double fused_ms(const Deployment& d, const Profile& p, double batch, double ctx, double prompts, double prompt_tokens) {
    if (prompts == 0) return timed(decode_operators(d, batch, ctx), d, p);
    std::vector<Operator> ops = decode_operators(d, batch + prompts * prompt_tokens, ctx);
    const auto decode = decode_operators(d, batch, ctx);
    const auto prefill = prefill_operators(d, prompts, prompt_tokens);
    const auto logits = decode_operators(d, batch + prompts, ctx);
    for (Operator& op : ops) {
        if (op.name == "attention") {
            op.flops = named(decode, "attention").flops + named(prefill, "attention").flops;
            op.fp8_flops = named(decode, "attention").fp8_flops + named(prefill, "attention").fp8_flops;
            op.bytes = named(decode, "attention").bytes + named(prefill, "attention").bytes;
            op.gather_bytes = named(decode, "attention").gather_bytes + named(prefill, "attention").gather_bytes;
        } else if (op.name == "lm_head") {
            op = named(logits, "lm_head");
        } else if (op.name == "linear_attn") {
            // State layers: each sequence and each prompt reads and writes its state once, not each prompt token.
            op.bytes -= (prompts * prompt_tokens - prompts) * 2 * kv_bytes_per_sequence_per_gpu(d, 0);
        }
    }
    return timed(ops, d, p);
}

/// The mean over every decode step of a request: step j = 1 .. output - 1 attends over prompt + j - 1 tokens.
double mean_over_steps(const Deployment& d, const Profile& p, const Workload& w, double batch, double prompts) {
    double sum = 0;
    for (double j = 1; j <= w.output_tokens - 1; ++j)
        sum += fused_ms(d, p, batch, w.prompt_tokens + j - 1, prompts, w.prompt_tokens);
    return sum / (w.output_tokens - 1);
}

template <typename F> void require_error(F&& f, Status status, const std::string& argument) {
    try {
        f();
        FAIL("no error");
    } catch (const Error& e) {
        INFO(e.what());
        CHECK(e.status() == status);
        CHECK(e.argument() == argument);
        CHECK_THAT(std::string(e.what()), Contains("argument '" + argument + "'"));
    }
}

}  // namespace

TEST_CASE("an iteration is the mean over the request's decode steps of decode fused with prefill", "[serving]") {
    struct Case {
        const char* model;
        const char* gpu;
        DType weights;
        double tp;
        Workload w;
    };
    // Dense, MoE, sliding windows crossed during decode (Gemma 2: window 4096), latent attention, and the
    // layer kinds of 2025-2026.
    const Case cases[] = {{"llama-3.1-70b", "h100-sxm", DType::fp8, 4, {2000, 300}},
                          {"mixtral-8x7b", "a100-sxm-80gb", DType::bf16, 2, {512, 128}},
                          {"gemma-2-9b", "l40s", DType::bf16, 1, {4000, 300}},
                          {"deepseek-v3", "h200", DType::fp8, 8, {1000, 50}},
                          // Chunked attention crossing two chunk boundaries (Llama 4: chunks of 8192), state
                          // layers beside full attention (Qwen3-Next, Nemotron-3), sparse top-k crossed (DSA: 2048).
                          {"llama-4-scout", "h200", DType::bf16, 4, {8000, 8500}},
                          {"qwen3-next-80b-a3b", "h100-sxm", DType::fp8, 2, {2000, 300}},
                          {"nemotron-3-nano-30b-a3b", "h100-sxm", DType::bf16, 1, {1000, 200}},
                          {"deepseek-v3.2", "h200", DType::fp8_block, 8, {1900, 300}},
                          // An AMD GPU: typical's AMD variant (profiles.json "vendors").
                          {"llama-3.1-70b", "mi300x", DType::fp8, 2, {2000, 300}}};
    for (const Case& c : cases) {
        const Deployment d = deploy(c.model, c.gpu, c.weights, c.tp);
        for (const Profile* p : {&bound(), &typical()})
            for (double batch : {1.0, 7.0, 64.0})
                for (double prompts : {0.0, 0.25, 3.0}) {
                    INFO(c.model << " " << p->name << " batch " << batch << " prompts " << prompts);
                    CHECK(iteration_ms(d, *p, c.w, batch, prompts) ==
                          Approx(mean_over_steps(d, *p, c.w, batch, prompts)).epsilon(1e-9));
                    // mixed_operators() is the same fused iteration at one context (the calibration's tpot_ms rows).
                    std::vector<Operator> mixed;
                    mixed_operators(d, batch, c.w.prompt_tokens + 10, prompts, c.w.prompt_tokens, mixed);
                    CHECK(timed(mixed, d, *p) ==
                          Approx(fused_ms(d, *p, batch, c.w.prompt_tokens + 10, prompts, c.w.prompt_tokens)).epsilon(1e-9));
                }
    }
}

TEST_CASE("a replica's steady state, computed by hand from the operator model", "[serving]") {
    const Deployment d = deploy("llama-3-8b", "h100-sxm", DType::bf16, 1);
    const Workload w{1000, 101};  // 100 decode steps after the prefill's token
    const double batch = 50, prompts = batch / 100;  // each iteration starts half a request
    SECTION("bound: the prefill alone, no queue") {
        const double tpot = mean_over_steps(d, bound(), w, batch, prompts);
        const double ttft = timed(prefill_operators(d, 1, w.prompt_tokens), d, bound());
        const ReplicaState s = replica_state(d, bound(), w, batch);
        CHECK(s.tpot_ms == Approx(tpot).epsilon(1e-9));
        CHECK(s.ttft_ms == Approx(ttft).epsilon(1e-9));
        CHECK(s.rps == Approx(prompts / (tpot / 1000)).epsilon(1e-9));
        CHECK(s.output_tokens_per_s == Approx(s.rps * 101));
        CHECK(s.e2e_ms == Approx(ttft + 100 * tpot));
        CHECK(e2e_ms(d, bound(), w, batch) == Approx(ttft + 100 * tpot));
    }
    SECTION("typical: half an iteration of wait, M/D/1 queue of prefills, the iteration that carries the prompt") {
        // The engine carries whole prompts: half of the iterations carry one prompt, the other half none.
        const double with_prompt = mean_over_steps(d, typical(), w, batch, 1);
        const double tpot = (with_prompt + mean_over_steps(d, typical(), w, batch, 0)) / 2;
        const double decode_only = mean_over_steps(d, typical(), w, batch, 0);
        const double service = with_prompt - decode_only;
        const double rps = prompts / (tpot / 1000);
        const double rho = rps * service / 1000;
        REQUIRE(rho < 1);
        const double ttft = tpot / 2 + rho * service / (2 * (1 - rho)) + with_prompt;
        const ReplicaState s = replica_state(d, typical(), w, batch);
        CHECK(s.tpot_ms == Approx(tpot).epsilon(1e-9));
        CHECK(s.ttft_ms == Approx(ttft).epsilon(1e-9));
        CHECK(s.prefill_share == Approx(1 - decode_only / tpot).epsilon(1e-9));
        CHECK(s.e2e_ms == Approx(ttft + 100 * tpot));
    }
}

TEST_CASE("the batch that fits: the mean context under bound, the longest under typical", "[serving]") {
    const Deployment d = deploy("llama-3.1-70b", "h100-sxm", DType::fp8, 2);
    const Workload w{2000, 300};
    // 0.9 of the 85.52 GB the driver reports of an "80 GB" H100 SXM (memory_reported_gb, since 0.16).
    const double budget = 0.9 * 85.52e9 - weight_bytes_per_gpu(d);
    // Without a sliding window the KV cache is linear in the context: the mean over steps is at the mean context.
    const double mean_ctx = 2000 + (300 - 2) / 2.0;
    CHECK(memory_batch(d, bound(), w, 0.9) == std::floor(budget / kv_bytes_per_sequence_per_gpu(d, mean_ctx)));
    CHECK(memory_batch(d, typical(), w, 0.9) == std::floor(budget / kv_bytes_per_sequence_per_gpu(d, 2300)));
    require_error([&] { replica_state(d, bound(), w, 1e6); }, Status::no_solution, "batch");
    require_error([&] { memory_batch(deploy("llama-3.1-405b", "h100-sxm", DType::bf16, 1), bound(), w, 0.9); },
                  Status::no_solution, "model");
}

TEST_CASE("SLO_BATCH: the largest batch whose decode step meets the target and fits", "[serving]") {
    const Deployment d = deploy("llama-3.1-8b", "a100-sxm-80gb", DType::bf16, 1);
    for (const Profile* p : {&bound(), &typical()})
        for (double tpot : {15.0, 25.0, 40.0}) {
            INFO(p->name << " tpot " << tpot);
            const double b = slo_batch(d, *p, 4096, tpot);
            // 0.9 of the 85.90 GB the driver reports of an "80 GB" A100 (memory_reported_gb, since 0.16).
            const double fit = std::floor((0.9 * 85.90e9 - weight_bytes_per_gpu(d)) / kv_bytes_per_sequence_per_gpu(d, 4096));
            CHECK(timed(decode_operators(d, b, 4096), d, *p) <= tpot);
            CHECK(b <= fit);
            CHECK((b == fit || timed(decode_operators(d, b + 1, 4096), d, *p) > tpot));
        }
    // No context: memory does not bound the batch, the step time does.
    const double b0 = slo_batch(d, bound(), 0, 20);
    CHECK(timed(decode_operators(d, b0, 0), d, bound()) <= 20);
    CHECK(timed(decode_operators(d, b0 + 1, 0), d, bound()) > 20);
    require_error([&] { slo_batch(d, bound(), 0, 1e300); }, Status::out_of_range, "tpot_ms");
    // Below the fastest possible step: one sequence alone.
    require_error([&] { slo_batch(d, bound(), 4096, 1.0); }, Status::no_solution, "tpot_ms");
    require_error([&] { slo_batch(d, bound(), 4096, -5); }, Status::invalid_argument, "tpot_ms");
}

TEST_CASE("REPLICA_RPS: the largest batch within both targets, and no larger one", "[serving]") {
    const Workload w{2000, 300};
    const Targets t{1000, 50};
    for (const char* gpu : {"h100-sxm", "h200", "a100-sxm-80gb"})
        for (const Profile* p : {&bound(), &typical()}) {
            const Deployment d = deploy("llama-3.1-70b", gpu, DType::bf16, 4);
            INFO(gpu << " " << p->name);
            const ReplicaState s = replica_rps(d, *p, w, t);
            CHECK(s.tpot_ms <= t.tpot_ms);
            CHECK(s.ttft_ms <= t.ttft_ms);
            const ReplicaState same = replica_state(d, *p, w, s.batch);
            CHECK(s.rps == Approx(same.rps));
            if (s.batch < memory_batch(d, *p, w, 0.9)) {
                const ReplicaState next = replica_state(d, *p, w, s.batch + 1);
                CHECK((next.tpot_ms > t.tpot_ms || next.ttft_ms > t.ttft_ms));
            }
        }
    const Deployment d = deploy("llama-3.1-70b", "h100-sxm", DType::fp8, 4);
    require_error([&] { replica_rps(d, typical(), w, {1000, 0.5}); }, Status::no_solution, "tpot_ms");
    require_error([&] { replica_rps(d, typical(), w, {1, 50}); }, Status::no_solution, "ttft_ms");
    require_error([&] { replica_rps(d, typical(), {2000, 1}, t); }, Status::invalid_argument, "output_tokens");
    require_error([&] { replica_rps(d, typical(), {0, 300}, t); }, Status::invalid_argument, "prompt_tokens");
}

TEST_CASE("typical is never more optimistic than bound", "[serving]") {
    const Workload w{1500, 200};
    const Targets t{1000, 60};
    for (const char* model : {"llama-3.1-8b", "llama-3.1-70b", "mixtral-8x7b", "qwen2.5-72b"})
        for (const char* gpu : {"h100-sxm", "a100-sxm-80gb", "l40s", "mi300x"})
            for (double tp : {1.0, 4.0}) {
                const Deployment d = deploy(model, gpu, DType::bf16, tp);
                INFO(model << " " << gpu << " tp " << tp);
                double b = 0, ty = 0;
                try {
                    b = replica_rps(d, bound(), w, t).rps;
                } catch (const Error&) {
                    b = 0;
                }
                try {
                    ty = replica_rps(d, typical(), w, t).rps;
                } catch (const Error&) {
                    ty = 0;
                }
                CHECK(ty <= b);
                if (weight_bytes_per_gpu(d) >= 0.9 * d.gpu.hbm_gb * 1e9) continue;
                for (double batch : {1.0, 16.0}) {
                    if (batch > memory_batch(d, typical(), w, 0.9)) continue;
                    const ReplicaState sb = replica_state(d, bound(), w, batch);
                    const ReplicaState st = replica_state(d, typical(), w, batch);
                    CHECK(st.tpot_ms >= sb.tpot_ms);
                    CHECK(st.ttft_ms >= sb.ttft_ms);
                    CHECK(st.rps <= sb.rps);
                }
            }
}

TEST_CASE("disaggregated pools: prefill within TTFT, decode within TPOT", "[serving]") {
    const Workload w{2000, 300};
    const Deployment d = deploy("llama-3.1-70b", "h100-sxm", DType::fp8, 2);
    SECTION("typical prefill: one prompt at a time, the M/D/1 load that just meets the target") {
        const double t = timed(prefill_operators(d, 1, 2000), d, typical());
        const double rho = 2 * (500 - t) / (2 * 500 - t);
        const PrefillState s = prefill_rps(d, typical(), w, 500);
        CHECK(s.rps == Approx(rho / (t / 1000)));
        CHECK(s.ttft_ms == Approx(500));
    }
    SECTION("bound prefill: the most prompts whose prefill meets the target, back to back") {
        const PrefillState s = prefill_rps(d, bound(), w, 500);
        CHECK(timed(prefill_operators(d, s.prompts_per_batch, 2000), d, bound()) <= 500);
        CHECK(s.rps == Approx(s.prompts_per_batch / (s.ttft_ms / 1000)));
    }
    SECTION("decode pool: no prefill in its iterations") {
        const ReplicaState s = decode_rps(d, typical(), w, 50);
        CHECK(s.tpot_ms == Approx(mean_over_steps(d, typical(), w, s.batch, 0)).epsilon(1e-9));
        CHECK(s.tpot_ms <= 50);
    }
}

TEST_CASE("cost per million output tokens and speculative decoding", "[serving]") {
    CHECK(cost_per_mtok(2.0, 8, 1000) == Approx(2.0 * 8 / (1000 * 3600.0) * 1e6));
    require_error([] { cost_per_mtok(2.0, 8, 0); }, Status::invalid_argument, "output_tokens_per_s");
    require_error([] { cost_per_mtok(2.0, 0.5, 10); }, Status::invalid_argument, "gpus");

    CHECK(spec_tokens(0.8, 4) == Approx((1 - std::pow(0.8, 5)) / 0.2));  // 3.3616
    CHECK(spec_tokens(0, 4) == 1);
    CHECK(spec_tokens(1, 4) == 5);
    require_error([] { spec_tokens(1.5, 4); }, Status::invalid_argument, "acceptance");
    require_error([] { spec_tokens(0.5, 0); }, Status::invalid_argument, "draft_len");

    const Deployment target = deploy("llama-3.1-70b", "h100-sxm", DType::fp8, 4);
    const ModelSpec draft = *find_model("llama-3.1-8b");
    const Deployment on_same_gpus{draft, target.gpu, target.weights, target.kv, target.tp};
    const double batch = 8, ctx = 2048, g = 4, a = 0.7;
    // Four draft steps, then one target pass over 5 tokens per sequence reading each KV cache once.
    const double draft_ms = timed(decode_operators(on_same_gpus, batch, ctx), target, typical());
    auto verify = decode_operators(target, batch * (g + 1), ctx);
    for (Operator& op : verify)
        if (op.name == "attention") {
            op.flops = named(decode_operators(target, batch, ctx), "attention").flops * (g + 1);
            op.bytes = named(decode_operators(target, batch, ctx + g), "attention").bytes;
        }
    const double expected = (g * draft_ms + timed(verify, target, typical())) / ((1 - std::pow(a, g + 1)) / (1 - a));
    CHECK(spec_step_ms(target, draft, typical(), batch, ctx, g, a) == Approx(expected).epsilon(1e-12));
    // Speculation with a good draft beats plain decoding at a small batch; with acceptance 0 it only costs.
    const double plain = timed(decode_operators(target, batch, ctx), target, typical());
    CHECK(spec_step_ms(target, draft, typical(), batch, ctx, g, 0.8) < plain);
    CHECK(spec_step_ms(target, draft, typical(), batch, ctx, g, 0) > plain);
    require_error([&] { spec_step_ms(deploy("qwen2.5-72b", "h100-sxm", DType::fp8, 8), *find_model("qwen2.5-7b"),
                                     typical(), 8, 1024, 4, 0.7); },
                  Status::invalid_argument, "draft_model");
}

TEST_CASE("PLAN: every row meets the targets, carries the load, and the rows are sorted by cost", "[serving]") {
    const Workload w{2000, 300};
    const Targets t{500, 50};
    const double rps = 100;
    for (bool disaggregated : {false, true})
        for (const char* profile : {"typical", "bound"}) {
            PlanOptions o;
            o.profile = profile;
            o.disaggregated = disaggregated;
            const auto rows = plan("llama-3.1-70b", rps, w, t, o);
            INFO(profile << (disaggregated ? " disaggregated" : " colocated") << ", " << rows.size() << " rows");
            REQUIRE(rows.size() > 10);
            for (std::size_t i = 0; i < rows.size(); ++i) {
                const PlanRow& r = rows[i];
                INFO(r.gpu << " tp " << r.tp << " " << to_string(r.weights) << " ep " << r.layout.ep << " dp_attention "
                           << r.layout.dp_attention << " pp " << r.layout.pp);
                CHECK(r.ttft_ms <= t.ttft_ms);
                CHECK(r.tpot_ms <= t.tpot_ms);
                CHECK(r.gpus == r.replicas * r.tp + r.prefill_replicas * r.prefill_tp);
                CHECK(r.output_tokens_per_s_per_gpu == Approx(rps * 300 / r.gpus));
                Deployment d = deploy("llama-3.1-70b", r.gpu.c_str(), r.weights, r.tp);
                d.layout = r.layout;
                // A row of a published checkpoint computes in that checkpoint's formats, module by module.
                for (const Checkpoint& c : d.model.published())
                    if (c.id == r.checkpoint) {
                        d.weights = c.linear;
                        d.experts = c.experts;
                        d.embedding = c.embedding;
                    }
                const Profile& p = *find_profile(profile);
                if (!disaggregated) {
                    const ReplicaState s = replica_rps(d, p, w, t);
                    CHECK(r.batch == s.batch);
                    CHECK(r.replicas == std::ceil(rps / s.rps));
                    CHECK(r.replicas * s.rps >= rps);
                } else {
                    CHECK(r.prefill_tp > 0);
                    CHECK(r.replicas * decode_rps(d, p, w, t.tpot_ms).rps >= rps);
                    Deployment pd = deploy("llama-3.1-70b", r.gpu.c_str(), r.weights, r.prefill_tp);
                    pd.weights = d.weights;
                    pd.experts = d.experts;
                    pd.embedding = d.embedding;
                    CHECK(r.prefill_replicas * prefill_rps(pd, p, w, t.ttft_ms).rps >= rps);
                }
                const double price = find_gpu(r.gpu)->usd_per_gpu_hour;
                if (price > 0) {
                    REQUIRE(r.usd_per_hour);
                    // Whole servers (the default since 0.14): the rented GPUs are priced.
                    const double paid = r.servers * find_gpu(r.gpu)->server_gpus;
                    CHECK(paid >= r.gpus);
                    CHECK(*r.usd_per_hour == Approx(price * paid));
                    CHECK(*r.usd_per_mtok == Approx(cost_per_mtok(price, paid, rps * 300)));
                } else {
                    CHECK_FALSE(r.usd_per_hour);
                }
                if (i > 0 && rows[i - 1].usd_per_hour && r.usd_per_hour) CHECK(*rows[i - 1].usd_per_hour <= *r.usd_per_hour);
                if (i > 0 && !rows[i - 1].usd_per_hour) CHECK_FALSE(r.usd_per_hour);
            }
        }
}

TEST_CASE("PLAN narrows to one GPU and one format, and takes a price override", "[serving]") {
    PlanOptions o;
    o.gpus = {"H200"};
    o.weights = DType::fp8;
    o.prices["h200"] = 10;
    const auto rows = plan("llama-3.1-70b", 20, {1000, 200}, {800, 40}, o);
    REQUIRE_FALSE(rows.empty());
    for (const PlanRow& r : rows) {
        CHECK(r.gpu == "h200");
        CHECK(r.weights == DType::fp8);
        CHECK(*r.usd_per_hour == Approx(10 * 8 * r.servers));  // HGX H200: servers of 8
    }
}

TEST_CASE("a user catalog's GPU carries its own price into the plan", "[serving]") {
    add_catalog(R"({"gpus": [{"id": "lab-gpu", "tflops": {"bf16": 400}, "hbm_tbs": 2, "hbm_gb": 96,
                              "interconnect_tbs": 0.2, "usd_per_gpu_hour": 1.25}]})");
    CHECK(find_gpu("lab-gpu")->usd_per_gpu_hour == 1.25);
    PlanOptions o;
    o.gpus = {"lab-gpu"};
    const auto rows = plan("llama-3.1-8b", 10, {1000, 200}, {800, 40}, o);
    REQUIRE_FALSE(rows.empty());
    // No server_gpus in the user's catalog: its scale-up domain, 8 where that is left out too.
    CHECK(*rows.front().usd_per_hour == Approx(1.25 * 8 * rows.front().servers));
    CHECK_THROWS_AS(add_catalog(R"({"gpus": [{"id": "bad", "tflops": {"bf16": 1}, "hbm_tbs": 1, "hbm_gb": 1,
                                              "usd_per_gpu_hour": -1}]})"),
                    Error);
}

TEST_CASE("a formula sees an entry a host replaced, right after it resolved the same texts", "[serving]") {
    // formulas_catalog.cpp keeps the deployment a thread resolved last; a change of the catalog must end it.
    auto gpu = [](const char* id, double tbs) {
        return fmt::format(R"({{"gpus": [{{"id": "{}", "tflops": {{"bf16": 400}}, "hbm_tbs": {}, "hbm_gb": 96,
                                           "interconnect_tbs": 0.2}}]}})",
                           id, tbs);
    };
    add_catalog(gpu("memo-gpu", 2));
    add_catalog(gpu("memo-gpu-4", 4));
    const double before = formula::step_ms("llama-3.1-8b", "memo-gpu", 8, 4096, "", "", 1, "bound");
    CHECK(formula::step_ms("llama-3.1-8b", "memo-gpu", 8, 4096, "", "", 1, "bound") == before);
    add_catalog(gpu("memo-gpu", 4));
    const double after = formula::step_ms("llama-3.1-8b", "memo-gpu", 8, 4096, "", "", 1, "bound");
    CHECK(after == formula::step_ms("llama-3.1-8b", "memo-gpu-4", 8, 4096, "", "", 1, "bound"));
    CHECK(after == Approx(before / 2).epsilon(0.05));  // memory bound: twice the bandwidth, about half the time
    // A refusal is not remembered as a success, nor a success as a refusal, whatever came just before.
    CHECK_THROWS_WITH(formula::step_ms("llama-3.1-8b", "memo-gpu", 8, 4096, "", "", 3, "bound"), Contains("tp"));
    CHECK(formula::step_ms("llama-3.1-8b", "memo-gpu", 8, 4096, "", "", 1, "bound") == after);
    CHECK_THROWS_WITH(formula::step_ms("llama-3.1-8b", "memo-gpu", 8, 4096, "fp99", "", 1, "bound"), Contains("fp99"));
    // The same texts in a formula of other defaults: TTFT writes a 16-bit cache, STEP_MS reads one of kv_dtype.
    CHECK(formula::step_ms("llama-3.1-8b", "memo-gpu", 8, 4096, "", "fp8", 1, "bound") < after);
}

TEST_CASE("PLAN rejects bad input with an error naming the argument", "[serving]") {
    const Workload w{2000, 300};
    const Targets t{500, 50};
    require_error([&] { plan("llama-3.1-70b", -1, w, t); }, Status::invalid_argument, "rps");
    require_error([&] { plan("llama-3.1-70b", 0, w, t); }, Status::invalid_argument, "rps");
    require_error([&] { plan("llama3-70b", 100, w, t); }, Status::unknown_id, "model");
    try {
        plan("llama3-70b", 100, w, t);
    } catch (const Error& e) {
        CHECK(e.reason() == "no model 'llama3-70b' in the catalog; did you mean 'llama-3-70b'?");
    }
    require_error([&] { plan("llama-3.1-70b", 100, w, {500, 0.01}); }, Status::no_solution, "tpot_ms");
    require_error([&] { plan("llama-3.1-70b", 100, w, {0.01, 50}); }, Status::no_solution, "ttft_ms");
    require_error([&] { plan("llama-3.1-70b", 100, w, {-1, 50}); }, Status::invalid_argument, "ttft_ms");
    PlanOptions o;
    o.gpus = {"h100"};
    require_error([&] { plan("llama-3.1-70b", 100, w, t, o); }, Status::unknown_id, "gpu");
    o = {};
    o.profile = "fast";
    require_error([&] { plan("llama-3.1-70b", 100, w, t, o); }, Status::unknown_id, "profile");
    o = {};
    o.mem_util = 1.5;
    require_error([&] { plan("llama-3.1-70b", 100, w, t, o); }, Status::invalid_argument, "mem_util");
    o = {};
    o.gpus = {"rtx-3090"};
    o.tps = {1};
    o.weights = DType::bf16;
    require_error([&] { plan("llama-3.1-405b", 1, w, t, o); }, Status::no_solution, "model");
}

TEST_CASE("catalog prices: every price is a number >= 0, and the data-center GPUs have one", "[serving][catalog]") {
    for (const std::string& id : gpu_ids()) {
        INFO(id);
        CHECK(find_gpu(id)->usd_per_gpu_hour >= 0);
    }
    for (const char* id : {"h100-sxm", "h100-pcie", "h100-nvl", "h200", "b200", "a100-sxm-40gb", "a100-sxm-80gb", "l40s", "l4",
                            "a10g", "mi300x"}) {
        INFO(id);
        CHECK(find_gpu(id)->usd_per_gpu_hour > 0);
        CHECK(gpu_field(*find_gpu(id), "usd_per_gpu_hour") == find_gpu(id)->usd_per_gpu_hour);
    }
}

TEST_CASE("no published serving throughput beats bound, typical stays below bound", "[serving]") {
    // The validation rows, and those of prompts of 16k tokens or more reported apart (docs/accuracy.md).
    auto rows = measurements::read(ROOFLINE_SERVING_VALIDATION);
    REQUIRE(rows.size() >= 9);
    const auto long_prompts = measurements::read(ROOFLINE_SERVING_VALIDATION_LONG);
    REQUIRE(long_prompts.size() >= 4);
    int bursts = 0;
    for (const auto& r : long_prompts) {
        INFO(r["id"]);
        CHECK(r.number("prompt_tokens") >= 16384);
        // A burst (GPUStack's 100 requests at once) simulated under bound: no published mean TTFT below it, no
        // published throughput above it.
        if (!serving_validation::is_burst(r)) continue;
        ++bursts;
        const auto b = serving_validation::simulated_burst(r, bound());
        INFO("bound's burst: TTFT " << b.ttft_ms << " ms, " << b.tokens_per_s_per_gpu << " tokens/s per GPU");
        CHECK(serving_validation::bound_holds(r, b));
    }
    CHECK(bursts >= 19);
    rows.insert(rows.end(), long_prompts.begin(), long_prompts.end());
    for (const auto& r : rows) {
        INFO(r["id"] << " (" << r["source"] << ")");
        const double published = r.number("output_tokens_per_s_per_gpu");
        const double b = serving_validation::predicted_tokens_per_s_per_gpu(r, bound());
        const double t = serving_validation::predicted_tokens_per_s_per_gpu(r, typical());
        CHECK(b >= published);
        CHECK(t <= b);
    }
}

TEST_CASE("bound stays a bound over layouts: for every validation row, the best bound over the layouts of its GPUs "
          "(its own, TP, TEP and DEP for MoE models, pipeline stages) is at least the published throughput",
          "[serving][layouts]") {
    const auto rows = measurements::read(ROOFLINE_SERVING_VALIDATION);
    int moe_rows = 0, layout_rows = 0;
    for (const auto& r : rows) {
        INFO(r["id"] << " (" << serving_validation::layout_kind(r) << ")");
        const double published = r.number("output_tokens_per_s_per_gpu");
        const Deployment own = serving_validation::deployment(r);
        const std::vector<Layout> layouts = serving_validation::bound_layouts(own);
        // The row's own layout first, then tensor parallelism; TEP and DEP on every GPU of an MoE row; pipeline
        // stages where tp > 1; each where the operator model accepts it (tensor-parallel attention over 48, 72
        // or 96 GPUs does not divide DeepSeek's 128 or Kimi K2's 64 heads: only DEP is left there).
        REQUIRE(!layouts.empty());
        CHECK((layouts[0].ep == own.layout.ep && layouts[0].dp_attention == own.layout.dp_attention &&
               layouts[0].pp == own.layout.pp));
        const auto has = [&](double ep, double dp, double pp) {
            if (!layout_problem(own.model, own.tp, {ep, dp, pp}).empty()) return true;  // not expressible
            return std::any_of(layouts.begin(), layouts.end(), [&](const Layout& l) {
                return l.ep == ep && l.dp_attention == dp && l.pp == pp;
            });
        };
        CHECK(has(1, 1, 1));
        if (own.model.moe()) {
            ++moe_rows;
            CHECK(has(own.tp, 1, 1));
            CHECK(has(own.tp, own.tp, 1));
        }
        if (own.tp > 1) CHECK(has(1, 1, own.tp));
        if (!own.layout.trivial()) ++layout_rows;
        const auto [best, layout] = serving_validation::best_bound_over_layouts(r, bound());
        INFO("best bound " << best << " in ep " << layout.ep << " dp_attention " << layout.dp_attention << " pp "
                           << layout.pp << ", published " << published);
        CHECK(best >= published);
        // The best over layouts is never below the row's own layout's bound.
        CHECK(best >= serving_validation::predicted_tokens_per_s_per_gpu(r, bound()));
    }
    // The file holds MoE rows and rows in layouts other than tensor parallelism (EP with DP attention, PP).
    CHECK(moe_rows >= 6);
    CHECK(layout_rows >= 6);
}
