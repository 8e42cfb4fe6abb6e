// The Planner formulas of the table (ROOFLINE_E2E_MS, ROOFLINE_SLO_BATCH, ROOFLINE_REPLICA_RPS, ROOFLINE_PLAN,
// ROOFLINE_COST_PER_MTOK, ROOFLINE_SPEC_TOKENS, ROOFLINE_SPEC_STEP_MS): each called by name through the formula
// layer gives the serving model's answer (serving.hpp, docs/serving-model.md), the primitives give hand-computed
// values, the plan array has its documented header and order, and bad input names its argument.
#include <catch2/catch.hpp>

#include <set>

#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "roofline/catalog.hpp"
#include "roofline/error.hpp"
#include "roofline/formulas.hpp"
#include "roofline/operators.hpp"
#include "roofline/power.hpp"
#include "roofline/serving.hpp"

using namespace roofline;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

Arg text(const char* s) { return {std::string(s)}; }
Arg num(double v) { return {v}; }

double number(const char* formula, std::vector<Arg> args) { return std::get<double>(call(formula, args).value); }
Table table(const char* formula, std::vector<Arg> args) { return std::get<Table>(call(formula, args).value); }

const Profile& profile(const char* name) { return *find_profile(name); }

Deployment deploy(const char* model, const char* gpu, DType weights, double tp) {
    return {*find_model(model), *find_gpu(gpu), weights, DType::bf16, tp};
}

/// The error of a call by name.
Error error_of(const char* formula, std::vector<Arg> args) {
    try {
        call(formula, args);
    } catch (const Error& e) {
        return e;
    }
    FAIL(formula << ": no error");
    return Error::of_call(Status::internal, "", "", "");
}

/// The call fails with this status, naming this argument in its message, after the formula's name.
void require_error(const char* formula, std::vector<Arg> args, Status status, const std::string& argument) {
    const Error e = error_of(formula, std::move(args));
    INFO(e.what());
    CHECK(e.status() == status);
    CHECK(e.argument() == argument);
    CHECK(e.where() == formula);
    CHECK_THAT(std::string(e.what()), StartsWith(std::string(formula) + ": ") && Contains(argument));
}

const std::variant<double, std::string>& cell(const Table& t, std::size_t row, std::size_t col) {
    return t.cells.at(row * t.cols + col);
}
double num_at(const Table& t, std::size_t row, std::size_t col) { return std::get<double>(cell(t, row, col)); }
const std::string& text_at(const Table& t, std::size_t row, std::size_t col) { return std::get<std::string>(cell(t, row, col)); }

enum Column { kGpu, kTp, kWeights, kBatch, kReplicas, kPrefillTp, kPrefillReplicas, kGpus, kTtft, kTpot, kTokS, kUsdHour, kUsdMtok, kEp, kDpAttention, kPp,
             kCapacity, kCheckpoint, kEngineTp, kUsdMonth, kUsdMtokBlended, kKw, kJPerToken, kTokSPerMw, kPrefillGpu,
             kUsdMtokInput, kUsdMtokOutput, kServers, kUsdGpuHour };

/// GPUs paid for in row `r`: the servers rented (each pool's, rounded up; the default since 0.14) of the row's GPU.
double paid_gpus(const Table& t, std::size_t r) {
    return num_at(t, r, kServers) * find_gpu(text_at(t, r, kGpu))->server_gpus;
}

/// The example of issue 11: Llama 3.1 70B, 100 requests/s, 2000 -> 300 tokens, TTFT 500 ms, TPOT 50 ms.
std::vector<Arg> example(std::vector<Arg> optional = {}) {
    std::vector<Arg> args{text("llama-3.1-70b"), num(100), num(2000), num(300), num(500), num(50)};
    args.insert(args.end(), optional.begin(), optional.end());
    return args;
}

}  // namespace

TEST_CASE("the primitives by hand: cost per million tokens and speculative tokens", "[planner]") {
    // 8 GPUs at 2 USD an hour = 16 USD/h; 1000 tokens/s = 3.6e6 tokens/h; 16 / 3.6e6 x 1e6 = 4.4444 USD.
    CHECK(number("ROOFLINE_COST_PER_MTOK", {num(2), num(8), num(1000)}) == Approx(4.444444444444));
    CHECK(number("ROOFLINE_COST_PER_MTOK", {num(0), num(1), num(1)}) == 0);
    // (1 - 0.8^5) / (1 - 0.8) = 1 + 0.8 + 0.64 + 0.512 + 0.4096 = 3.3616.
    CHECK(number("ROOFLINE_SPEC_TOKENS", {num(0.8), num(4)}) == Approx(3.3616).epsilon(1e-12));
    CHECK(number("ROOFLINE_SPEC_TOKENS", {num(0), num(4)}) == 1);  // nothing accepted: the target's own token
    CHECK(number("ROOFLINE_SPEC_TOKENS", {num(1), num(4)}) == 5);  // everything accepted: 4 drafted + 1
    CHECK(number("ROOFLINE_SPEC_TOKENS", {num(0.5), num(1)}) == Approx(1.5));
}

TEST_CASE("each planner formula is the serving model's function, defaults from the table", "[planner]") {
    const Deployment d = deploy("llama-3.1-70b", "h100-sxm", DType::fp8, 4);
    const serving::Workload w{2000, 300};
    SECTION("E2E_MS = TTFT + (output - 1) x TPOT of the replica at that batch") {
        for (const char* p : {"typical", "bound"}) {
            INFO(p);
            const serving::ReplicaState s = serving::replica_state(d, profile(p), w, 32);
            const double e2e = number("ROOFLINE_E2E_MS", {text("llama-3.1-70b"), text("h100-sxm"), num(2000), num(300),
                                                          num(32), text("fp8"), text(""), num(4), text(p)});
            CHECK(e2e == serving::e2e_ms(d, profile(p), w, 32));
            CHECK(e2e == Approx(s.ttft_ms + 299 * s.tpot_ms).epsilon(1e-12));
            CHECK(s.ttft_ms > 0);
            CHECK(s.tpot_ms > 0);
        }
        // The profile left out is typical (the planner's estimate), mem_util 0.9.
        CHECK(number("ROOFLINE_E2E_MS", {text("llama-3.1-70b"), text("h100-sxm"), num(2000), num(300), num(32), text("fp8"),
                                         text(""), num(4)}) == serving::e2e_ms(d, profile("typical"), w, 32, 0.9));
    }
    SECTION("SLO_BATCH") {
        const Deployment d8 = deploy("llama-3.1-8b", "h100-sxm", DType::bf16, 1);
        const double b = number("ROOFLINE_SLO_BATCH", {text("llama-3.1-8b"), text("h100-sxm"), num(4096), num(20)});
        CHECK(b == serving::slo_batch(d8, profile("typical"), 4096, 20, 0.9));
        // The step at that batch meets 20 ms and one more sequence does not (or does not fit).
        std::vector<Operator> at = decode_operators(d8, b, 4096), above = decode_operators(d8, b + 1, 4096);
        CHECK(estimate(at, d8.gpu, profile("typical")) <= 20);
        const double fit = number("ROOFLINE_FIT_BATCH", {text("llama-3.1-8b"), text("h100-sxm"), num(4096)});
        CHECK((b == fit || estimate(above, d8.gpu, profile("typical")) > 20));
    }
    SECTION("REPLICA_RPS") {
        const double rps = number("ROOFLINE_REPLICA_RPS", {text("llama-3.1-70b"), text("h100-sxm"), num(2000), num(300),
                                                           num(500), num(50), text("fp8"), text(""), num(4)});
        const serving::ReplicaState s = serving::replica_rps(d, profile("typical"), w, {500, 50});
        CHECK(rps == s.rps);
        // Little's law of the documented model: B sequences, each O - 1 iterations of TPOT.
        CHECK(rps == Approx(s.batch / (299 * s.tpot_ms / 1000)).epsilon(1e-12));
        // And E2E at that batch is the TTFT and TPOT of that state.
        CHECK(number("ROOFLINE_E2E_MS", {text("llama-3.1-70b"), text("h100-sxm"), num(2000), num(300), num(s.batch),
                                         text("fp8"), text(""), num(4)}) == Approx(s.ttft_ms + 299 * s.tpot_ms));
    }
    SECTION("SPEC_STEP_MS") {
        const double ms = number("ROOFLINE_SPEC_STEP_MS", {text("llama-3.1-70b"), text("llama-3.1-8b"), text("h100-sxm"),
                                                           num(8), num(2048), num(4), num(0.7), text("fp8"), text(""), num(4)});
        CHECK(ms == serving::spec_step_ms(d, *find_model("llama-3.1-8b"), profile("typical"), 8, 2048, 4, 0.7));
        // A good draft beats plain decoding at a small batch.
        CHECK(ms < number("ROOFLINE_STEP_MS", {text("llama-3.1-70b"), text("h100-sxm"), num(8), num(2048), text("fp8"),
                                               text(""), num(4), text("typical")}));
    }    SECTION("SPEC_STEP_MS with the model's own MTP layers as its draft (draft_model mtp)") {
        const ModelSpec r1 = *find_model("deepseek-r1");
        const ModelSpec mtp = mtp_draft(r1);
        // One decoder layer of the last layer's kind (MLA and MoE), with the embedding and the whole lm_head.
        CHECK(mtp.layers == 1);
        CHECK(mtp.moe_layers() == 1);
        CHECK(mtp.layers_with(Attention::full) == 1);
        const double moe_layer = r1.attention_params() + r1.router_params() + r1.experts * r1.expert_params() +
                                 r1.shared_experts * r1.shared_expert_params() + 2 * r1.hidden;
        CHECK(mtp.params_b() == Approx((moe_layer + 2 * r1.vocab * r1.hidden + r1.hidden) / 1e9));
        const Deployment on8{r1, *find_gpu("h200"), DType::fp8_block, DType::bf16, 8};
        const double ms = number("ROOFLINE_SPEC_STEP_MS", {text("deepseek-r1"), text("MTP"), text("h200"), num(8), num(4096),
                                                           num(1), num(0.8), text("fp8_block"), text(""), num(8)});
        CHECK(ms == serving::spec_step_ms(on8, mtp, profile("typical"), 8, 4096, 1, 0.8));
        // One MTP layer drafts for a fraction of a step: at 80% acceptance it beats plain decoding.
        CHECK(ms < number("ROOFLINE_STEP_MS", {text("deepseek-r1"), text("h200"), num(8), num(4096), text("fp8_block"),
                                               text(""), num(8), text("typical")}));
        // DSA's sparse attention stays sparse in its MTP layer.
        CHECK(mtp_draft(*find_model("deepseek-v3.2")).layers_with(Attention::sparse) == 1);
        // A model without MTP layers says so, naming draft_model.
        require_error("ROOFLINE_SPEC_STEP_MS", {text("llama-3.1-70b"), text("mtp"), text("h100-sxm"), num(8), num(2048),
                                                num(4), num(0.7)}, Status::invalid_argument, "draft_model");
        CHECK_THAT(std::string(error_of("ROOFLINE_SPEC_STEP_MS", {text("llama-3.1-70b"), text("mtp"), text("h100-sxm"),
                                                                   num(8), num(2048), num(4), num(0.7)}).what()),
                   Catch::Matchers::Contains("has no multi-token-prediction layers"));
    }
}

TEST_CASE("bound is never more optimistic than typical", "[planner]") {
    for (const char* gpu : {"h100-sxm", "a100-sxm-80gb", "mi300x"})
        for (double tp : {4.0, 8.0}) {
            INFO(gpu << " tp " << tp);
            auto with = [&](std::vector<Arg> args, const char* p) {
                args.insert(args.end(), {text("bf16"), text(""), num(tp), text(p)});
                return args;
            };
            const std::vector<Arg> e2e{text("llama-3.1-70b"), text(gpu), num(2000), num(300), num(16)};
            CHECK(number("ROOFLINE_E2E_MS", with(e2e, "bound")) <= number("ROOFLINE_E2E_MS", with(e2e, "typical")));
            const std::vector<Arg> rps{text("llama-3.1-70b"), text(gpu), num(2000), num(300), num(1000), num(60)};
            CHECK(number("ROOFLINE_REPLICA_RPS", with(rps, "bound")) >= number("ROOFLINE_REPLICA_RPS", with(rps, "typical")));
            const std::vector<Arg> slo{text("llama-3.1-70b"), text(gpu), num(2300), num(40)};
            CHECK(number("ROOFLINE_SLO_BATCH", with(slo, "bound")) >= number("ROOFLINE_SLO_BATCH", with(slo, "typical")));
        }
    // The plan: bound needs no more GPUs for the cheapest configuration than typical.
    const Table b = table("ROOFLINE_PLAN", example({text("h100-sxm"), text("fp8"), text(""), text("bound")}));
    const Table t = table("ROOFLINE_PLAN", example({text("h100-sxm"), text("fp8"), text(""), text("typical")}));
    CHECK(num_at(b, 1, kGpus) <= num_at(t, 1, kGpus));
}

TEST_CASE("PLAN: a header, then the serving model's rows, cheapest first", "[planner]") {
    const std::vector<std::string> header{"gpu", "tp", "weights", "batch", "replicas", "prefill_tp", "prefill_replicas",
                                          "gpus", "ttft_ms", "tpot_ms", "output_tok_s_per_gpu", "usd_per_hour",
                                          "usd_per_mtok", "ep", "dp_attention", "pp", "capacity_tok_s_per_gpu",
                                          "checkpoint", "engine_tp", "usd_per_month", "usd_per_mtok_blended",
                                          "kw", "j_per_token", "tok_s_per_mw", "prefill_gpu",
                                          "usd_per_mtok_input", "usd_per_mtok_output", "servers"};
    for (double disaggregated : {0.0, 1.0}) {
        INFO("disaggregated " << disaggregated);
        const Table t = table("ROOFLINE_PLAN", example({text(""), text(""), text(""), text("typical"), num(disaggregated)}));
        REQUIRE(t.cols == 29);
        for (std::size_t c = 0; c < header.size(); ++c) CHECK(text_at(t, 0, c) == header[c]);
        serving::PlanOptions o;
        o.disaggregated = disaggregated == 1;
        const auto rows = serving::plan("llama-3.1-70b", 100, {2000, 300}, {500, 50}, o);
        REQUIRE(t.rows == rows.size() + 1);
        REQUIRE(t.rows > 10);
        bool priced = true;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const std::size_t r = i + 1;
            const serving::PlanRow& want = rows[i];
            INFO("row " << r << ": " << want.gpu << " tp " << want.tp << " " << to_string(want.weights));
            CHECK(text_at(t, r, kGpu) == want.gpu);
            CHECK(num_at(t, r, kTp) == want.tp);
            CHECK(text_at(t, r, kWeights) == to_string(want.weights));
            // By default (weight_dtype "published") every row is a published checkpoint of the model.
            CHECK(text_at(t, r, kCheckpoint) == want.checkpoint);
            // The engine's tensor-parallel size: with its pipeline stages, the replica's GPUs.
            CHECK(num_at(t, r, kEngineTp) * num_at(t, r, kPp) == num_at(t, r, kTp));
            CHECK_FALSE(want.checkpoint.empty());
            CHECK(num_at(t, r, kBatch) == want.batch);
            CHECK(num_at(t, r, kReplicas) == want.replicas);
            CHECK(num_at(t, r, kTtft) == want.ttft_ms);
            CHECK(num_at(t, r, kTpot) == want.tpot_ms);
            CHECK(num_at(t, r, kTtft) <= 500);
            CHECK(num_at(t, r, kTpot) <= 50);
            // GPUs in total: the decode (or colocated) replicas, plus the prefill pool when disaggregated.
            CHECK(num_at(t, r, kGpus) == num_at(t, r, kTp) * num_at(t, r, kReplicas) +
                                             num_at(t, r, kPrefillTp) * num_at(t, r, kPrefillReplicas));
            if (disaggregated == 1) {
                CHECK(num_at(t, r, kPrefillTp) >= 1);
                CHECK(num_at(t, r, kPrefillReplicas) >= 1);
            } else {
                CHECK(num_at(t, r, kPrefillTp) == 0);
                CHECK(num_at(t, r, kPrefillReplicas) == 0);
            }
            // The load's output tokens over the GPUs: 100 requests/s x 300 tokens.
            CHECK(num_at(t, r, kTokS) == Approx(100 * 300 / num_at(t, r, kGpus)));
            // The capacity: what the replicas sustain within both targets, never below the load's share.
            CHECK(num_at(t, r, kCapacity) == want.capacity_tokens_per_s_per_gpu);
            CHECK(num_at(t, r, kCapacity) >= num_at(t, r, kTokS) * (1 - 1e-12));
            if (disaggregated == 0) {
                // Colocated: replicas x a replica's requests/s x 300 output tokens over the GPUs.
                const double replica = number("ROOFLINE_REPLICA_RPS",
                                       {text("llama-3.1-70b"), text(want.gpu.c_str()), num(2000), num(300), num(500),
                                        num(50), text(want.checkpoint.c_str()), text(""), num(want.tp),
                                        text("typical"), num(0.9), num(want.layout.ep), num(want.layout.dp_attention),
                                        num(want.layout.pp)});
                CHECK(num_at(t, r, kCapacity) ==
                      Approx(num_at(t, r, kReplicas) * replica * 300 / num_at(t, r, kGpus)));
                // Whole replicas: one fewer would not carry the load.
                CHECK((num_at(t, r, kReplicas) - 1) * replica < 100);
            }
            const double usd = find_gpu(want.gpu)->usd_per_gpu_hour;
            if (usd > 0) {
                CHECK(priced);  // no priced row after an unpriced one
                // Whole servers: the GPUs rounded up to them, each pool's; those are paid for.
                const double paid = paid_gpus(t, r);
                CHECK(paid >= num_at(t, r, kGpus));
                CHECK(paid - num_at(t, r, kGpus) < (disaggregated == 1 ? 2 : 1) * find_gpu(want.gpu)->server_gpus);
                CHECK(num_at(t, r, kUsdHour) == Approx(usd * paid));
                CHECK(num_at(t, r, kUsdMtok) == Approx(usd * paid / (100 * 300 * 3600.0) * 1e6));
                // A month of 730 hours; every token of the load, its 2000 prompt and 300 output tokens a request.
                CHECK(num_at(t, r, kUsdMonth) == Approx(usd * paid * 730));
                CHECK(num_at(t, r, kUsdMtokBlended) == Approx(usd * paid / (100 * (2000 + 300) * 3600.0) * 1e6));
                if (r > 1 && priced) CHECK(num_at(t, r - 1, kUsdMtok) <= num_at(t, r, kUsdMtok));
            } else {
                priced = false;
                CHECK(text_at(t, r, kUsdHour).empty());
                CHECK(text_at(t, r, kUsdMtok).empty());
                CHECK(text_at(t, r, kUsdMonth).empty());
                CHECK(text_at(t, r, kUsdMtokBlended).empty());
            }
        }
    }
}

TEST_CASE("PLAN: headroom keeps a share of each replica spare, min_replicas a floor on replicas", "[planner]") {
    const auto plan_with = [](double headroom, double min_replicas, double disaggregated) {
        return table("ROOFLINE_PLAN", example({text("h100-sxm"), text("fp8"), text(""), text("typical"),
                                               num(disaggregated), text(""), num(0.9), text("all"), num(headroom),
                                               num(min_replicas)}));
    };
    for (double disaggregated : {0.0, 1.0}) {
        INFO("disaggregated " << disaggregated);
        const Table full = plan_with(1, 1, disaggregated);
        // The defaults are the released formula's answer.
        CHECK(full == table("ROOFLINE_PLAN", example({text("h100-sxm"), text("fp8"), text(""), text("typical"),
                                                      num(disaggregated), text(""), num(0.9), text("all")})));
        const Table half = plan_with(0.5, 1, disaggregated);
        const Table three = plan_with(1, 3, disaggregated);
        REQUIRE(full.rows >= 2);
        REQUIRE(half.rows == full.rows);
        REQUIRE(three.rows == full.rows);
        // Rows of the same configuration: found by GPU, tp and weights (the order may change with the GPUs).
        const auto same = [&](const Table& t, std::size_t r) {
            for (std::size_t q = 1; q < t.rows; ++q)
                if (num_at(t, q, kTp) == num_at(full, r, kTp) && text_at(t, q, kWeights) == text_at(full, r, kWeights) &&
                    num_at(t, q, kBatch) == num_at(full, r, kBatch) && num_at(t, q, kEp) == num_at(full, r, kEp) &&
                    num_at(t, q, kDpAttention) == num_at(full, r, kDpAttention) &&
                    num_at(t, q, kPp) == num_at(full, r, kPp) &&
                    num_at(t, q, kPrefillTp) == num_at(full, r, kPrefillTp))
                    return q;
            FAIL("no row of tp " << num_at(full, r, kTp) << " in the other plan");
            return std::size_t{0};
        };
        for (std::size_t r = 1; r < full.rows; ++r) {
            INFO("tp " << num_at(full, r, kTp) << " " << text_at(full, r, kWeights));
            // A replica's requests/s, read back from the capacity of the full plan.
            const double per_gpu = num_at(full, r, kCapacity) * num_at(full, r, kGpus);
            const std::size_t h = same(half, r);
            // Half of each replica used: at least twice the load's requests/s of capacity.
            CHECK(num_at(half, h, kCapacity) * num_at(half, h, kGpus) >= 2 * 100 * 300 * (1 - 1e-12));
            CHECK(num_at(half, h, kReplicas) >= num_at(full, r, kReplicas));
            CHECK(num_at(half, h, kTokS) == Approx(100 * 300 / num_at(half, h, kGpus)));
            if (disaggregated == 0) {
                const double replica = per_gpu / num_at(full, r, kReplicas) / 300;
                CHECK(num_at(half, h, kReplicas) == std::ceil(100 / (0.5 * replica)));
            }
            const std::size_t m = same(three, r);
            CHECK(num_at(three, m, kReplicas) == std::max(3.0, num_at(full, r, kReplicas)));
            if (disaggregated == 1) CHECK(num_at(three, m, kPrefillReplicas) >= 3);
        }
    }
    // Out of range: the error names the argument.
    const auto args = [](double headroom, double min_replicas) {
        return example({text("h100-sxm"), text("fp8"), text(""), text("typical"), num(0), text(""), num(0.9),
                        text("all"), num(headroom), num(min_replicas)});
    };
    for (double bad : {0.0, -0.5, 1.5}) require_error("ROOFLINE_PLAN", args(bad, 1), Status::invalid_argument, "headroom");
    for (double bad : {0.0, 1.5, -2.0}) require_error("ROOFLINE_PLAN", args(1, bad), Status::invalid_argument, "min_replicas");
}

TEST_CASE("PLAN: datacenter GPUs by default, GeForce cards and DGX Spark when named or with gpu=all", "[planner]") {
    const auto gpus_of = [](const char* gpu) {
        std::set<std::string> seen;
        const Table t = table("ROOFLINE_PLAN", example({text(gpu)}));
        for (std::size_t r = 1; r < t.rows; ++r) seen.insert(text_at(t, r, kGpu));
        return seen;
    };
    const std::set<std::string> by_default = gpus_of(""), datacenter = gpus_of(" Datacenter "), all = gpus_of("all");
    CHECK(datacenter == by_default);
    REQUIRE_FALSE(by_default.empty());
    for (const std::string& id : all) {
        INFO(id);
        const GpuSpec g = *find_gpu(id);
        CHECK(by_default.count(id) == (g.segment == "datacenter" ? 1u : 0u));
    }
    // The GeForce cards are planned (llama-3.1-70b fits them in fp4 over a few), only when asked for.
    CHECK(all.count("rtx-5090") == 1);
    CHECK(by_default.count("rtx-5090") == 0);
    CHECK(gpus_of("rtx-5090, h100-sxm") == std::set<std::string>{"rtx-5090", "h100-sxm"});
    // The default is the one of serving::plan: an empty list is the datacenter GPUs, every_gpu all of them.
    serving::PlanOptions o;
    for (const serving::PlanRow& r : serving::plan("llama-3.1-70b", 100, {2000, 300}, {500, 50}, o))
        CHECK(find_gpu(r.gpu)->datacenter());
    o.every_gpu = true;
    std::set<std::string> every;
    for (const serving::PlanRow& r : serving::plan("llama-3.1-70b", 100, {2000, 300}, {500, 50}, o)) every.insert(r.gpu);
    CHECK(every == all);
}

TEST_CASE("PLAN in the checkpoint's own formats: native, MXFP4 weights computed in 16 bits on Hopper", "[planner]") {
    // gpt-oss-120b ships MXFP4 experts and BF16 attention; an H100 has no FP4 units, and one of them holds it.
    const Table t = table("ROOFLINE_PLAN", {text("gpt-oss-120b"), num(2), num(1000), num(1000), num(2000), num(50),
                                            text("h100-sxm"), text(" Native "), text(""), text("typical"), num(0), text(""),
                                            num(0.9), text("all")});
    REQUIRE(t.rows >= 2);
    bool one_gpu = false;
    for (std::size_t r = 1; r < t.rows; ++r) {
        INFO("row " << r);
        CHECK(text_at(t, r, kWeights) == "mxfp4");  // the experts' format: most of the bytes
        one_gpu = one_gpu || num_at(t, r, kGpus) == 1;
        // Each row is the replica ROOFLINE_REPLICA_RPS computes in "native".
        const double replica = number("ROOFLINE_REPLICA_RPS",
                                      {text("gpt-oss-120b"), text("h100-sxm"), num(1000), num(1000), num(2000), num(50),
                                       text("native"), text(""), num(num_at(t, r, kTp)), text("typical"), num(0.9),
                                       num(num_at(t, r, kEp)), num(num_at(t, r, kDpAttention)), num(num_at(t, r, kPp))});
        CHECK(num_at(t, r, kCapacity) == Approx(num_at(t, r, kReplicas) * replica * 1000 / num_at(t, r, kGpus)));
    }
    CHECK(one_gpu);
    // By default (published) the same rows, the checkpoint named. With "all", formats in every module beside them:
    // int4 stands for 4-bit weights on a GPU without FP4 units, and no checkpoint is published in it.
    const Table published = table("ROOFLINE_PLAN", {text("gpt-oss-120b"), num(2), num(1000), num(1000), num(2000),
                                                    num(50), text("h100-sxm"), text(""), text(""), text("typical"),
                                                    num(0), text(""), num(0.9), text("all")});
    CHECK(published.cells == t.cells);
    for (std::size_t r = 1; r < t.rows; ++r) CHECK(text_at(t, r, kCheckpoint) == "openai/gpt-oss-120b");
    const Table uniform = table("ROOFLINE_PLAN", {text("gpt-oss-120b"), num(2), num(1000), num(1000), num(2000),
                                                  num(50), text("h100-sxm"), text("all"), text(""), text("typical"),
                                                  num(0), text(""), num(0.9), text("all")});
    REQUIRE(uniform.rows > t.rows);
    bool int4 = false;
    for (std::size_t r = 1; r < uniform.rows; ++r) {
        INFO("row " << r << ": " << text_at(uniform, r, kWeights));
        CHECK((text_at(uniform, r, kWeights) == "mxfp4") == (text_at(uniform, r, kCheckpoint) == "openai/gpt-oss-120b"));
        if (text_at(uniform, r, kWeights) == "int4") {
            int4 = true;
            CHECK(text_at(uniform, r, kCheckpoint).empty());
        }
    }
    CHECK(int4);
}

TEST_CASE("PLAN narrows to one GPU and one format, prices override the catalog's", "[planner]") {
    const Table catalog = table("ROOFLINE_PLAN", example({text("H100-SXM"), text("fp8")}));
    const double usd = find_gpu("h100-sxm")->usd_per_gpu_hour;
    REQUIRE(usd > 0);
    REQUIRE(catalog.rows >= 2);
    for (std::size_t r = 1; r < catalog.rows; ++r) {
        CHECK(text_at(catalog, r, kGpu) == "h100-sxm");
        CHECK(text_at(catalog, r, kWeights) == "fp8");
    }
    // Twice the price: the same configurations, both prices doubled, everything else unchanged.
    const std::string twice = "h100-sxm=" + std::to_string(2 * usd) + ", a100-sxm-80gb=0.01";
    const Table doubled = table("ROOFLINE_PLAN", example({text("h100-sxm"), text("fp8"), text(""), text("typical"),
                                                          num(0), text(twice.c_str())}));
    REQUIRE(doubled.rows == catalog.rows);
    // "" and "catalog" are the catalog's prices.
    CHECK(table("ROOFLINE_PLAN", example({text("h100-sxm"), text("fp8"), text(""), text("typical"), num(0), text("")})) ==
          catalog);
    CHECK(table("ROOFLINE_PLAN", example({text("h100-sxm"), text("fp8"), text(""), text("typical"), num(0),
                                          text(" Catalog ")})) == catalog);
    for (std::size_t r = 1; r < catalog.rows; ++r)
        for (std::size_t c = 0; c < 13; ++c) {
            INFO("row " << r << " column " << c);
            if (c == kUsdHour || c == kUsdMtok) CHECK(num_at(doubled, r, c) == Approx(2 * num_at(catalog, r, c)));
            else CHECK(cell(doubled, r, c) == cell(catalog, r, c));
        }
    // A price replaces the catalog's (h20's is a weak example, 1.05); separators ';' and new lines work too.
    const Table priced = table("ROOFLINE_PLAN", example({text("all"), text("all"), text(""), text("typical"), num(0),
                                                         text(" h20 = 3.5 ;\nh100-sxm=1\n")}));
    REQUIRE(find_gpu("h20")->usd_per_gpu_hour == 1.05);
    bool h20 = false;
    for (std::size_t r = 1; r < priced.rows; ++r) {
        if (text_at(priced, r, kGpu) == "h20") {
            h20 = true;
            CHECK(num_at(priced, r, kUsdHour) == Approx(3.5 * paid_gpus(priced, r)));
        }
        if (text_at(priced, r, kGpu) == "h100-sxm") CHECK(num_at(priced, r, kUsdHour) == Approx(paid_gpus(priced, r)));
    }
    CHECK(h20);
}

TEST_CASE("PLAN takes a user catalog's price", "[planner]") {
    add_catalog(R"({"gpus": [{"id": "planner-lab-gpu", "tflops": {"bf16": 400}, "hbm_tbs": 2, "hbm_gb": 96,
                              "interconnect_tbs": 0.2, "usd_per_gpu_hour": 1.25}]})");
    CHECK(number("ROOFLINE_GPU", {text("planner-lab-gpu"), text("usd_per_gpu_hour")}) == 1.25);
    const Table t = table("ROOFLINE_PLAN", {text("llama-3.1-8b"), num(10), num(1000), num(200), num(800), num(40),
                                            text("planner-lab-gpu")});
    REQUIRE(t.rows >= 2);
    // A user catalog's GPU without server_gpus: its scale-up domain (8 where that is left out too).
    CHECK(find_gpu("planner-lab-gpu")->server_gpus == 8);
    CHECK(num_at(t, 1, kUsdHour) == Approx(1.25 * paid_gpus(t, 1)));
    CHECK(num_at(t, 1, kUsdMtok) == Approx(1.25 * paid_gpus(t, 1) / (10 * 200 * 3600.0) * 1e6));
}

TEST_CASE("planner formulas reject bad input with an error naming the argument", "[planner][errors]") {
    const Status bad = Status::invalid_argument, none = Status::no_solution, unknown = Status::unknown_id;
    // Load
    require_error("ROOFLINE_PLAN", {text("llama-3.1-70b"), num(-1), num(2000), num(300), num(500), num(50)}, bad, "rps");
    require_error("ROOFLINE_PLAN", {text("llama-3.1-70b"), num(0), num(2000), num(300), num(500), num(50)}, bad, "rps");
    // A weight format that is none: the argument named.
    require_error("ROOFLINE_PLAN", {text("gpt-oss-120b"), num(10), num(2000), num(300), num(500), num(50), text("h100-sxm"),
                                    text("fp5")}, unknown, "weight_dtype");
    // A TPOT target below the fastest possible step: no answer, naming tpot_ms.
    require_error("ROOFLINE_PLAN", {text("llama-3.1-70b"), num(100), num(2000), num(300), num(500), num(0.001)}, none,
                  "tpot_ms");
    require_error("ROOFLINE_SLO_BATCH", {text("llama-3.1-8b"), text("h100-sxm"), num(4096), num(0.001)}, none, "tpot_ms");
    CHECK_THAT(error_of("ROOFLINE_SLO_BATCH", {text("llama-3.1-8b"), text("h100-sxm"), num(4096), num(0.001)}).reason(),
               Contains("one sequence alone takes"));
    require_error("ROOFLINE_REPLICA_RPS", {text("llama-3.1-8b"), text("h100-sxm"), num(2000), num(300), num(500), num(0.001)},
                  none, "tpot_ms");
    require_error("ROOFLINE_REPLICA_RPS", {text("llama-3.1-8b"), text("h100-sxm"), num(2000), num(300), num(0.001), num(50)},
                  none, "ttft_ms");
    require_error("ROOFLINE_PLAN", {text("llama-3.1-70b"), num(100), num(2000), num(300), num(-5), num(50)}, bad, "ttft_ms");
    // A TTFT target no configuration meets: named, with the fastest first token of a request alone and where (#43).
    require_error("ROOFLINE_PLAN", {text("llama-3.1-70b"), num(100), num(2000), num(300), num(5), num(50)}, none,
                  "ttft_ms");
    const std::string ttft_reason =
        error_of("ROOFLINE_PLAN", {text("llama-3.1-70b"), num(100), num(2000), num(300), num(5), num(50)}).reason();
    CHECK_THAT(ttft_reason, Contains("the fastest first token, 'gb300'"));
    CHECK_THAT(ttft_reason, Contains("a ttft_ms above that is met at a low enough load"));
    CHECK_THAT(ttft_reason, !Contains("per output token for one request"));  // the TPOT's note goes with a TPOT miss
    // Unknown ids, with the formula layer's wording and suggestion.
    const Error model =
        error_of("ROOFLINE_PLAN", {text("llama3.1-70b"), num(100), num(2000), num(300), num(500), num(50)});
    CHECK(model.status() == unknown);
    CHECK(model.argument() == "model");
    CHECK(model.reason() == "no model 'llama3.1-70b' in the catalog; did you mean 'llama-3.1-70b'?");
    require_error("ROOFLINE_E2E_MS", {text("llama-70"), text("h100-sxm"), num(2000), num(300), num(8)}, unknown, "model");
    require_error("ROOFLINE_SPEC_STEP_MS", {text("llama-3.1-70b"), text("llama-3.1-8bb"), text("h100-sxm"), num(8),
                                            num(2048), num(4), num(0.7)},
                  unknown, "draft_model");
    CHECK(error_of("ROOFLINE_SPEC_STEP_MS", {text("llama-3.1-70b"), text("llama-3.1-8bb"), text("h100-sxm"), num(8),
                                             num(2048), num(4), num(0.7)})
              .reason() == "no model 'llama-3.1-8bb' in the catalog; did you mean 'llama-3.1-8b'?");
    require_error("ROOFLINE_PLAN", example({text("h100-sxn")}), unknown, "gpu");
    CHECK(error_of("ROOFLINE_PLAN", example({text("h100-sxn")})).reason() ==
          "no GPU 'h100-sxn' in the catalog; did you mean 'h100-sxm'?");
    require_error("ROOFLINE_PLAN", example({text(""), text("fp9")}), unknown, "weight_dtype");
    require_error("ROOFLINE_PLAN", example({text(""), text(""), text(""), text("fast")}), unknown, "profile");
    require_error("ROOFLINE_REPLICA_RPS", {text("llama-3.1-8b"), text("h100-sxm"), num(2000), num(300), num(500), num(50),
                                           text("bf16"), text(""), num(1), text("tipical")},
                  unknown, "profile");
    // Options of the plan
    require_error("ROOFLINE_PLAN", example({text(""), text(""), text(""), text("typical"), num(0.5)}), bad, "disaggregated");
    require_error("ROOFLINE_PLAN", example({text(""), text(""), text(""), text("typical"), num(2)}), bad, "disaggregated");
    require_error("ROOFLINE_PLAN", example({text(""), text(""), text(""), text("typical"), num(0), text(""), num(1.5)}),
                  bad, "mem_util");
    // Prices: an unknown GPU (with a suggestion), a bad number, a negative one, an entry that is no gpu=price.
    auto prices = [](const char* p) { return example({text(""), text(""), text(""), text("typical"), num(0), text(p)}); };
    require_error("ROOFLINE_PLAN", prices("h100-sxn=2.49"), unknown, "prices");
    CHECK(error_of("ROOFLINE_PLAN", prices("h100-sxm=2, h100-sxn=2.49")).reason() ==
          "no GPU 'h100-sxn' in the catalog; did you mean 'h100-sxm'?");
    require_error("ROOFLINE_PLAN", prices("h100-sxm=two"), bad, "prices");
    CHECK_THAT(error_of("ROOFLINE_PLAN", prices("h100-sxm=two")).reason(), Contains("'two'") && Contains("h100-sxm"));
    require_error("ROOFLINE_PLAN", prices("h100-sxm=2,49"), bad, "prices");  // a decimal comma: "49" is no gpu=price
    require_error("ROOFLINE_PLAN", prices("h100-sxm=-1"), bad, "prices");
    CHECK(error_of("ROOFLINE_PLAN", prices("h100-sxm=-1")).reason() == "the price of 'h100-sxm' must be zero or more (got -1)");
    require_error("ROOFLINE_PLAN", prices("h100-sxm=nan"), bad, "prices");
    require_error("ROOFLINE_PLAN", prices("h100-sxm"), bad, "prices");
    require_error("ROOFLINE_PLAN", prices("=2"), unknown, "prices");
    // Workload
    require_error("ROOFLINE_E2E_MS", {text("llama-3.1-8b"), text("h100-sxm"), num(2000), num(1), num(8)}, bad,
                  "output_tokens");
    require_error("ROOFLINE_E2E_MS", {text("llama-3.1-8b"), text("h100-sxm"), num(2000.5), num(300), num(8)}, bad,
                  "prompt_tokens");
    require_error("ROOFLINE_E2E_MS", {text("llama-3.1-8b"), text("h100-sxm"), num(2000), num(300), num(1e7)}, none, "batch");
    require_error("ROOFLINE_E2E_MS", {text("llama-3.1-8b"), text("h100-sxm"), num(2000), num(300), num(8), text("bf16"),
                                      text(""), num(3)},
                  bad, "tp");
    require_error("ROOFLINE_SLO_BATCH", {text("llama-3.1-405b"), text("h100-sxm"), num(4096), num(50)}, none, "model");
    // Primitives
    require_error("ROOFLINE_COST_PER_MTOK", {num(-2), num(8), num(1000)}, bad, "usd_per_gpu_hour");
    require_error("ROOFLINE_COST_PER_MTOK", {num(2), num(0.5), num(1000)}, bad, "gpus");
    require_error("ROOFLINE_COST_PER_MTOK", {num(2), num(8), num(0)}, bad, "output_tokens_per_s");
    require_error("ROOFLINE_SPEC_TOKENS", {num(1.5), num(4)}, bad, "acceptance");
    require_error("ROOFLINE_SPEC_TOKENS", {num(-0.1), num(4)}, bad, "acceptance");
    require_error("ROOFLINE_SPEC_TOKENS", {num(0.5), num(0)}, bad, "draft_len");
    require_error("ROOFLINE_SPEC_STEP_MS", {text("qwen2.5-72b"), text("qwen2.5-7b"), text("h100-sxm"), num(8), num(1024),
                                            num(4), num(0.7), text("fp8"), text(""), num(8)},
                  bad, "draft_model");
    // ROOFLINE_WHY points a spreadsheet user to the ids.
    const std::vector<Arg> why{text("ROOFLINE_PLAN"), text("llama3.1-70b"), num(100), num(2000), num(300), num(500), num(50)};
    CHECK(std::get<std::string>(call("ROOFLINE_WHY", why).value) ==
          "argument 'model': no model 'llama3.1-70b' in this machine's catalog or user folder; did you mean "
          "'llama-3.1-70b'? (see ROOFLINE_MODELS())");
}

TEST_CASE("the planner's signatures: optional arguments last, each with its default", "[planner][format]") {
    CHECK(signature(*find_formula("ROOFLINE_PLAN")) ==
          "ROOFLINE_PLAN(model; rps; prompt_tokens; output_tokens; ttft_ms; tpot_ms; [gpu=datacenter]; [weight_dtype=published]; "
          "[kv_dtype=bf16]; [profile=typical]; [disaggregated=0]; [prices=catalog]; [mem_util=0.9]; [rows=best]; [headroom=1]; [min_replicas=1]; "
          "[percentile=0]; [usd_per_kwh=0]; [pue=1]; [max_kw=0]; [prefill_gpu=same]; [input_ratio=0]; [rent=servers]; "
          "[price_basis=on-demand]; [years=5])");
    CHECK(signature(*find_formula("ROOFLINE_E2E_MS")) ==
          "ROOFLINE_E2E_MS(model; gpu; prompt_tokens; output_tokens; batch; [weight_dtype=native]; [kv_dtype=bf16]; [tp=1]; "
          "[profile=typical]; [mem_util=0.9]; [ep=1]; [dp_attention=1]; [pp=1])");
    CHECK(signature(*find_formula("ROOFLINE_SPEC_STEP_MS")) ==
          "ROOFLINE_SPEC_STEP_MS(model; draft_model; gpu; batch; ctx; draft_len; acceptance; [weight_dtype=native]; "
          "[kv_dtype=bf16]; [tp=1]; [profile=typical]; [ep=1]; [dp_attention=1]; [pp=1])");
    CHECK(std::string(find_formula("ROOFLINE_PLAN")->group) == "Planner");
}

TEST_CASE("CURVE: one row per batch at full load, as ROOFLINE_E2E_MS computes it, the front over layouts", "[planner]") {
    const auto curve = [](std::vector<Arg> args) { return table("ROOFLINE_CURVE", std::move(args)); };
    enum { kTpot, kPerUser, kPerGpu, kBatchC, kTtftC, kRps, kTpC, kEpC, kDpC, kPpC };
    const std::vector<Arg> base{text("llama-3.1-70b"), text("h100-sxm"), num(2000), num(300), text("fp8")};
    // One layout: tp 4. Batches 1, 2, 3, 4, 6, 8, ... to the largest, each a replica at full load.
    std::vector<Arg> one = base;
    for (Arg a : {text(""), num(4)}) one.push_back(a);
    const Table t = curve(one);
    REQUIRE(t.cols == 10);
    CHECK(text_at(t, 0, kTpot) == "tpot_ms");
    CHECK(text_at(t, 0, kPerGpu) == "capacity_tok_s_per_gpu");
    REQUIRE(t.rows > 8);
    const double firsts[] = {1, 2, 3, 4, 6, 8, 12, 16};
    for (std::size_t i = 0; i < 8; ++i) CHECK(num_at(t, i + 1, kBatchC) == firsts[i]);
    for (std::size_t r = 1; r < t.rows; ++r) {
        INFO("batch " << num_at(t, r, kBatchC));
        const double tpot = num_at(t, r, kTpot), ttft = num_at(t, r, kTtftC), batch = num_at(t, r, kBatchC);
        CHECK(num_at(t, r, kPerUser) == Approx(1000 / tpot));
        CHECK(num_at(t, r, kPerGpu) == Approx(num_at(t, r, kRps) * 300 / 4));
        CHECK(num_at(t, r, kTpC) == 4);
        // The replica at that batch is the one ROOFLINE_E2E_MS computes: TTFT + 299 x TPOT.
        CHECK(number("ROOFLINE_E2E_MS", {text("llama-3.1-70b"), text("h100-sxm"), num(2000), num(300), num(batch),
                                         text("fp8"), text(""), num(4)}) == Approx(ttft + 299 * tpot).epsilon(1e-12));
        if (r > 1) CHECK(tpot >= num_at(t, r - 1, kTpot));
    }
    // The last batch is the largest the replica runs: one more does not fit or is not run.
    const double last = num_at(t, t.rows - 1, kBatchC);
    CHECK_THROWS(number("ROOFLINE_E2E_MS", {text("llama-3.1-70b"), text("h100-sxm"), num(2000), num(300),
                                            num(last + 1), text("fp8"), text(""), num(4)}));

    // tp 0 (the default): the front over every size and layout, fastest first, each slower row sustaining more.
    const Table front = curve(base);
    REQUIRE(front.rows > 3);
    for (std::size_t r = 2; r < front.rows; ++r) {
        CHECK(num_at(front, r, kTpot) >= num_at(front, r - 1, kTpot));
        CHECK(num_at(front, r, kPerGpu) > num_at(front, r - 1, kPerGpu));
    }
    // No point of a single layout lies beyond it: a front row at least as fast that sustains at least as much.
    for (double tp : {1.0, 2.0, 4.0, 8.0}) {
        std::vector<Arg> args = base;
        for (Arg a : {text(""), num(tp)}) args.push_back(a);
        Table c;
        try {
            c = curve(args);
        } catch (const Error&) {
            continue;  // tp 1: the weights do not fit
        }
        for (std::size_t r = 1; r < c.rows; ++r) {
            INFO("tp " << tp << " batch " << num_at(c, r, kBatchC));
            bool covered = false;
            for (std::size_t q = 1; q < front.rows && !covered; ++q)
                covered = num_at(front, q, kTpot) <= num_at(c, r, kTpot) * (1 + 1e-12) &&
                          num_at(front, q, kPerGpu) >= num_at(c, r, kPerGpu) * (1 - 1e-12);
            CHECK(covered);
        }
    }
    // A TTFT cap leaves out the slower points.
    std::vector<Arg> capped = base;
    for (Arg a : {text(""), num(0), text("typical"), num(1), num(1), num(1), num(100)}) capped.push_back(a);
    const Table fast = curve(capped);
    for (std::size_t r = 1; r < fast.rows; ++r) CHECK(num_at(fast, r, kTtftC) <= 100);
    // A model of native MXFP4 weights on a GPU without FP4 units (dequantized): gpt-oss-120b on one H100.
    const Table oss = curve({text("gpt-oss-120b"), text("h100-sxm"), num(1000), num(1000), text(""), text(""), num(1)});
    CHECK(oss.rows > 2);

    // Bad input names its argument.
    const Status bad = Status::invalid_argument;
    std::vector<Arg> ep_without_tp = base;
    for (Arg a : {text(""), num(0), text("typical"), num(2)}) ep_without_tp.push_back(a);
    require_error("ROOFLINE_CURVE", ep_without_tp, bad, "ep");
    std::vector<Arg> half = base;
    for (Arg a : {text(""), num(1.5)}) half.push_back(a);
    require_error("ROOFLINE_CURVE", half, bad, "tp");
    require_error("ROOFLINE_CURVE", {text("llama-3.1-405b"), text("h100-sxm"), num(2000), num(300), text("bf16"),
                                     text(""), num(1)},
                  Status::no_solution, "model");
    std::vector<Arg> quick = base;
    for (Arg a : {text(""), num(0), text("typical"), num(1), num(1), num(1), num(1)}) quick.push_back(a);
    require_error("ROOFLINE_CURVE", quick, Status::no_solution, "ttft_ms");
}

TEST_CASE("PLAN's power: kw from the power model, PUE and electricity as computed by hand, a power budget", "[planner]") {
    const serving::Workload w{2000, 300};
    serving::PlanOptions o;
    o.gpus = {"h100-sxm", "b200"};
    o.weights = DType::fp8;
    o.all_rows = true;  // the same configurations whatever their cost
    const auto rows = serving::plan("llama-3.1-70b", 20, w, {500, 50}, o);
    REQUIRE(!rows.empty());
    const double tokens_per_s = 20 * 300;
    for (const auto& r : rows) {
        INFO(r.gpu << " tp " << r.tp);
        REQUIRE(r.kw);
        const GpuSpec g = *find_gpu(r.gpu);
        // Each GPU between its idle and its board power, plus its server's share.
        // The rented servers' spare GPUs at idle with their share of the servers.
        const double rented = r.servers * g.server_gpus;
        CHECK(*r.kw * 1000 <= rented * (g.power_w + host_power_w(g)) * (1 + 1e-12));
        CHECK(*r.kw * 1000 >= rented * (idle_power_w(g) + host_power_w(g)));
        CHECK(*r.j_per_token == Approx(*r.kw * 1000 / tokens_per_s));
        CHECK(*r.tok_s_per_mw == Approx(tokens_per_s / (*r.kw / 1000)));
    }
    // A PUE of 1.4 multiplies kw; 0.12 USD/kWh adds kw x 0.12 to USD/hour, and to USD/Mtok accordingly.
    serving::PlanOptions e = o;
    e.pue = 1.4;
    e.usd_per_kwh = 0.12;
    const auto priced = serving::plan("llama-3.1-70b", 20, w, {500, 50}, e);
    REQUIRE(priced.size() == rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& a = rows[i];
        const auto it = std::find_if(priced.begin(), priced.end(), [&](const serving::PlanRow& b) {
            return b.gpu == a.gpu && b.tp == a.tp && b.layout.pp == a.layout.pp && b.layout.ep == a.layout.ep &&
                   b.layout.dp_attention == a.layout.dp_attention && b.batch == a.batch;
        });
        REQUIRE(it != priced.end());
        CHECK(*it->kw == Approx(*a.kw * 1.4));
        CHECK(*it->usd_per_hour == Approx(*a.usd_per_hour + *a.kw * 1.4 * 0.12));
        CHECK(*it->usd_per_mtok == Approx(*it->usd_per_hour / (tokens_per_s * 3600) * 1e6));
        CHECK(*it->usd_per_month == Approx(*it->usd_per_hour * 730));
    }
    // A budget between the least and the most kW rules the rows above it out; below the least, none is left.
    double least = INFINITY, most = 0;
    for (const auto& r : rows) least = std::min(least, *r.kw), most = std::max(most, *r.kw);
    REQUIRE(least < most);
    serving::PlanOptions budget = o;
    budget.max_kw = (least + most) / 2;
    const auto within = serving::plan("llama-3.1-70b", 20, w, {500, 50}, budget);
    CHECK(within.size() < rows.size());
    for (const auto& r : within) CHECK(*r.kw <= budget.max_kw);
    budget.max_kw = least * 0.99;
    try {
        serving::plan("llama-3.1-70b", 20, w, {500, 50}, budget);
        FAIL("a budget below every plan gave rows");
    } catch (const Error& err) {
        CHECK(err.argument() == "max_kw");
        CHECK(err.status() == Status::no_solution);
    }
    serving::PlanOptions bad = o;
    bad.pue = 0.9;
    CHECK_THROWS_AS(serving::plan("llama-3.1-70b", 20, w, {500, 50}, bad), Error);
}

TEST_CASE("PLAN's power: a disaggregated plan counts both pools", "[planner]") {
    serving::PlanOptions o;
    o.gpus = {"h200"};
    o.weights = DType::fp8;
    o.disaggregated = true;
    const auto rows = serving::plan("llama-3.1-70b", 20, {2000, 300}, {500, 50}, o);
    REQUIRE(!rows.empty());
    const GpuSpec g = *find_gpu("h200");
    for (const auto& r : rows) {
        REQUIRE(r.kw);
        CHECK(r.prefill_replicas * r.prefill_tp > 0);
        const double rented = r.servers * g.server_gpus;
        CHECK(*r.kw * 1000 >= rented * (idle_power_w(g) + host_power_w(g)));
        CHECK(*r.kw * 1000 <= rented * (g.power_w + host_power_w(g)) * (1 + 1e-12));
    }
}

TEST_CASE("PLAN: prefill and decode pools on different GPUs, beside the same-GPU plan", "[planner]") {
    serving::PlanOptions o;
    o.gpus = {"h200"};
    o.weights = DType::fp8;
    o.disaggregated = true;
    o.all_rows = true;
    const serving::Workload w{8000, 300};
    const auto same = serving::plan("llama-3.1-70b", 20, w, {1000, 50}, o);
    o.prefill_gpus = {"b200", "h200"};
    const auto mixed = serving::plan("llama-3.1-70b", 20, w, {1000, 50}, o);
    const GpuSpec h200 = *find_gpu("h200"), b200 = *find_gpu("b200");
    bool on_b200 = false, on_h200 = false;
    for (const auto& r : same) CHECK(r.prefill_gpu == "h200");
    for (const auto& r : mixed) {
        INFO(r.gpu << " prefill " << r.prefill_gpu << " " << r.prefill_replicas << "x" << r.prefill_tp);
        CHECK(r.gpu == "h200");
        on_b200 = on_b200 || r.prefill_gpu == "b200";
        on_h200 = on_h200 || r.prefill_gpu == "h200";
        // Each pool's GPUs at their own price.
        const double decode_gpus = r.replicas * r.tp, prefill_gpus = r.prefill_replicas * r.prefill_tp;
        CHECK(r.gpus == decode_gpus + prefill_gpus);
        const double price = r.prefill_gpu == "b200" ? b200.usd_per_gpu_hour : h200.usd_per_gpu_hour;
        const auto rented = [](double gpus) { return std::ceil(gpus / 8) * 8; };  // HGX servers of 8, each pool's
        CHECK(*r.usd_per_hour == Approx(rented(decode_gpus) * h200.usd_per_gpu_hour + rented(prefill_gpus) * price));
        CHECK(r.servers == rented(decode_gpus) / 8 + rented(prefill_gpus) / 8);
        // And at their own power, with their own servers' share.
        const GpuSpec& pg = r.prefill_gpu == "b200" ? b200 : h200;
        CHECK(*r.kw * 1000 <= rented(decode_gpus) * (h200.power_w + host_power_w(h200)) +
                                   rented(prefill_gpus) * (pg.power_w + host_power_w(pg)) + 1e-9);
        CHECK(r.ttft_ms <= 1000 * (1 + 1e-12));
    }
    CHECK(on_b200);
    CHECK(on_h200);
    // The same-GPU rows are among the mixed plan's (prefill on h200 is one of its prefill GPUs).
    for (const auto& a : same)
        CHECK(std::any_of(mixed.begin(), mixed.end(), [&](const serving::PlanRow& b) {
            return b.prefill_gpu == "h200" && a.tp == b.tp && a.layout.pp == b.layout.pp && a.batch == b.batch &&
                   a.prefill_tp == b.prefill_tp && a.prefill_replicas == b.prefill_replicas &&
                   *a.usd_per_hour == Approx(*b.usd_per_hour);
        }));
    // B200 computes a prefill faster than H200: its pool needs fewer GPUs.
    double fewest_b200 = INFINITY, fewest_h200 = INFINITY;
    for (const auto& r : mixed) {
        double& fewest = r.prefill_gpu == "b200" ? fewest_b200 : fewest_h200;
        fewest = std::min(fewest, r.prefill_replicas * r.prefill_tp);
    }
    CHECK(fewest_b200 < fewest_h200);
}

TEST_CASE("PLAN: prefill_gpu's errors name it", "[planner]") {
    const auto error_of = [](std::vector<Arg> extra) {
        std::vector<Arg> args{text("llama-3.1-70b"), num(20), num(8000), num(300), num(1000), num(50), text("h200"),
                              text("fp8"), text(""), text("typical")};
        for (Arg& a : extra) args.push_back(std::move(a));
        try {
            table("ROOFLINE_PLAN", args);
        } catch (const Error& e) {
            return e;
        }
        FAIL("no error");
        throw;
    };
    const Error unknown = error_of({num(1), text(""), num(0.9), text("best"), num(1), num(1), num(0), num(0), num(1),
                                    num(0), text("b2000")});
    CHECK(unknown.argument() == "prefill_gpu");
    CHECK(unknown.status() == Status::unknown_id);
    const Error colocated = error_of({num(0), text(""), num(0.9), text("best"), num(1), num(1), num(0), num(0), num(1),
                                      num(0), text("b200")});
    CHECK(colocated.argument() == "prefill_gpu");
    CHECK(colocated.status() == Status::invalid_argument);
}

TEST_CASE("PLAN: input and output tokens priced apart at a ratio pay the hour at the load", "[planner]") {
    serving::PlanOptions o;
    o.gpus = {"h100-sxm", "h200"};
    o.input_ratio = 0.25;
    const double rps = 30, prompt = 40000, output = 1000;
    const auto rows = serving::plan("llama-3.1-8b", rps, {prompt, output}, {5000, 50}, o);
    REQUIRE(!rows.empty());
    for (const auto& r : rows) {
        REQUIRE(r.usd_per_mtok_input);
        REQUIRE(r.usd_per_mtok_output);
        CHECK(*r.usd_per_mtok_input == Approx(0.25 * *r.usd_per_mtok_output));
        // An hour of the load's tokens at those prices is the hour's cost.
        const double paid = 3600 * rps * (prompt * *r.usd_per_mtok_input + output * *r.usd_per_mtok_output) / 1e6;
        CHECK(paid == Approx(*r.usd_per_hour));
        // Between the blended price (every token alike) and the output-only one.
        CHECK(*r.usd_per_mtok_output > *r.usd_per_mtok_blended);
        CHECK(*r.usd_per_mtok_output < *r.usd_per_mtok);
    }
    o.input_ratio = 0;
    for (const auto& r : serving::plan("llama-3.1-8b", rps, {prompt, output}, {5000, 50}, o)) {
        CHECK(!r.usd_per_mtok_input);
        CHECK(!r.usd_per_mtok_output);
    }
}

TEST_CASE("PLAN rents whole servers and racks by default, single GPUs with rent gpus", "[planner]") {
    // A small load on GB200: a few GPUs, rented as a whole NVL72 rack.
    const auto args = [](const char* rent) {
        return std::vector<Arg>{text("llama-3.1-8b"), num(5), num(1000), num(200), num(1000), num(50), text("gb200"),
                                text(""), text(""), text("typical"), num(0), text(""), num(0.9), text("best"), num(1),
                                num(1), num(0), num(0), num(1), num(0), text(""), num(0), text(rent)};
    };
    const Table racks = table("ROOFLINE_PLAN", args(""));
    const Table gpus = table("ROOFLINE_PLAN", args("gpus"));
    REQUIRE(racks.rows >= 2);
    REQUIRE(gpus.rows >= 2);
    const double usd = find_gpu("gb200")->usd_per_gpu_hour;
    REQUIRE(find_gpu("gb200")->server_gpus == 72);
    for (std::size_t r = 1; r < racks.rows; ++r) {
        CHECK(num_at(racks, r, kGpus) < 72);
        CHECK(num_at(racks, r, kServers) == 1);  // one rack holds it
        CHECK(num_at(racks, r, kUsdHour) == Approx(72 * usd));
    }
    for (std::size_t r = 1; r < gpus.rows; ++r) {
        CHECK(num_at(gpus, r, kServers) == num_at(gpus, r, kGpus));  // per GPU: the GPUs
        CHECK(num_at(gpus, r, kUsdHour) == Approx(num_at(gpus, r, kGpus) * usd));
    }
    // The rack's spare GPUs draw idle power: its kW is above the single GPUs'.
    CHECK(num_at(racks, 1, kKw) > num_at(gpus, 1, kKw));
    try {
        table("ROOFLINE_PLAN", args("racks"));
        FAIL("rent 'racks' accepted");
    } catch (const Error& e) {
        CHECK(e.argument() == "rent");
    }
}

TEST_CASE("PLAN prices on a basis: on-demand, reserved or owned, as computed by hand", "[planner]") {
    // llama-3.1-8b on H100 SXM and B200, 20 requests/s: a server or two of each.
    const auto args = [](const char* basis, double usd_per_kwh, double years, const char* prices = "") {
        return std::vector<Arg>{text("llama-3.1-8b"), num(20), num(1000), num(200), num(1000), num(50),
                                text("h100-sxm, b200"), text(""), text(""), text("typical"), num(0), text(prices),
                                num(0.9), text("all"), num(1), num(1), num(0), num(usd_per_kwh), num(1), num(0), text(""),
                                num(0), text(""), text(basis), num(years)};
    };
    const GpuSpec h100 = *find_gpu("h100-sxm"), b200 = *find_gpu("b200");
    REQUIRE(h100.usd_per_gpu_hour_reserved > 0);
    REQUIRE(b200.usd_per_gpu_hour_reserved == 0);  // none published: no price on that basis
    REQUIRE(h100.usd_per_server > 0);
    REQUIRE(b200.usd_per_server > 0);
    const auto per_gpu = [&](const Table& t, std::size_t r, double usd) {
        const double paid = num_at(t, r, kServers) * find_gpu(text_at(t, r, kGpu))->server_gpus;
        CHECK(num_at(t, r, kUsdGpuHour) == Approx(usd));
        CHECK(num_at(t, r, kUsdHour) == Approx(usd * paid));
        CHECK(num_at(t, r, kUsdMonth) == Approx(usd * paid * 730));
    };
    // On demand (the default): the catalog's on-demand examples, as every plan before 0.14.
    const Table demand = table("ROOFLINE_PLAN", args("", 0, 5));
    REQUIRE(demand.rows > 2);
    for (std::size_t r = 1; r < demand.rows; ++r)
        per_gpu(demand, r, find_gpu(text_at(demand, r, kGpu))->usd_per_gpu_hour);
    // Reserved: H100 at its reserved example; B200, which has none, without a price (after the priced rows).
    const Table reserved = table("ROOFLINE_PLAN", args("reserved", 0, 5));
    bool unpriced = false;
    for (std::size_t r = 1; r < reserved.rows; ++r) {
        if (text_at(reserved, r, kGpu) == "h100-sxm") {
            CHECK(!unpriced);
            per_gpu(reserved, r, h100.usd_per_gpu_hour_reserved);
        } else {
            unpriced = true;
            CHECK(text_at(reserved, r, kUsdHour).empty());
            CHECK(text_at(reserved, r, kUsdGpuHour).empty());
        }
    }
    CHECK(unpriced);
    // Owned: a server's purchase price over 3 years of 8,760 hours, per GPU, and the electricity on top.
    const double kwh = 0.08, years = 3;
    const Table owned = table("ROOFLINE_PLAN", args("owned", kwh, years));
    REQUIRE(owned.rows > 2);
    for (std::size_t r = 1; r < owned.rows; ++r) {
        const GpuSpec g = *find_gpu(text_at(owned, r, kGpu));
        INFO(g.id << " tp " << num_at(owned, r, kTp));
        const double usd = g.usd_per_server / g.server_gpus / (years * 8760);
        const double paid = num_at(owned, r, kServers) * g.server_gpus;
        CHECK(num_at(owned, r, kUsdGpuHour) == Approx(usd));
        CHECK(num_at(owned, r, kUsdHour) == Approx(usd * paid + num_at(owned, r, kKw) * kwh));
        CHECK(num_at(owned, r, kUsdMtok) == Approx(num_at(owned, r, kUsdHour) / (20 * 200 * 3600.0) * 1e6));
    }
    // A GPU the prices name keeps its own price on every basis.
    const Table mine = table("ROOFLINE_PLAN", args("reserved", 0, 5, "b200=3.5"));
    for (std::size_t r = 1; r < mine.rows; ++r)
        if (text_at(mine, r, kGpu) == "b200") per_gpu(mine, r, 3.5);
    // Owned GPUs pay for their electricity: without its price, an error that names usd_per_kwh; years > 0.
    for (const auto& [a, want] : {std::pair{args("owned", 0, 5), "usd_per_kwh"}, std::pair{args("owned", 0.1, 0), "years"},
                                  std::pair{args("leased", 0.1, 5), "price_basis"}}) {
        try {
            table("ROOFLINE_PLAN", a);
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(e.argument() == want);
        }
    }
}

TEST_CASE("FLEET: each workload's cheapest plan, in order, and the totals summed", "[planner]") {
    // Three workloads: two on the catalog's datacenter GPUs, one on its own GPU (the row's 7th column).
    const std::string workloads = "model\trps\tprompt_tokens\toutput_tokens\tttft_ms\ttpot_ms\tgpu\n"
                                  "llama-3.1-70b\t100\t2000\t300\t500\t50\t\n"
                                  "llama-3.1-8b\t20\t1000\t200\t1000\t50\t\n"
                                  "qwen3-30b-a3b\t10\t4000\t500\t2000\t40\th200\n";
    const Table t = table("ROOFLINE_FLEET", {text(workloads.c_str()), text(""), text(""), text("typical"), text(""), num(1),
                                             num(1), text(""), num(5), num(0.1), num(1.2), text("")});
    REQUIRE(t.rows == 5);  // the header, three workloads, the total
    REQUIRE(t.cols == 19);
    enum { kModel, kRps, kFGpu, kFWeights, kFCheckpoint, kFTp, kFEngineTp, kFPp, kFEp, kFDp, kFReplicas, kFGpus,
           kFServers, kFTtft, kFTpot, kFUsdHour, kFUsdMonth, kFUsdMtok, kFKw };
    serving::PlanOptions o;
    o.usd_per_kwh = 0.1;
    o.pue = 1.2;
    const struct { const char* model; double rps, prompt, output, ttft, tpot; const char* gpu; } want[] = {
        {"llama-3.1-70b", 100, 2000, 300, 500, 50, ""},
        {"llama-3.1-8b", 20, 1000, 200, 1000, 50, ""},
        {"qwen3-30b-a3b", 10, 4000, 500, 2000, 40, "h200"},
    };
    double gpus = 0, servers = 0, usd = 0, kw = 0, tokens = 0;
    for (std::size_t i = 0; i < 3; ++i) {
        INFO(want[i].model);
        serving::PlanOptions own = o;
        if (*want[i].gpu) own.gpus = {want[i].gpu};
        const serving::PlanRow r =
            serving::plan(want[i].model, want[i].rps, {want[i].prompt, want[i].output}, {want[i].ttft, want[i].tpot}, own)
                .front();
        const std::size_t row = i + 1;
        CHECK(text_at(t, row, kModel) == want[i].model);
        CHECK(num_at(t, row, kRps) == want[i].rps);
        CHECK(text_at(t, row, kFGpu) == r.gpu);
        if (*want[i].gpu) CHECK(r.gpu == want[i].gpu);
        CHECK(num_at(t, row, kFTp) == r.tp);
        CHECK(num_at(t, row, kFEngineTp) * num_at(t, row, kFPp) == r.tp);
        CHECK(num_at(t, row, kFGpus) == r.gpus);
        CHECK(num_at(t, row, kFServers) == r.servers);
        CHECK(num_at(t, row, kFUsdHour) == Approx(*r.usd_per_hour));
        CHECK(num_at(t, row, kFKw) == Approx(*r.kw));
        gpus += r.gpus, servers += r.servers, usd += *r.usd_per_hour, kw += *r.kw;
        tokens += want[i].rps * want[i].output;
    }
    CHECK(text_at(t, 4, kModel) == "total");
    CHECK(num_at(t, 4, kRps) == 130);
    CHECK(text_at(t, 4, kFGpu).empty());
    CHECK(num_at(t, 4, kFGpus) == gpus);
    CHECK(num_at(t, 4, kFServers) == servers);
    CHECK(num_at(t, 4, kFUsdHour) == Approx(usd));
    CHECK(num_at(t, 4, kFUsdMonth) == Approx(usd * 730));
    CHECK(num_at(t, 4, kFUsdMtok) == Approx(usd / (tokens * 3600) * 1e6));
    CHECK(num_at(t, 4, kFKw) == Approx(kw));

    // Errors name the workloads, the row and the column; a workload nothing serves, its place and the target.
    const auto error_of = [](const std::string& rows) {
        try {
            table("ROOFLINE_FLEET", {text(rows.c_str())});
        } catch (const Error& e) {
            CHECK(e.argument() == "workloads");
            return std::string(e.reason());
        }
        FAIL("accepted: " << rows);
        return std::string();
    };
    CHECK_THAT(error_of("llama-3.1-8b\t5\t1000\t200\t1000\t50\nllama-9b\t5\t1000\t200\t1000\t50"),
               Catch::Matchers::StartsWith("row 2, model: no model 'llama-9b'"));
    CHECK_THAT(error_of("llama-3.1-8b\tfive\t1000\t200\t1000\t50"),
               Catch::Matchers::StartsWith("row 1, rps: must be a number (got 'five')"));
    CHECK_THAT(error_of("llama-3.1-8b\t5\t1000\t200\t1000\t50\th100-smx"),
               Catch::Matchers::StartsWith("row 1, gpu: no GPU 'h100-smx'"));
    CHECK_THAT(error_of("llama-3.1-8b\t5\t1000\t200\t1000\t50\nllama-3.1-70b\t5\t1000\t200\t1000\t0.01"),
               Catch::Matchers::StartsWith("workload 2 (llama-3.1-70b): tpot_ms: "));
    CHECK_THAT(error_of("llama-3.1-8b\t5\t1000"), Catch::Matchers::StartsWith("has 3 columns: it takes 6 or 7"));
    // An option's error names the option, not a workload.
    try {
        table("ROOFLINE_FLEET", {text("llama-3.1-8b\t5\t1000\t200\t1000\t50"), text(""), text(""), text("typical"),
                                 text(""), num(1), num(1), text("owned"), num(5), num(0), num(1), text("")});
        FAIL("owned without electricity accepted");
    } catch (const Error& e) {
        CHECK(e.argument() == "usd_per_kwh");
    }
}
