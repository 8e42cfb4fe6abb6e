// Measured rows as calibration cases, and how the built-in profiles are fitted on them: shared by
// tools/fit-profiles.cpp (which writes profiles.json and the per-row errors) and bench/accuracy.cpp (which
// prints the errors by profile, engine, GPU vendor, model kind and metric). Header only, over the core.
//
// A row (measurements.csv's columns; engines.csv adds output_tokens, ep, dp_attention) is one of:
//   step_ms  one decode step of `batch` sequences at `ctx_mean` tokens of context
//   ttft_ms  the prefill of `batch` prompts of `prompt_tokens` tokens, alone
//   tpot_ms  the time per output token of a closed-loop serving benchmark at concurrency `batch`: the mean iteration
//            of the engine's schedule that decodes `batch` sequences at prompt_tokens + output_tokens / 2 tokens of
//            context, fused with the n = batch / (output_tokens - 1) prompts' prefill that keeps the batch full, whole
//            prompts: floor(n) in a share 1 - (n - floor n) of the iterations, one more in the rest, as
//            docs/serving-model.md's iteration (section 2)
//   e2e_ms   a latency benchmark's run: the prefill of `batch` prompts, then output_tokens - 1 decode steps at
//            prompt_tokens + output_tokens / 2 tokens of context
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "measurements.hpp"
#include "roofline/calibrate.hpp"
#include "roofline/catalog.hpp"
#include "roofline/dtype.hpp"
#include "roofline/operators.hpp"

namespace calibration_rows {

using namespace roofline;

/// A measured row as the fitter sees it, with what the report groups it by.
struct Case : CalibrationCase {
    std::string id, profile, engine, vendor, kind;
    bool held_out = false;  ///< measured on an engine build older than kFitFrom: reported, not fitted
};

/// Rows of engine builds before this year-month (the `engine_date` column) are held out of the fit and reported
/// apart: the profiles are of today's engines, and a year and a half of kernel work (DeepSeek's MLA and MoE
/// kernels above all) separates them from early 2025's. Rows without a date (measurements.csv, h200-graph.csv,
/// the reference sets the profiles have been fitted on since 0.5) are fitted. One exception: llama.cpp's rows of
/// GeForce GPUs. The llama.cpp profile is fitted on llama-bench runs of 2024 builds on consumer GPUs (measurements.csv's
/// RTX 4090 rows); the RTX 3090 rows of the same two sources (engines.csv, group L) complete them on a second GPU, and
/// are fitted whatever their date. Its data-centre rows of 2024 stay held out (llama.cpp reaches 40-55% of an A100's or
/// H100's bandwidth where it reaches 70-90% of a GeForce card's: another regime, reported apart).
inline constexpr const char* kFitFrom = "2025-06";

inline std::string field_or(const measurements::Row& r, const std::string& key, const std::string& fallback) {
    const auto it = r.field.find(key);
    return it == r.field.end() || it->second.empty() ? fallback : it->second;
}

inline double number_or(const measurements::Row& r, const std::string& key, double fallback) {
    const std::string v = field_or(r, key, "");
    return v.empty() ? fallback : std::stod(v);
}

/// dense, MoE, MLA (MoE with multi-head latent attention) or hybrid (state-space, linear, sliding, sparse or
/// compressed layers beside full attention): the kinds the accuracy report tells apart.
inline std::string model_kind(const ModelSpec& m) {
    const double other = m.layers_with(Attention::state) + m.layers_with(Attention::sliding) +
                         m.layers_with(Attention::chunked) + m.layers_with(Attention::sparse) +
                         m.layers_with(Attention::compressed) + m.layers_with(Attention::block_sparse);
    if (other > 0) return "hybrid";
    if (m.mla()) return "MLA";
    if (m.moe()) return "MoE";
    return "dense";
}

/// The engine profile a row fits (profiles.json): the engine's, for the engines that have one (TensorRT-LLM's
/// derivatives too: Databricks' and NIM's), else the row's `profile` column (`typical`: only the all-engine fit).
inline std::string engine_profile(const std::string& engine, const std::string& column) {
    std::string e = engine;
    for (char& ch : e) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (const char* known : {"tensorrt-llm", "vllm", "sglang", "llama.cpp"})
        if (e == known || (std::string(known) == "tensorrt-llm" && e.find(known) != std::string::npos)) return known;
    return column;
}

/// The case of a row; throws std::runtime_error naming the row and the field at fault.
inline Case to_case(const measurements::Row& r) {
    Case c;
    c.id = r["id"];
    c.metric = r["metric"];
    c.engine = r["engine"];
    c.profile = engine_profile(c.engine, r["profile"]);
    const std::string date = field_or(r, "engine_date", "");
    c.measured_ms = r.number("value");
    const auto bad = [&](const std::string& what) { return std::runtime_error(fmt::format("row {}: {}", c.id, what)); };
    const auto model = find_model(r["model"]);
    if (!model) throw bad("unknown model '" + r["model"] + "'");
    const auto gpu = find_gpu(r["gpu"]);
    if (!gpu) throw bad("unknown gpu '" + r["gpu"] + "'");
    const bool geforce_llama_cpp = c.profile == "llama.cpp" && gpu->name.find("GeForce") != std::string::npos;
    c.held_out = !date.empty() && date < kFitFrom && !geforce_llama_cpp;
    const auto kv = parse_dtype(r["kv_dtype"]);
    if (!kv) throw bad("unknown kv_dtype '" + r["kv_dtype"] + "'");
    const bool native = r["weight_dtype"] == "native";
    const auto w = native ? std::optional<DType>(model->native_linear) : parse_dtype(r["weight_dtype"]);
    if (!w) throw bad("unknown weight_dtype '" + r["weight_dtype"] + "'");
    c.gpu = *gpu;
    c.vendor = gpu->vendor.empty() ? "other" : gpu->vendor;
    c.kind = model_kind(*model);
    Deployment d{*model, *gpu, *w, *kv, r.number("tp")};
    if (native) d.experts = model->native_experts, d.embedding = model->native_embedding;
    d.layout.ep = number_or(r, "ep", 1);
    d.layout.dp_attention = number_or(r, "dp_attention", 1);
    if (const std::string problem = layout_problem(*model, d.tp, d.layout); !problem.empty()) throw bad(problem);
    const double batch = r.number("batch");
    if (c.metric == "step_ms") {
        c.ops = decode_operators(d, batch, r.number("ctx_mean"));
    } else if (c.metric == "ttft_ms") {
        c.ops = prefill_operators(d, batch, r.number("prompt_tokens"));
    } else if (c.metric == "tpot_ms" || c.metric == "e2e_ms") {
        const double prompt = r.number("prompt_tokens"), output = number_or(r, "output_tokens", 0);
        if (!(output >= 2)) throw bad(c.metric + " needs output_tokens >= 2");
        const double ctx = prompt + output / 2;
        if (c.metric == "tpot_ms") {
            // The engine's schedule (docs/serving-model.md, section 2): whole prompts, floor(n) in a share 1 - phi of
            // the iterations and one more in the rest (the rows' prompts fit the engines' token budgets).
            const double n = batch / (output - 1), lo = std::floor(n), phi = n - lo;
            mixed_operators(d, batch, ctx, lo, prompt, c.ops);
            c.times = 1 - phi;
            if (phi > 0) {
                mixed_operators(d, batch, ctx, lo + 1, prompt, c.then_ops);
                c.then_times = phi;
            }
        } else {
            c.ops = prefill_operators(d, batch, prompt);
            c.then_ops = decode_operators(d, batch, ctx);
            c.then_times = output - 1;
        }
    } else {
        throw bad("unknown metric '" + c.metric + "' (step_ms, ttft_ms, tpot_ms, e2e_ms)");
    }
    return c;
}

/// Adds the models of the `configs` folder beside each file (<id>.json, a Hugging Face config.json: models measured
/// that no catalog has, such as h200-graph.csv's llama-3-70b-40l) to the catalog; returns them (id, text).
inline std::vector<std::pair<std::string, std::string>> add_configs_beside(const std::vector<std::string>& paths) {
    namespace fs = std::filesystem;
    std::vector<std::pair<std::string, std::string>> added;
    for (const std::string& path : paths) {
        const fs::path folder = fs::path(path).parent_path() / "configs";
        if (!fs::is_directory(folder)) continue;
        for (const auto& entry : fs::directory_iterator(folder)) {
            if (entry.path().extension() != ".json" || find_model(entry.path().stem().string())) continue;
            std::ifstream in(entry.path());
            const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            add_model_from_hf_config(entry.path().stem().string(), text);
            added.emplace_back(entry.path().stem().string(), text);
        }
    }
    return added;
}

/// Every row of the files, in order (the models of their configs folders added first).
inline std::vector<Case> read_cases(const std::vector<std::string>& paths) {
    add_configs_beside(paths);
    std::vector<Case> cases;
    for (const std::string& path : paths)
        for (const auto& r : measurements::read(path)) cases.push_back(to_case(r));
    return cases;
}

using roofline::median;

/// A vendor's rows get a variant of their own from this many rows up; fewer share the profile's parameters.
inline constexpr std::size_t kMinVendorRows = 6;
/// The vendor whose rows fit a profile's own parameters; the others' rows fit variants.
inline constexpr const char* kMainVendor = "NVIDIA";

/// The rows a profile is fitted on: an engine's profile on the rows of that engine; `typical`, the estimate for any
/// serving engine, on every row but llama.cpp's (a desktop engine whose kernels and batching are of another kind:
/// its own profile, as before 0.9).
inline bool fits(const Case& c, const std::string& profile) {
    return c.profile == profile || (profile == "typical" && c.profile != "llama.cpp");
}

/// The profiles the rows name: `typical` first, then the engines' in this order, then any other.
inline std::vector<std::string> profile_names(const std::vector<Case>& cases) {
    std::vector<std::string> names{"typical"};
    for (const char* engine : {"vllm", "sglang", "tensorrt-llm", "llama.cpp"})
        for (const Case& c : cases)
            if (c.profile == engine) {
                names.push_back(engine);
                break;
            }
    for (const Case& c : cases)
        if (std::find(names.begin(), names.end(), c.profile) == names.end()) names.push_back(c.profile);
    return names;
}

}  // namespace calibration_rows
