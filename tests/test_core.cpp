// Unit tests of the C++ core: the concept layer and the formula layer with its table.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "roofline/defaults.hpp"
#include "roofline/dense.hpp"
#include "roofline/formulas.hpp"
#include "roofline/nearest.hpp"
#include "roofline/operators.hpp"
#include "roofline/roofline.hpp"

using namespace roofline;
using Catch::Matchers::Contains;

namespace {
/// A valid value for an argument: its default, a catalog id, or a small number.
Arg valid(const FormulaSpec& f, const ArgSpec& a) {
    if (a.type == Type::table && std::string_view(f.name) == "ROOFLINE_FLEET")  // two workloads of Llama 3 8B
        return {std::string("llama-3-8b\t5\t1000\t200\t1000\t50\nllama-3-8b\t2\t4000\t500\t2000\t40")};
    if (a.type == Type::table)  // three measured decode steps of Llama 3 8B on one H200 (h200-graph.csv)
        return {std::string("llama-3-8b\th200\tbf16\tbf16\t1\t1\t1024\tstep_ms\t6.0155\n"
                            "llama-3-8b\th200\tbf16\tbf16\t1\t1\t4096\tstep_ms\t7.1348\n"
                            "llama-3-8b\th200\tbf16\tbf16\t1\t8\t4096\tstep_ms\t7.4356")};
    if (a.type == Type::text) {
        if (a.optional) return {std::string(a.default_text)};
        const std::string name = a.name;
        if (name == "model" || name == "draft_model") return {std::string("llama-3-8b")};
        if (name == "gpu") return {std::string("h100-sxm")};
        return {std::string(std::string(f.name) == "ROOFLINE_GPU" ? "hbm_tbs" : "layers")};
    }
    if (a.optional) return {a.default_number};
    return {a.check == Check::count ? 2.0 : 1.0};
}
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
const Gpu kH100{defaults::h100_sxm_bf16_dense_tflops, defaults::h100_sxm_hbm_tbs};
}  // namespace

TEST_CASE("compute and memory time convert TFLOP/s and TB/s to ms", "[core]") {
    CHECK(compute_time_ms(2e12, 2) == Approx(1000.0));
    CHECK(memory_time_ms(3e12, 1.5) == Approx(2000.0));
    CHECK(compute_time_ms(0, 989) == 0.0);
}

TEST_CASE("a step takes the larger of compute and memory time", "[core]") {
    const StepTime mem = step_time({1e12, 1e12}, {1000, 1});  // 1 ms compute, 1000 ms memory
    CHECK(mem.time_ms == Approx(1000.0));
    CHECK(mem.bound == Bound::memory);
    const StepTime cmp = step_time({1e15, 1e9}, {1000, 1});  // 1000 ms compute, 1 ms memory
    CHECK(cmp.time_ms == Approx(1000.0));
    CHECK(cmp.bound == Bound::compute);
    SECTION("a tie counts as memory bound") {
        CHECK(step_time({2e12, 1e12}, {2, 1}).bound == Bound::memory);
    }
}

TEST_CASE("a step is compute bound exactly when its intensity exceeds the balance point", "[core]") {
    for (double ai : {1.0, 64.0, 200.0, 295.0, 296.0, 1000.0, 2000.0}) {
        const Work w{ai * 1e9, 1e9};
        INFO("ai = " << ai);
        CHECK((step_time(w, kH100).bound == Bound::compute) == (arithmetic_intensity(w) > balance_point(kH100)));
    }
}

TEST_CASE("the roof is the slope below the balance point and the peak above it", "[core]") {
    const double ridge = balance_point(kH100);
    CHECK(attainable_tflops(ridge / 2, kH100) == Approx(kH100.tflops / 2));
    CHECK(attainable_tflops(ridge * 2, kH100) == kH100.tflops);
    const auto pts = roof(kH100, 0.1, 10000, 50);
    REQUIRE(pts.size() == 50);
    CHECK(pts.front().ai == 0.1);
    CHECK(pts.back().ai == 10000.0);
    for (std::size_t i = 1; i < pts.size(); ++i) {
        CHECK(pts[i].ai / pts[i - 1].ai == Approx(std::pow(1e5, 1.0 / 49)));
        CHECK(pts[i].attainable_tflops >= pts[i - 1].attainable_tflops);
    }
}

TEST_CASE("decode reads the weights once per step and the KV once per sequence", "[core][dense]") {
    const DenseModel m{8, 2, 128};
    const Work one = decode_work(m, 1, 4096);
    const Work many = decode_work(m, 64, 4096);
    CHECK(many.flops == Approx(64 * one.flops));
    CHECK(many.bytes - weight_bytes(m) == Approx(64 * (one.bytes - weight_bytes(m))));
    CHECK(prefill_work(m, 2000).bytes == weight_bytes(m));
}

TEST_CASE("the critical batch is the first compute-bound batch", "[core][dense]") {
    for (double params : {0.5, 7.0, 8.0, 70.0, 405.0}) {
        for (double ctx : {0.0, 1.0, 16.0, 100.0}) {
            for (double bpp : {0.5, 1.0, 2.0}) {
                const DenseModel m{params, bpp, 128};
                const CriticalBatch c = critical_batch(m, ctx, kH100);
                INFO("params " << params << " ctx " << ctx << " bpp " << bpp);
                if (!c.reachable) {
                    // Then even an enormous batch stays memory bound.
                    CHECK(step_time(decode_work(m, 1e9, ctx), kH100).bound == Bound::memory);
                    continue;
                }
                CHECK(c.batch == std::floor(c.batch));
                CHECK(step_time(decode_work(m, c.batch, ctx), kH100).bound == Bound::compute);
                if (c.batch > 1) CHECK(step_time(decode_work(m, c.batch - 1, ctx), kH100).bound == Bound::memory);
            }
        }
    }
    CHECK_FALSE(critical_batch({8, 2, 128}, 4096, kH100).reachable);
}

TEST_CASE("max batch fills the memory left beside the weights", "[core][dense]") {
    const DenseModel m{8, 2, 128};
    const MemoryFit fit = max_batch(m, 80, 4096, 0);
    REQUIRE(fit.weights_fit);
    CHECK(weight_bytes(m) + kv_bytes(m, fit.batch, 4096) <= 80e9);
    CHECK(weight_bytes(m) + kv_bytes(m, fit.batch + 1, 4096) > 80e9);
    CHECK_FALSE(max_batch(m, 10, 4096, 0).weights_fit);
    // An exact fit keeps its last sequence: 16 GB of weights + 4 sequences of 1 GB.
    CHECK(max_batch({8, 2, 1e9 / 1024 / 1000}, 20, 1000, 0).batch == 4);
}

TEST_CASE("the formula table describes every formula completely", "[table]") {
    std::set<std::string> names;
    for (const FormulaSpec& f : formulas()) {
        INFO(f.name);
        CHECK(std::string(f.name).rfind("ROOFLINE_", 0) == 0);
        CHECK(names.insert(f.name).second);
        CHECK(std::string(f.description_en).size() > 10);
        CHECK(std::string(f.description_zh).size() > 10);
        CHECK(find_formula(c_function_name(f.name)) == &f);
        bool seen_optional = false;
        for (const ArgSpec& a : f.args) {
            INFO(a.name);
            CHECK(std::string(a.description_en).size() > 5);
            CHECK(std::string(a.description_zh).size() > 5);
            CHECK((a.optional || !seen_optional));  // optional arguments only at the end
            seen_optional = seen_optional || a.optional;
        }
    }
    CHECK(c_function_name("ROOFLINE_DECODE_MS") == "roofline_decode_ms");
    CHECK(find_formula("no_such_formula") == nullptr);
}

TEST_CASE("an array with a header row has the columns its table entry declares, in order", "[table]") {
    int with_headers = 0;
    for (const FormulaSpec& f : formulas()) {
        const bool has_header = std::string_view(f.description_en).find("a header row") != std::string_view::npos;
        if (f.result != Type::array || !has_header) continue;
        INFO(f.name);
        std::vector<Arg> args;
        for (const ArgSpec& a : f.args)
            if (!a.optional) args.push_back(valid(f, a));
        // The plan of valid()'s 1 ms targets has no configuration: the example instead.
        if (std::string_view(f.name) == "ROOFLINE_PLAN")
            args = {{std::string("llama-3.1-70b")}, {100.0}, {2000.0}, {300.0}, {500.0}, {50.0}};
        const Table t = std::get<Table>(call(f.name, args).value);
        std::string header;
        for (std::size_t c = 0; c < t.cols; ++c) header += (c ? ", " : "") + std::get<std::string>(t.cells[c]);
        CHECK(header == f.result_unit);
        ++with_headers;
    }
    CHECK(with_headers == 7);  // the two breakdowns, the plan, the curve, the simulation, the calibration's rows, the fleet
}

TEST_CASE("left-out optional arguments take the table's defaults", "[table]") {
    for (const FormulaSpec& f : formulas()) {
        std::vector<Arg> required, all;
        for (const ArgSpec& a : f.args) {
            if (!a.optional) required.push_back(valid(f, a));
            all.push_back(valid(f, a));
        }
        if (required.size() == all.size()) continue;
        INFO(f.name);
        Value short_call, full_call;
        try {
            short_call = call(f.name, required);
            full_call = call(f.name, all);
        } catch (const Error&) {
            // Some formulas have no answer for these inputs; both calls must agree on that.
            CHECK_THROWS_AS(call(f.name, all), Error);
            continue;
        }
        CHECK(short_call.value == full_call.value);
    }
    CHECK(std::get<double>(call("ROOFLINE_DECODE_MS", std::vector<Arg>{{8.0}, {64.0}, {4096.0}, {3.35}}).value) ==
          formula::decode_ms(8, 64, 4096, 3.35, 989, 128, 2));
}

TEST_CASE("bad input gives an error that names the argument", "[table][errors]") {
    for (const FormulaSpec& f : formulas()) {
        if (!f.args.empty() && f.args.back().type == Type::rest) continue;  // ROOFLINE_WHY explains, never refuses
        for (std::size_t i = 0; i < f.args.size(); ++i) {
            const bool text = f.args[i].type == Type::text;
            for (double bad : {kNaN, kInf, -kInf, -1.0}) {
                if (!text && bad == -1.0 && f.args[i].check == Check::finite) continue;
                std::vector<Arg> args;
                for (std::size_t j = 0; j < f.args.size(); ++j) args.push_back(valid(f, f.args[j]));
                // A text argument gets an unknown name; a number argument the bad number.
                // (ROOFLINE_PLAN's prices are "gpu=price" entries: an unknown GPU there.)
                if (text) args[i] = {std::string("no-such-") + std::to_string(static_cast<int>(bad == bad ? bad : 0)) +
                                     (std::string(f.args[i].name) == "prices" ? "=1" : "")};
                else args[i] = {bad};
                INFO(f.name << " argument " << f.args[i].name << " = " << bad);
                try {
                    call(f.name, args);
                    FAIL("no error");
                } catch (const Error& e) {
                    CHECK(e.status() == (text ? Status::unknown_id : Status::invalid_argument));
                    CHECK(e.argument() == f.args[i].name);
                    CHECK_THAT(e.what(), Contains(f.args[i].name) && Contains(f.name));
                }
            }
        }
    }
}

TEST_CASE("domain errors of single formulas", "[errors]") {
    auto status_of = [](auto&& fn) {
        try {
            fn();
        } catch (const Error& e) {
            return e.status();
        }
        return Status::ok;
    };
    CHECK(status_of([] { formula::decode_ms(8, 0.5, 0, 3.35, 989, 128, 2); }) == Status::invalid_argument);
    CHECK(status_of([] { formula::ai(1, 0); }) == Status::invalid_argument);
    CHECK(status_of([] { formula::roof(989, 3.35, 10, 1, 50); }) == Status::invalid_argument);
    CHECK(status_of([] { formula::roof(989, 3.35, 1, 10, 1); }) == Status::invalid_argument);
    CHECK(status_of([] { formula::roof(989, 3.35, 1, 10, 1e6); }) == Status::invalid_argument);
    CHECK(status_of([] { formula::critical_batch(8, 4096, 989, 3.35, 128, 2); }) == Status::no_solution);
    CHECK(status_of([] { formula::max_batch(8, 8, 4096, 128, 2, 0); }) == Status::no_solution);
    CHECK(status_of([] { formula::max_batch(80, 8, 0, 128, 2, 0); }) == Status::invalid_argument);
    CHECK(status_of([] { formula::decode_ms(1e300, 1e300, 0, 3.35, 989, 128, 2); }) == Status::out_of_range);
    CHECK(status_of([] { formula::compute_ms(1e300, 1e-300); }) == Status::out_of_range);
}

TEST_CASE("generic calls check the name, the arity and the types", "[errors]") {
    auto status_of = [](std::string_view name, std::vector<Arg> args) {
        try {
            call(name, args);
        } catch (const Error& e) {
            return e.status();
        }
        return Status::ok;
    };
    CHECK(status_of("ROOFLINE_NOPE", {}) == Status::unknown_formula);
    CHECK(status_of("ROOFLINE_BALANCE", {{989.0}}) == Status::wrong_arity);
    CHECK(status_of("ROOFLINE_BALANCE", {{989.0}, {3.35}, {1.0}}) == Status::wrong_arity);
    CHECK(status_of("ROOFLINE_BALANCE", {{989.0}, {std::string("fast")}}) == Status::invalid_argument);
    CHECK(status_of("roofline_balance", {{989.0}, {3.35}}) == Status::ok);
}

TEST_CASE("the prefill writes a 16-bit KV cache, whatever the weights' format", "[kv]") {
    // One token of prompt: the attention's KV write is memory bound, so its format shows in the time.
    for (DType w : {DType::fp32, DType::fp8, DType::int4, DType::q4_k_m}) {
        INFO(to_string(w));
        const Deployment sixteen{*find_model("llama-3-8b"), *find_gpu("h100-sxm"), w, DType::bf16, 1};
        Deployment as_weights = sixteen;
        as_weights.kv = w;
        auto ops = prefill_operators(sixteen, 1, 1);
        auto ops_as_weights = prefill_operators(as_weights, 1, 1);
        const double ttft = formula::ttft_ms("llama-3-8b", "h100-sxm", 1, 1, to_string(w), 1, "bound");
        CHECK(ttft == estimate(ops, sixteen.gpu, *find_profile("bound")));
        CHECK(ttft != estimate(ops_as_weights, as_weights.gpu, *find_profile("bound")));
    }
}

namespace {
/// The error of a call that must fail.
Error error_of(std::string_view formula, std::vector<Arg> args) {
    try {
        call(formula, args);
    } catch (const Error& e) {
        return e;
    }
    FAIL(formula << " did not fail");
    throw std::logic_error("unreachable");
}
Arg text(const char* s) { return {std::string(s)}; }
}  // namespace

TEST_CASE("errors say where, which argument and why, and unknown ids get the nearest id", "[errors]") {
    const Error typo = error_of("ROOFLINE_STEP_MS", {text("llama3-70b"), text("h100-sxm"), {1.0}, {0.0}});
    CHECK(typo.status() == Status::unknown_id);
    CHECK(typo.argument() == "model");
    CHECK(typo.where() == "ROOFLINE_STEP_MS");
    CHECK(typo.reason() == "no model 'llama3-70b' in the catalog; did you mean 'llama-3-70b'?");
    CHECK(std::string(typo.what()) ==
          "ROOFLINE_STEP_MS: argument 'model': no model 'llama3-70b' in the catalog; did you mean 'llama-3-70b'?");
    // No suggestion when nothing is close.
    CHECK(error_of("ROOFLINE_MODEL", {text("gpt-5"), text("layers")}).reason() == "no model 'gpt-5' in the catalog");
    CHECK(error_of("ROOFLINE_GPU", {text("H100SXM"), text("hbm_gb")}).reason() ==
          "no GPU 'H100SXM' in the catalog; did you mean 'h100-sxm'?");
    CHECK(error_of("ROOFLINE_GPU", {text("h100-sxm"), text("hbm")}).reason() ==  // fields that start with it: the shortest
          "no field of the GPU catalog 'hbm' (fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, "
          "int8_tops, int4_tops, hbm_tbs, hbm_gb, l2_mb, interconnect_tbs, usd_per_gpu_hour, fp4_tflops, scaleup_gpus, "
          "scaleout_tbs, power_w, host_link_tbs, idle_w, host_w, server_gpus, usd_per_gpu_hour_reserved, reserved_years, "
                "usd_per_server, memory_gb); did you mean 'hbm_gb'?");
    CHECK(error_of("ROOFLINE_GPU", {text("h100-sxm"), text("HBM-GB")}).reason() ==
          "no field of the GPU catalog 'HBM-GB' (fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops, "
          "int8_tops, int4_tops, hbm_tbs, hbm_gb, l2_mb, interconnect_tbs, usd_per_gpu_hour, fp4_tflops, scaleup_gpus, "
          "scaleout_tbs, power_w, host_link_tbs, idle_w, host_w, server_gpus, usd_per_gpu_hour_reserved, reserved_years, "
                "usd_per_server, memory_gb); did you mean 'hbm_gb'?");
    const Error dtype = error_of("ROOFLINE_FIT_BATCH", {text("llama-3-8b"), text("rtx-4090"), {8192.0}, text("q4km")});
    CHECK(dtype.argument() == "weight_dtype");
    // The model's published checkpoints are choices too (0.14): here only its own, meta-llama/Meta-Llama-3-8B.
    CHECK(dtype.reason() == "no dtype or checkpoint 'q4km' (native, meta-llama/Meta-Llama-3-8B, fp32, bf16, fp16, fp8, "
                            "int8, int4, q8_0, q4_0, q4_k_m, nvfp4, mxfp4, fp8_block); did you mean 'q4_k_m'?");
    CHECK(error_of("ROOFLINE_TTFT_MS", {text("llama-3-8b"), text("h100-sxm"), {100.0}, {1.0}, text("bf16"), {1.0},
                                        text("tipical")})
              .reason() == "no profile 'tipical' (bound, typical, vllm, sglang, tensorrt-llm, llama.cpp); did you mean 'typical'?");

    const Error batch = error_of("ROOFLINE_DECODE_MS", {{8.0}, {-1.0}, {0.0}, {3.35}});
    CHECK(batch.status() == Status::invalid_argument);
    CHECK(batch.reason() == "must be a whole number >= 1 (got -1)");
    CHECK(std::string(batch.what()) == "ROOFLINE_DECODE_MS: argument 'batch': must be a whole number >= 1 (got -1)");

    // A valid question without an answer: the message names no argument, errarg still the one to change.
    const Error no_fit = error_of("ROOFLINE_FIT_BATCH", {text("llama-3-70b"), text("h100-sxm"), {4096.0}});
    CHECK(no_fit.status() == Status::no_solution);
    CHECK(no_fit.argument() == "model");
    CHECK(std::string(no_fit.what()) ==
          "ROOFLINE_FIT_BATCH: the weights (141 GB per GPU) do not fit in 0.9 of the 85.52 GB of a 'h100-sxm'");

    const Error formula_typo = error_of("ROOFLINE_DECOD_MS", {});
    CHECK(formula_typo.status() == Status::unknown_formula);
    CHECK(std::string(formula_typo.what()) == "no formula named 'ROOFLINE_DECOD_MS'; did you mean 'ROOFLINE_DECODE_MS'?");
    CHECK(std::string(error_of("ROOFLINE_BALANCE", {{1.0}}).what()) == "ROOFLINE_BALANCE: takes 2 arguments (got 1)");
}

TEST_CASE("the nearest id: one edit per three characters, separators and case free", "[nearest]") {
    CHECK(edit_distance("kitten", "sitting") == 3);
    CHECK(edit_distance("stpe", "step") == 1);  // a transposition is one edit
    CHECK(edit_distance("STEP", "step") == 0);
    CHECK(edit_distance("", "abc") == 3);
    const std::vector<std::string_view> commands{"roof", "step", "fit", "ttft", "formulas"};
    CHECK(nearest("stpe", commands) == 1u);
    CHECK(nearest("formula", commands) == 4u);
    CHECK(nearest("Fit", commands) == 2u);
    CHECK_FALSE(nearest("plot", commands).has_value());
    CHECK_FALSE(nearest("", commands).has_value());
    const std::vector<std::string> models{"llama-3-8b", "llama-3-70b", "llama-3.1-405b"};
    CHECK(nearest("llama3-70b", models) == 1u);
    CHECK(nearest("LLAMA_3_8B", models) == 0u);
    CHECK(nearest("llama-3-7b", models) == 0u);  // as close as llama-3-70b without separators; closer with them
    CHECK_FALSE(nearest("mistral-7b", models).has_value());
    // A candidate that starts with what was typed (3 characters or more) beats a typo of the same length: the
    // shortest such, then the first.
    const std::vector<std::string> gpus{"h100-sxm", "h100-pcie", "h100-nvl", "h200", "b200", "mi300x"};
    CHECK(nearest("h100", gpus) == 0u);  // not h200, one edit away
    CHECK(nearest("H100_PCI", gpus) == 1u);
    CHECK(nearest("mi30", gpus) == 5u);
    CHECK(nearest("h200", gpus) == 3u);  // the id itself first
    CHECK_FALSE(nearest("h1", gpus).has_value());  // too short to be a prefix, and no id is one edit from it
}

TEST_CASE("one formatter of defaults and signatures", "[table][format]") {
    CHECK(signature(*find_formula("ROOFLINE_DECODE_MS")) ==
          "ROOFLINE_DECODE_MS(params_b; batch; ctx; bw_tbs; [tflops=989]; [kv_kib_per_token=128]; [bytes_per_param=2])");
    CHECK(signature(*find_formula("ROOFLINE_STEP_MS")) ==
          "ROOFLINE_STEP_MS(model; gpu; batch; ctx; [weight_dtype=native]; [kv_dtype=bf16]; [tp=1]; [profile=bound]; "
          "[ep=1]; [dp_attention=1]; [pp=1])");
    CHECK(signature(*find_formula("ROOFLINE_ROOF")) ==
          "ROOFLINE_ROOF(tflops; tbs; [ai_min=0.1]; [ai_max=10000]; [points=50])");
    CHECK(signature(*find_formula("ROOFLINE_GPUS")) == "ROOFLINE_GPUS()");
    const FormulaSpec& fit = *find_formula("ROOFLINE_FIT_BATCH");
    CHECK(default_string(fit.args[0]) == "");  // model: required
    CHECK(default_string(fit.args[3]) == "native");
    CHECK(default_string(fit.args[6]) == "0.9");
    CHECK(default_string(find_formula("ROOFLINE_PREFILL_MS")->args[3]) == "3.35");
}

TEST_CASE("ROOFLINE_WHY says ok, or why the call fails", "[why]") {
    auto why = [](std::vector<Arg> args) { return std::get<std::string>(call("ROOFLINE_WHY", args).value); };
    CHECK(why({text("ROOFLINE_FIT_BATCH"), text("llama-3-70b"), text("h100-sxm"), {4096.0}}) ==
          "the weights (141 GB per GPU) do not fit in 0.9 of the 85.52 GB of a 'h100-sxm'");
    CHECK(why({text("ROOFLINE_FIT_BATCH"), text("llama-3-8b"), text("h100-sxm"), {4096.0}}) == "ok");
    CHECK(why({text("roofline_decode_ms"), {8.0}, {-1.0}, {0.0}, {3.35}}) ==
          "argument 'batch': must be a whole number >= 1 (got -1)");
    CHECK(why({text("ROOFLINE_STEP_MS"), text("llama3-70b"), text("h100-sxm"), {1.0}, {0.0}}) ==
          "argument 'model': no model 'llama3-70b' in this machine's catalog or user folder; did you mean 'llama-3-70b'? "
          "(see ROOFLINE_MODELS())");
    CHECK(why({text("ROOFLINE_GPU"), text("h100"), text("hbm_gb")}) ==
          "argument 'gpu': no GPU 'h100' in this machine's catalog or user folder; did you mean 'h100-sxm'? (see "
          "ROOFLINE_GPUS())");
    // A GPU the text names with more after it (issue #43: "h200-sxm" suggested "h100-sxm", one letter away).
    CHECK(why({text("ROOFLINE_GPU"), text("h200-sxm"), text("hbm_gb")}) ==
          "argument 'gpu': no GPU 'h200-sxm' in this machine's catalog or user folder; did you mean 'h200'? (see "
          "ROOFLINE_GPUS())");
    CHECK(why({text("ROOFLINE_MODEL"), text("llama-3.1-70b-instruct"), text("layers")}).find("did you mean 'llama-3.1-70b'?") !=
          std::string::npos);
    // Every unknown model and GPU of the call, not the first alone (a shared workbook opened on another machine).
    CHECK(why({text("ROOFLINE_STEP_MS"), text("my-model"), text("my-gpu"), {1.0}, {0.0}}) ==
          "argument 'model': no model 'my-model' in this machine's catalog or user folder (see ROOFLINE_MODELS()); "
          "argument 'gpu': no GPU 'my-gpu' in this machine's catalog or user folder (see ROOFLINE_GPUS())");
    // Another unknown id (a format) keeps its own reason.
    CHECK(why({text("ROOFLINE_STEP_MS"), text("llama-3-70b"), text("h100-sxm"), {1.0}, {0.0}, text("fp9")}).find(
              "argument 'weight_dtype'") == 0);
    CHECK(why({text("ROOFLINE_BALANCE"), {989.0}}) == "takes 2 arguments (got 1)");
    CHECK(why({text("ROOFLINE_BALANCE"), {989.0}, text("fast")}) == "argument 'tbs': must be a number");
    CHECK(why({text("ROOFLINE_DECOD_MS")}) == "no formula named 'ROOFLINE_DECOD_MS'; did you mean 'ROOFLINE_DECODE_MS'?");
    CHECK(why({text("ROOFLINE_GPUS")}) == "ok");
    // WHY itself fails only when it is called wrongly.
    CHECK(error_of("ROOFLINE_WHY", {}).status() == Status::wrong_arity);
    CHECK(std::string(error_of("ROOFLINE_WHY", {}).what()) == "ROOFLINE_WHY: takes at least 1 argument (got 0)");
    CHECK(error_of("ROOFLINE_WHY", {{8.0}}).argument() == "formula");
    CHECK(signature(*find_formula("ROOFLINE_WHY")) == "ROOFLINE_WHY(formula; arguments...)");
    CHECK(find_formula("ROOFLINE_WHY")->args[1].type == Type::rest);
}

TEST_CASE("a decode step's FLOPs and bytes give its time through ROOFLINE_TIME_MS", "[dense]") {
    for (double params : {0.5, 8.0, 70.0}) {
        for (double batch : {1.0, 64.0, 512.0}) {
            for (double ctx : {0.0, 4096.0}) {
                for (double bpp : {0.5, 2.0}) {
                    INFO(params << " " << batch << " " << ctx << " " << bpp);
                    const double flop = formula::decode_flop(params, batch);
                    const double bytes = formula::decode_bytes(params, batch, ctx, 128, bpp);
                    CHECK(flop == 2 * params * 1e9 * batch);
                    CHECK(bytes == Approx(params * 1e9 * bpp + batch * ctx * 128 * 1024));
                    CHECK(formula::time_ms(flop, bytes, 989, 3.35) == formula::decode_ms(params, batch, ctx, 3.35, 989, 128, bpp));
                    CHECK(formula::ai(flop, bytes) == formula::decode_ai(params, batch, ctx, 128, bpp));
                }
            }
        }
    }
}
