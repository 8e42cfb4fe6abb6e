// Layouts of a replica (operators.hpp, Layout; docs/serving-model.md, "Layouts"): expert parallelism,
// data-parallel attention and pipeline parallelism, against hand computations from the documented model, and
// through the formulas (the arguments ep, dp_attention and pp) and the C ABI's _v2 functions.
#include <algorithm>
#include <catch2/catch.hpp>

#include <roofline.h>

#include <cmath>
#include <string>
#include <vector>

#include "roofline/catalog.hpp"
#include "roofline/kernels.hpp"
#include "roofline/error.hpp"
#include "roofline/formulas.hpp"
#include "roofline/operators.hpp"
#include "roofline/serving.hpp"

using namespace roofline;
using Catch::Matchers::Contains;

namespace {

const Profile& bound() { return *find_profile("bound"); }
const Profile& typical() { return *find_profile("typical"); }

Deployment deploy(const char* model, const char* gpu, DType weights, double tp, Layout layout = {}) {
    Deployment d{*find_model(model), *find_gpu(gpu), weights, DType::bf16, tp};
    d.layout = layout;
    return d;
}

const Operator* find_op(const std::vector<Operator>& ops, const std::string& name) {
    for (const Operator& op : ops)
        if (op.name == name) return &op;
    return nullptr;
}

double total_ms(std::vector<Operator> ops, const Deployment& d, const Profile& p) { return estimate(ops, d.gpu, p); }

}  // namespace

TEST_CASE("a trivial layout changes nothing, operator by operator") {
    for (const char* model : {"llama-3.1-70b", "deepseek-v3", "qwen3-next-80b-a3b", "gpt-oss-120b"}) {
        const Deployment plain = deploy(model, "h200", DType::fp8, 8);
        const Deployment explicit_ones = deploy(model, "h200", DType::fp8, 8, {1, 1, 1});
        const auto a = decode_operators(plain, 64, 8192), b = decode_operators(explicit_ones, 64, 8192);
        REQUIRE(a.size() == b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            CHECK(a[i].name == b[i].name);
            CHECK(a[i].flops == b[i].flops);
            CHECK(a[i].bytes == b[i].bytes);
            CHECK(a[i].link_bytes == b[i].link_bytes);
        }
        CHECK(find_op(a, "alltoall") == nullptr);
        CHECK(find_op(a, "allgather") == nullptr);
        CHECK(find_op(a, "pipeline") == nullptr);
    }
}

TEST_CASE("data-parallel attention: each GPU holds the MLA latent of its own sequences only") {
    // DeepSeek-V3 stores one latent of kv_lora_rank + qk_rope_head_dim = 512 + 64 values per token and layer,
    // shared by all heads: in tensor parallelism every GPU keeps all of it. 61 layers, 16-bit values.
    const ModelSpec& m = *model_entry("deepseek-v3");
    REQUIRE(m.kv_lora_rank == 512);
    REQUIRE(m.qk_rope_head_dim == 64);
    REQUIRE(m.layers == 61);
    const double per_token = 61 * (512 + 64) * 2.0;
    const Deployment tp8 = deploy("deepseek-v3", "h200", DType::fp8, 8);
    const Deployment dep8 = deploy("deepseek-v3", "h200", DType::fp8, 8, {8, 8, 1});
    CHECK(kv_bytes_per_sequence_per_gpu(tp8, 8192) == Approx(8192 * per_token));
    CHECK(kv_bytes_per_sequence_per_gpu(dep8, 8192) == Approx(8192 * per_token / 8));
    // The formula: 64 sequences of 8192 tokens, GB per GPU.
    CHECK(formula::cache_gb("deepseek-v3", 64, 8192, "", 8, 8, 8, 1) == Approx(64 * 8192 * per_token / 8 / 1e9));
    CHECK(formula::cache_gb("deepseek-v3", 64, 8192, "", 8) == Approx(64 * 8192 * per_token / 1e9));
    // Decode attention reads each group's sequences: an eighth of the bytes on each GPU.
    const auto a = decode_operators(tp8, 64, 8192), b = decode_operators(dep8, 64, 8192);
    CHECK(find_op(b, "attention")->bytes == Approx(find_op(a, "attention")->bytes / 8));
    // And more sequences fit beside the weights (the attention weights are replicated in each group).
    CHECK(weight_bytes_per_gpu(dep8) > weight_bytes_per_gpu(tp8));
    const double usable = 0.9 * 150.75e9;  // of what the driver reports of a "141 GB" H200 (memory_reported_gb, 0.16)
    CHECK(formula::fit_batch("deepseek-v3", "h200", 8192, "fp8", "", 8, 0.9, 8, 8, 1) ==
          std::floor((usable - weight_bytes_per_gpu(dep8)) / (8192 * per_token / 8)));
    CHECK(formula::fit_batch("deepseek-v3", "h200", 8192, "fp8", "", 8, 0.9) ==
          std::floor((usable - weight_bytes_per_gpu(tp8)) / (8192 * per_token)));
}

TEST_CASE("expert parallelism: data-parallel attention sends its tokens to the experts and back, TEP sums them") {
    const ModelSpec& m = *model_entry("deepseek-v3");
    const double moe_layers = m.moe_layers(), k = m.experts_per_token, h = m.hidden;
    REQUIRE(moe_layers == 58);
    REQUIRE(k == 8);
    REQUIRE(m.layers_with(Mlp::dense) == 3);
    const Deployment tp8 = deploy("deepseek-v3", "h200", DType::fp8, 8);
    const Deployment ep8 = deploy("deepseek-v3", "h200", DType::fp8, 8, {8, 1, 1});
    const Deployment dep8 = deploy("deepseek-v3", "h200", DType::fp8, 8, {8, 8, 1});
    const double tokens = 256;
    const auto plain = decode_operators(tp8, tokens, 4096);
    const auto tep = decode_operators(ep8, tokens, 4096);
    const auto dep = decode_operators(dep8, tokens, 4096);
    // The experts' weights per GPU and the FLOPs stay; each GPU reads the activations of its own tokens only.
    CHECK(weight_bytes_per_gpu(ep8) == Approx(weight_bytes_per_gpu(tp8)));
    CHECK(find_op(tep, "experts")->flops == Approx(find_op(plain, "experts")->flops));
    const double activations = moe_layers * tokens * k * 2 * h * 2;
    CHECK(find_op(plain, "experts")->bytes - find_op(tep, "experts")->bytes == Approx(activations * 7 / 8));
    // TEP (attention in tensor parallel over 8): every GPU holds all 256 tokens, runs its experts on those routed to
    // them, and the outputs are all-reduced as a tensor-parallel MLP's: the same all-reduces as TP, no all-to-all.
    CHECK(find_op(tep, "alltoall") == nullptr);
    CHECK(find_op(tep, "allgather") == nullptr);
    CHECK(find_op(plain, "allreduce")->count == 2 * 61);
    CHECK(find_op(tep, "allreduce")->count == 2 * 61);
    CHECK(find_op(tep, "allreduce")->link_bytes == Approx(find_op(plain, "allreduce")->link_bytes));
    CHECK(find_op(tep, "allreduce")->link_bytes == Approx(2 * 61 * 2 * 7.0 / 8 * tokens * h * 2));
    // DEP: dispatch and combine. Each GPU sends its 256 / 8 tokens to 8 experts, 7/8 of them elsewhere, in FP8, and
    // takes the outputs back in 16 bits: 32 x 8 x 7/8 x 7168 x (1 + 2) bytes per MoE layer.
    const double alltoall = moe_layers * (tokens / 8) * k * 7.0 / 8 * h * (1 + 2);
    CHECK(find_op(dep, "alltoall")->link_bytes == Approx(alltoall));
    CHECK(find_op(dep, "alltoall")->count == 2 * moe_layers);
    // Attention per GPU and the three dense MLPs beside it, each GPU on its own 32 tokens with the whole MLP:
    // nothing gathered, nothing reduced; the dense MLPs' weights on every GPU.
    CHECK(find_op(dep, "allreduce") == nullptr);
    CHECK(find_op(dep, "allgather") == nullptr);
    CHECK(find_op(dep, "mlp")->flops == Approx(find_op(plain, "mlp")->flops));
    // Every GPU reads the whole dense MLPs in DEP, an eighth of them in TP8 (and, there, the activations of all 256
    // tokens: more than an eighth of the bytes in all).
    const double dense_mlp = 3 * m.dense_mlp_params();  // fp8: a byte a weight
    CHECK(find_op(dep, "mlp")->bytes >= dense_mlp);
    CHECK(find_op(plain, "mlp")->bytes > dense_mlp / 8);
    CHECK(find_op(plain, "mlp")->bytes < dense_mlp / 4);
    CHECK(weight_bytes_per_gpu(dep8) - weight_bytes_per_gpu(tp8) >= dense_mlp * 7 / 8);
}

TEST_CASE("expert load imbalance: typical's documented factor slows the expert-parallel experts only") {
    // profiles.json, typical's "set": 1.11, TensorRT-LLM's EP32 measurement with a load balancer; bound keeps 1.
    CHECK(typical().expert_imbalance == 1.11);
    CHECK(bound().expert_imbalance == 1);
    Profile balanced = typical();
    balanced.expert_imbalance = 1;
    const Deployment dep8 = deploy("deepseek-v3", "h200", DType::fp8, 8, {8, 8, 1});
    const Deployment tp8 = deploy("deepseek-v3", "h200", DType::fp8, 8);
    for (const Deployment* d : {&dep8, &tp8}) {
        auto ops = decode_operators(*d, 256, 4096), same = ops;
        estimate(ops, d->gpu, typical());
        estimate(same, d->gpu, balanced);
        for (std::size_t i = 0; i < ops.size(); ++i) {
            INFO(ops[i].name);
            const double factor = ops[i].expert_parallel && ops[i].link_bytes == 0 ? 1.11 : 1.0;
            // A MoE layer's fixed kernel time (Profile::moe_layer) is the busiest GPU's as every other's.
            const double fixed = ops[i].kind == OperatorKind::experts
                                     ? ops[i].layers * typical().moe_layer * moe_layer_us(d->gpu.architecture) / 1e3
                                     : 0;
            CHECK(ops[i].ms - fixed == Approx((same[i].ms - fixed) * factor));
        }
        CHECK((d == &dep8) == (find_op(ops, "experts")->expert_parallel));
    }
}

TEST_CASE("expert parallelism needs experts, and a layout must divide the replica") {
    auto refused = [](auto&& call, const char* argument) {
        try {
            call();
        } catch (const Error& e) {
            CHECK(e.argument() == argument);
            return std::string(e.what());
        }
        FAIL("accepted");
        return std::string();
    };
    CHECK_THAT(refused([] { formula::step_ms("llama-3.1-70b", "h200", 8, 1024, "", "", 8, "bound", 2, 1, 1); }, "ep"),
               Contains("without experts"));
    CHECK_THAT(refused([] { formula::step_ms("deepseek-v3", "h200", 8, 1024, "", "", 8, "bound", 3, 1, 1); }, "ep"),
               Contains("does not divide tp / pp = 8"));
    CHECK_THAT(refused([] { formula::step_ms("llama-3.1-70b", "h200", 8, 1024, "", "", 8, "bound", 1, 1, 3); }, "pp"),
               Contains("does not divide tp = 8"));
    CHECK_THAT(refused([] { formula::step_ms("llama-3.1-70b", "h200", 8, 1024, "", "", 8, "bound", 1, 16, 1); },
                       "dp_attention"),
               Contains("does not divide"));
    CHECK_THAT(refused([] { formula::step_ms("llama-3.1-70b", "h200", 8, 1024, "", "", 8, "bound", 1, 1, 1.5); }, "pp"),
               Contains("whole number"));
    CHECK_THAT(refused([] { formula::cache_gb("deepseek-v3", 8, 1024, "", 8, 16, 1, 1); }, "ep"),
               Contains("does not divide"));
}

TEST_CASE("pipeline parallelism: a round is the whole model on one micro-batch on one stage's GPUs") {
    // Llama 3.1 70B on 2 H100 as TP1 x PP2: each stage one GPU with 40 of the 80 layers. A round of 64 sequences
    // is the whole model on a micro-batch of 32 on one GPU, plus the activations from stage to stage.
    const Deployment pp2 = deploy("llama-3.1-70b", "h100-sxm", DType::fp8, 2, {1, 1, 2});
    const Deployment one = deploy("llama-3.1-70b", "h100-sxm", DType::fp8, 1);
    const auto round = decode_operators(pp2, 64, 2048);
    const auto half = decode_operators(one, 32, 2048);
    const Operator* p2p = find_op(round, "pipeline");
    REQUIRE(p2p != nullptr);
    CHECK(p2p->count == 1);
    CHECK(p2p->link_bytes == Approx(32 * 8192 * 2.0));  // 32 tokens x hidden 8192, 16-bit, to the next stage
    std::vector<Operator> without_p2p;
    for (const Operator& op : round)
        if (op.name != "pipeline") without_p2p.push_back(op);
    CHECK(total_ms(without_p2p, pp2, bound()) == Approx(total_ms(half, one, bound())));
    // Weights: each GPU holds half of the layers, and the embedding or the lm_head (not both).
    const ModelSpec& m = pp2.model;
    const double embedding = m.vocab * m.hidden * 1.0;  // fp8: a byte per weight
    CHECK(weight_bytes_per_gpu(pp2) == Approx((weight_bytes_per_gpu(one) - 2 * embedding) / 2 + embedding).epsilon(1e-6));
    // The KV cache: each stage holds its layers' share of every sequence.
    CHECK(kv_bytes_per_sequence_per_gpu(pp2, 4096) == Approx(kv_bytes_per_sequence_per_gpu(one, 4096) / 2));
    // Latency: one sequence's token takes as long as on one GPU (both stages, one after the other) plus the
    // transfer; the throughput per GPU at a large batch is that of tp 2.
    CHECK(formula::step_ms("llama-3.1-70b", "h100-sxm", 1, 2048, "fp8", "", 2, "bound", 1, 1, 2) >
          formula::step_ms("llama-3.1-70b", "h100-sxm", 1, 2048, "fp8", "", 1, "bound"));
}

TEST_CASE("layouts keep bound below typical, in the serving model too") {
    const serving::Workload w{1000, 200};
    for (const Layout& layout : {Layout{8, 8, 1}, Layout{8, 1, 1}, Layout{4, 2, 1}, Layout{1, 8, 1}, Layout{8, 4, 1}}) {
        const Deployment d = deploy("deepseek-v3", "h200", DType::fp8, 8, layout);
        for (double batch : {1.0, 16.0, 128.0}) {
            CHECK(total_ms(decode_operators(d, batch, 4096), d, bound()) <=
                  total_ms(decode_operators(d, batch, 4096), d, typical()));
            CHECK(serving::iteration_ms(d, bound(), w, batch, 1) <= serving::iteration_ms(d, typical(), w, batch, 1));
        }
    }
    // The serving model's fused iteration of the DEP8 layout against operator lists built directly: decode alone.
    const Deployment dep8 = deploy("deepseek-v3", "h200", DType::fp8, 8, {8, 8, 1});
    const serving::Workload one_context{4096, 2};  // one decode step at 4096 tokens of context
    CHECK(serving::iteration_ms(dep8, bound(), one_context, 64, 0) ==
          Approx(total_ms(decode_operators(dep8, 64, 4096), dep8, bound())));
    const Deployment pp2 = deploy("llama-3.1-70b", "h100-sxm", DType::fp8, 2, {1, 1, 2});
    CHECK(serving::iteration_ms(pp2, typical(), one_context, 64, 0) ==
          Approx(total_ms(decode_operators(pp2, 64, 4096), pp2, typical())));
}

TEST_CASE("the C ABI: the released functions take the defaults of the layout, the _v2 ones all of it") {
    double a = 0, b = 0;
    REQUIRE(roofline_step_ms("deepseek-v3", "h200", 64, 4096, "fp8", "", 8, "typical", &a) == ROOFLINE_OK);
    REQUIRE(roofline_step_ms_v2("deepseek-v3", "h200", 64, 4096, "fp8", "", 8, "typical", 1, 1, 1, &b) == ROOFLINE_OK);
    CHECK(a == b);
    REQUIRE(roofline_step_ms_v2("deepseek-v3", "h200", 64, 4096, "fp8", "", 8, "typical", 8, 8, 1, &b) == ROOFLINE_OK);
    CHECK(b == formula::step_ms("deepseek-v3", "h200", 64, 4096, "fp8", "", 8, "typical", 8, 8, 1));
    CHECK(b != a);
    REQUIRE(roofline_cache_gb_v2("deepseek-v3", 64, 4096, "", 8, 8, 8, 1, &b) == ROOFLINE_OK);
    REQUIRE(roofline_cache_gb("deepseek-v3", 64, 4096, "", 8, &a) == ROOFLINE_OK);
    CHECK(b == Approx(a / 8));
    CHECK(roofline_step_ms_v2("llama-3.1-70b", "h200", 8, 1024, "", "", 8, "bound", 2, 1, 1, &b) ==
          ROOFLINE_ERROR_ARGUMENT);
    CHECK(std::string(roofline_errarg()) == "ep");
    // The table tells which function is which.
    const roofline_formula_info* f = roofline_formula_find("ROOFLINE_STEP_MS");
    REQUIRE(f != nullptr);
    CHECK(f->c_arg_count == 8);
    CHECK(f->arg_count == 11);
    CHECK(std::string(f->c_name) == "roofline_step_ms");
    CHECK(std::string(f->c_name_all) == "roofline_step_ms_v2");
    const roofline_formula_info* d = roofline_formula_find("ROOFLINE_DECODE_MS");
    CHECK(d->c_arg_count == d->arg_count);
    CHECK(std::string(d->c_name_all) == "roofline_decode_ms");
}

TEST_CASE("a replica beyond its scale-up domain: the traffic to the other domains goes over the network") {
    // DeepSeek-V3 as DEP16 on two 8-GPU H100 nodes: of each GPU's 15 peers, 8 are on the other node.
    const GpuSpec& h100 = *gpu_entry("h100-sxm");
    REQUIRE(h100.scaleup_gpus == 8);
    REQUIRE(h100.scaleout_tbs > 0);
    const Deployment dep16 = deploy("deepseek-v3", "h100-sxm", DType::fp8, 16, {16, 16, 1});
    const auto ops = decode_operators(dep16, 512, 2048);
    const Operator& a2a = *find_op(ops, "alltoall");
    CHECK(a2a.scaleout_bytes == Approx(a2a.link_bytes * 8 / 15));
    std::vector<Operator> only{a2a};
    const double ms = estimate(only, h100, typical()) - typical().step_overhead_ms -
                      a2a.count * typical().alltoall_latency_us / 1e3;
    // NVLink at the fitted interconnect efficiency, the network at the set scale-out efficiency (0.8, DeepEP's).
    const double eff = typical().interconnect_efficiency, net = typical().scaleout_efficiency;
    CHECK(net == 0.8);
    CHECK(ms == Approx(std::max((a2a.link_bytes - a2a.scaleout_bytes) / (h100.interconnect_tbs * eff * 1e12),
                                a2a.scaleout_bytes / (h100.scaleout_tbs * net * 1e12)) *
                       1e3));
    // A profile without one (0: a profile text of 0.11) costs the network at the interconnect efficiency.
    Profile older = typical();
    older.scaleout_efficiency = 0;
    std::vector<Operator> again{a2a};
    CHECK(estimate(again, h100, older) - older.step_overhead_ms - a2a.count * older.alltoall_latency_us / 1e3 ==
          Approx(std::max((a2a.link_bytes - a2a.scaleout_bytes) / (h100.interconnect_tbs * eff * 1e12),
                          a2a.scaleout_bytes / (h100.scaleout_tbs * eff * 1e12)) *
                 1e3));
    // bound overlaps expert parallelism's traffic with the rest of the step: the longer of the two.
    std::vector<Operator> step = ops;
    double others = 0, traffic = 0;
    for (Operator& op : step) {
        std::vector<Operator> one{op};
        const double t = estimate(one, h100, bound());
        (op.expert_parallel && op.link_bytes > 0 ? traffic : others) += t;
    }
    CHECK(total_ms(ops, dep16, bound()) == Approx(std::max(others, traffic)));
    // Within one node nothing leaves it.
    const auto dep8 = decode_operators(deploy("deepseek-v3", "h100-sxm", DType::fp8, 8, {8, 8, 1}), 512, 2048);
    CHECK(find_op(dep8, "alltoall")->scaleout_bytes == 0);
    // Tensor parallelism over two nodes: every ring step waits for the network.
    const auto tp16 = decode_operators(deploy("llama-3.1-405b", "h100-sxm", DType::fp8, 16), 64, 2048);
    CHECK(find_op(tp16, "allreduce")->scaleout_bytes == find_op(tp16, "allreduce")->link_bytes);
    // Pipeline stages of a node each: the one boundary between the two nodes goes over the network.
    const auto pp2 = decode_operators(deploy("llama-3.1-405b", "h100-sxm", DType::fp8, 16, {1, 1, 2}), 64, 2048);
    CHECK(find_op(pp2, "pipeline")->scaleout_bytes == find_op(pp2, "pipeline")->link_bytes);
    CHECK(find_op(pp2, "allreduce")->scaleout_bytes == 0);
    // A GPU without a network bandwidth in the catalog stays within its domain.
    try {
        formula::step_ms("llama-3.1-70b", "l40s", 8, 1024, "", "", 16, "bound");
        FAIL("accepted");
    } catch (const Error& e) {
        CHECK(e.argument() == "tp");
        CHECK_THAT(e.what(), Contains("scale-up domain"));
    }
}

TEST_CASE("the planner searches layouts and FP4 formats, on a list of GPUs, and lists the best by default") {
    // DeepSeek-R1 at 20 requests/s of 1000 -> 1000 tokens within 2 s to the first token and 50 ms per token.
    serving::PlanOptions o;
    o.gpus = {"b200", "h200"};
    o.all_rows = true;
    const auto all = serving::plan("deepseek-r1", 20, {1000, 1000}, {2000, 50}, o);
    bool dep = false, fp4 = false, other_gpu = false;
    for (const serving::PlanRow& r : all) {
        other_gpu |= r.gpu != "b200" && r.gpu != "h200";
        dep |= r.layout.ep == r.tp && r.layout.dp_attention == r.tp && r.tp > 1;
        fp4 |= r.gpu == "b200" && r.weights == DType::nvfp4;
        CHECK(layout_problem(*model_entry("deepseek-r1"), r.tp, r.layout).empty());
        // By default the published checkpoints only (issue #32: no int4 DeepSeek-R1 is published).
        CHECK(r.weights != DType::int4);
        CHECK_FALSE(r.checkpoint.empty());
        if (r.weights == DType::nvfp4) CHECK(r.checkpoint == "nvidia/DeepSeek-R1-FP4");
    }
    CHECK_FALSE(other_gpu);
    CHECK(dep);
    CHECK(fp4);
    // "all": every format in every module too, a superset; those without a published checkpoint say so.
    o.formats = serving::PlanOptions::Formats::all;
    const auto every = serving::plan("deepseek-r1", 20, {1000, 1000}, {2000, 50}, o);
    CHECK(every.size() > all.size());
    bool int4 = false;
    for (const serving::PlanRow& r : every) {
        if (r.weights == DType::int4) {
            int4 = true;
            CHECK(r.checkpoint.empty());
        }
    }
    CHECK(int4);
    for (const serving::PlanRow& r : all)
        CHECK(std::any_of(every.begin(), every.end(), [&](const serving::PlanRow& e) {
            return e.gpu == r.gpu && e.tp == r.tp && e.checkpoint == r.checkpoint && e.layout.ep == r.layout.ep &&
                   e.layout.dp_attention == r.layout.dp_attention && e.layout.pp == r.layout.pp && e.batch == r.batch;
        }));
    o.formats = serving::PlanOptions::Formats::published;
    // By default only the rows no other row of the same GPU beats on both cost and TPOT.
    o.all_rows = false;
    const auto best = serving::plan("deepseek-r1", 20, {1000, 1000}, {2000, 50}, o);
    REQUIRE_FALSE(best.empty());
    CHECK(best.size() < all.size());
    for (const serving::PlanRow& r : best)
        for (const serving::PlanRow& x : all) {
            if (x.gpu != r.gpu) continue;
            const bool beats = (*x.usd_per_hour < *r.usd_per_hour && x.tpot_ms <= r.tpot_ms) ||
                               (*x.usd_per_hour <= *r.usd_per_hour && x.tpot_ms < r.tpot_ms);
            CHECK_FALSE(beats);
        }
    // The formula: a list of GPUs, the layout columns, and rows=all.
    const Table t = formula::plan("deepseek-r1", 20, 1000, 1000, 2000, 50, "b200, h200", "", "", "typical", 0, "", 0.9,
                                  "all");
    REQUIRE(t.cols == 29);
    CHECK(std::get<std::string>(t.cells[13]) == "ep");
    CHECK(std::get<std::string>(t.cells[15]) == "pp");
    CHECK(std::get<std::string>(t.cells[16]) == "capacity_tok_s_per_gpu");
    CHECK(std::get<std::string>(t.cells[17]) == "checkpoint");
    CHECK(std::get<std::string>(t.cells[18]) == "engine_tp");
    CHECK(t.rows == all.size() + 1);
    // A row of two pipeline stages: the engine runs tp / 2 GPUs in tensor parallelism, twice.
    bool staged = false;
    for (std::size_t r = 1; r < t.rows; ++r) {
        const double tp = std::get<double>(t.cells[r * t.cols + 1]), pp = std::get<double>(t.cells[r * t.cols + 15]);
        CHECK(std::get<double>(t.cells[r * t.cols + 18]) == tp / pp);
        staged = staged || pp == 2;
    }
    CHECK(staged);
}

TEST_CASE("when nothing fits, the planner says what the weights need against what the GPUs have") {
    serving::PlanOptions o;
    o.gpus = {"rtx-3090"};
    o.weights = DType::bf16;
    try {
        serving::plan("llama-3.1-405b", 1, {1000, 100}, {1000, 50}, o);
        FAIL("planned");
    } catch (const Error& e) {
        CHECK(e.argument() == "model");
        // The nearest: bf16 at tp 8 (the domain of the catalog's RTX 3090 server), 24 GB of which 0.9 usable.
        CHECK_THAT(e.what(), Contains("at tp 8 on 'rtx-3090'"));
        CHECK_THAT(e.what(), Contains("21.6 GB"));
        CHECK_THAT(e.what(), Contains("a smaller format"));
    }
}
