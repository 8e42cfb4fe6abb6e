// The catalogs and the model-aware estimates: the library's numbers are the sourced files' numbers,
// the architectures add up to the published parameter counts, and the per-operator model behaves as
// the roofline says it must. Through the C ABI, as every host computes.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <roofline.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "measurements.hpp"

using json = nlohmann::json;

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

json catalog(const char* file) { return json::parse(slurp(std::string(ROOFLINE_CATALOG_DIR) + "/" + file)); }

double gpu(const std::string& id, const char* field) {
    double v = NAN;
    REQUIRE(roofline_gpu(id.c_str(), field, &v) == ROOFLINE_OK);
    return v;
}

double model(const std::string& id, const char* field) {
    double v = NAN;
    INFO(id << "." << field << ": " << roofline_errmsg());
    REQUIRE(roofline_model(id.c_str(), field, &v) == ROOFLINE_OK);
    return v;
}

double step(const char* m, const char* g, double batch, double ctx, const char* w = "bf16", const char* kv = "",
            double tp = 1, const char* profile = "bound") {
    double v = NAN;
    INFO(m << " on " << g << ": " << roofline_errmsg());
    REQUIRE(roofline_step_ms(m, g, batch, ctx, w, kv, tp, profile, &v) == ROOFLINE_OK);
    return v;
}

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

}  // namespace

TEST_CASE("every GPU number is the catalog file's, and every entry cites its sources", "[catalog]") {
    const json gpus = catalog("gpus.json");
    REQUIRE(gpus.at("gpus").size() >= 26);
    const std::pair<const char*, const char*> fields[] = {{"fp32", "fp32_tflops"}, {"bf16", "bf16_tflops"},
                                                          {"fp16", "fp16_tflops"}, {"fp8", "fp8_tflops"},
                                                          {"int8", "int8_tops"}};
    for (const json& g : gpus["gpus"]) {
        const std::string id = g["id"];
        INFO(id);
        for (const auto& [key, field] : fields) {
            if (g["tflops"][key].is_null()) {
                double v;
                CHECK(roofline_gpu(id.c_str(), field, &v) == ROOFLINE_ERROR_NO_SOLUTION);  // never a made-up 0
            } else {
                CHECK(gpu(id, field) == g["tflops"][key].get<double>());
            }
        }
        CHECK(gpu(id, "hbm_tbs") == g["hbm_tbs"].get<double>());
        CHECK(gpu(id, "hbm_gb") == g["hbm_gb"].get<double>());
        for (const char* source : {"tflops", "memory"}) {
            REQUIRE(g["sources"].contains(source));
            CHECK(g["sources"][source].get<std::string>().find("http") != std::string::npos);
        }
    }
    // The dense figure, never the sparsity one: the article's H100 SXM, 989 TFLOP/s.
    CHECK(gpu("h100-sxm", "bf16_tflops") == Approx(989).epsilon(0.001));
}

TEST_CASE("every GPU's price says where it is from and when it was read, or why there is none", "[catalog]") {
    const json gpus = catalog("gpus.json");
    const std::regex date(R"(20[0-9]{2}-[01][0-9]-[0-3][0-9])");
    std::size_t priced = 0;
    for (const json& g : gpus["gpus"]) {
        const std::string id = g["id"];
        INFO(id);
        REQUIRE(g["sources"].contains("price"));
        const std::string source = g["sources"]["price"];
        CHECK(std::regex_search(source, date));
        if (g["usd_per_gpu_hour"].is_null()) {
            double v;
            CHECK(roofline_gpu(id.c_str(), "usd_per_gpu_hour", &v) == ROOFLINE_ERROR_NO_SOLUTION);  // never a made-up 0
            CHECK(source.find("No public on-demand offer found") != std::string::npos);
        } else {
            ++priced;
            CHECK(g["usd_per_gpu_hour"].get<double>() > 0);
            CHECK(gpu(id, "usd_per_gpu_hour") == g["usd_per_gpu_hour"].get<double>());
            CHECK(source.find("http") != std::string::npos);
        }
    }
    CHECK(priced >= 16);  // issue #11: all but the RTX 3090 Ti and the MI250X, for which no public offer was found
}

/// A field of ROOFLINE_GPU that the catalog may lack: NaN where it says ROOFLINE_ERROR_NO_SOLUTION.
double gpu_or_nan(const std::string& id, const char* field) {
    double v = NAN;
    const int status = roofline_gpu(id.c_str(), field, &v);
    INFO(id << "." << field << ": " << roofline_errmsg());
    REQUIRE((status == ROOFLINE_OK || status == ROOFLINE_ERROR_NO_SOLUTION));
    return status == ROOFLINE_OK ? v : NAN;
}

TEST_CASE("every GPU's FP4 peak, scale-up domain, scale-out and power are the file's, with their sources", "[catalog]") {
    const json gpus = catalog("gpus.json");
    const std::pair<const char*, const char*> fields[] = {
        {"scaleup_gpus", "scaleup_gpus"}, {"scaleout_tbs", "scaleout_tbs"}, {"power_w", "power_w"}};
    for (const json& g : gpus["gpus"]) {
        const std::string id = g["id"];
        INFO(id);
        // fp4 sits with the other peaks; null (no FP4 matrix mode, or no figure) is no answer, never a 0.
        REQUIRE(g["tflops"].contains("fp4"));
        if (g["tflops"]["fp4"].is_null()) CHECK(std::isnan(gpu_or_nan(id, "fp4_tflops")));
        else CHECK(gpu(id, "fp4_tflops") == g["tflops"]["fp4"].get<double>());
        REQUIRE(g.contains("scaleup_gpus"));  // every built-in entry says it (a user's may leave it out)
        for (const auto& [key, field] : fields) {
            REQUIRE(g.contains(key));
            if (g[key].is_null()) CHECK(std::isnan(gpu_or_nan(id, field)));
            else CHECK(gpu(id, field) == g[key].get<double>());
        }
        for (const char* source : {"scaleup", "scaleout", "power"}) {
            REQUIRE(g["sources"].contains(source));
            CHECK_FALSE(g["sources"][source].get<std::string>().empty());
        }
        if (!g["power_w"].is_null()) CHECK(g["sources"]["power"].get<std::string>().find("http") != std::string::npos);
        const double up = gpu(id, "scaleup_gpus");
        CHECK(up == std::floor(up));
        CHECK((up == 1 || up == 2 || up == 4 || up == 8 || up == 72));
    }
}

TEST_CASE("the GPUs of 2026: Blackwell Ultra, NVL72 racks, CDNA 4, H20, RTX PRO 6000 and DGX Spark", "[catalog]") {
    for (const char* id : {"b300", "gb200", "gb300", "mi355x", "mi350x", "h20", "rtx-pro-6000", "dgx-spark"}) {
        INFO(id);
        CHECK(gpu(id, "bf16_tflops") > 0);
        CHECK(gpu(id, "hbm_tbs") > 0);
        CHECK(gpu(id, "hbm_gb") > 0);
        CHECK(gpu(id, "interconnect_tbs") > 0);
        CHECK(gpu(id, "scaleup_gpus") >= 1);
        CHECK(gpu(id, "power_w") > 0);
    }
    // The NVL72 racks are one NVLink domain of 72 GPUs; an HGX node, an OAM platform and a server of PCIe cards 8.
    CHECK(gpu("gb200", "scaleup_gpus") == 72);
    CHECK(gpu("gb300", "scaleup_gpus") == 72);
    for (const char* id : {"b200", "b300", "h100-sxm", "h200", "mi300x", "mi355x", "rtx-pro-6000"}) CHECK(gpu(id, "scaleup_gpus") == 8);
    CHECK(gpu("dgx-spark", "scaleup_gpus") == 1);
    CHECK(gpu("h100-nvl", "scaleup_gpus") == 2);  // the NVLink-bridged pair
    // FP4: Blackwell Ultra's is 1.5x Blackwell's, and it gives up INT8 for it; MI355X computes MXFP4.
    CHECK(gpu("b300", "fp4_tflops") > gpu("b200", "fp4_tflops"));
    CHECK(gpu("gb300", "fp4_tflops") == Approx(1.5 * gpu("gb200", "fp4_tflops")));
    CHECK(gpu("b300", "int8_tops") < gpu("b200", "int8_tops") / 10);
    CHECK(gpu("mi355x", "fp4_tflops") > 2 * gpu("mi355x", "fp8_tflops") * 0.99);
    CHECK(gpu("mi355x", "fp4_tflops") > gpu("mi350x", "fp4_tflops"));
    CHECK(gpu("rtx-5090", "fp4_tflops") > 0);
    for (const char* id : {"h100-sxm", "h200", "h20", "a100-sxm-80gb", "l40s", "mi300x", "mi325x"})
        CHECK(std::isnan(gpu_or_nan(id, "fp4_tflops")));  // Hopper, Ampere, Ada, CDNA 3: no FP4 units
    // Scale-out: ConnectX-7 at 400 Gb/s (0.05 TB/s) per GPU on B200 and GB200, ConnectX-8 at 800 Gb/s on B300 and GB300.
    CHECK(gpu("b200", "scaleout_tbs") == 0.05);
    CHECK(gpu("gb200", "scaleout_tbs") == 0.05);
    CHECK(gpu("b300", "scaleout_tbs") == 0.1);
    CHECK(gpu("gb300", "scaleout_tbs") == 0.1);
    CHECK(gpu("h100-sxm", "scaleout_tbs") == 0.05);
    CHECK(std::isnan(gpu_or_nan("rtx-4090", "scaleout_tbs")));  // a PCIe card has no NIC of its own
}

TEST_CASE("a user's GPU without the 2026 fields keeps working, a bad one is refused naming the field", "[catalog]") {
    size_t added = 0;
    REQUIRE(roofline_catalog_add_json(R"({"gpus": [{"id": "old-style-gpu", "tflops": {"bf16": 300}, "hbm_tbs": 1.5,
                                          "hbm_gb": 48, "interconnect_tbs": 0.05}]})", &added) == ROOFLINE_OK);
    CHECK(gpu("old-style-gpu", "scaleup_gpus") == 8);  // the default: one node of 8
    for (const char* field : {"fp4_tflops", "scaleout_tbs", "power_w"}) {
        INFO(field);
        CHECK(std::isnan(gpu_or_nan("old-style-gpu", field)));  // not given: no answer
    }
    CHECK(step("llama-3-8b", "old-style-gpu", 1, 0, "nvfp4") > 0);  // FP4 weights dequantize: no FP4 peak
    const std::pair<const char*, const char*> bad[] = {
        {R"("scaleup_gpus": 0)", "scaleup_gpus"}, {R"("scaleup_gpus": 2.5)", "scaleup_gpus"},
        {R"("scaleup_gpus": "72")", "scaleup_gpus"}, {R"("scaleout_tbs": -0.1)", "scaleout_tbs"},
        {R"("power_w": -700)", "power_w"}, {R"("tflops": {"bf16": 1, "fp4": -1})", "fp4"},
        {R"("fp4_formats": ["int4"])", "fp4_formats"}, {R"("fp4_formats": "mxfp4")", "fp4_formats"}};
    for (const auto& [field, name] : bad) {
        INFO(field);
        const std::string text = std::string(R"({"gpus": [{"id": "bad-gpu", "tflops": {"bf16": 1}, "hbm_tbs": 1, "hbm_gb": 1, )") +
                                 field + "}]}";
        CHECK(roofline_catalog_add_json(text.c_str(), &added) == ROOFLINE_ERROR_ARGUMENT);
        CHECK(std::string(roofline_errarg()) == "catalog_json");
        CHECK(std::string(roofline_errmsg()).find(name) != std::string::npos);
    }
}

/// The prefill of `batch` prompts of `tokens` tokens, ms.
double ttft(const char* m, const char* g, double tokens, double batch, const char* w, double tp) {
    double v = NAN;
    INFO(m << " on " << g << " in " << w << ": " << roofline_errmsg());
    REQUIRE(roofline_ttft_ms(m, g, tokens, batch, w, tp, "bound", &v) == ROOFLINE_OK);
    return v;
}

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

TEST_CASE("every model adds up to its published parameter count and cites its config.json", "[catalog]") {
    const json models = catalog("models.json");
    REQUIRE(models.at("models").size() >= 19);
    for (const json& m : models["models"]) {
        const std::string id = m["id"];
        INFO(id);
        CHECK(m["source"].get<std::string>().find("config.json") != std::string::npos);
        const double reported = m["params_b_reported"].is_null() ? 0 : m["params_b_reported"].get<double>();
        // Published sizes are often rounded names (Llama 2 "7B" has 6.74 billion parameters): within 5%.
        if (reported > 0) CHECK(model(id, "params_b") == Approx(reported).epsilon(0.05));
        // Active: what one token reads (the embedding table counts as one row); published figures are rounded
        // ("A3B") and count the embedding in different ways: within 12% (issue 17), but for Qwen3-Next, whose
        // "3B activated" is its name's figure: its layers give 3.56B with the lm_head (3.25B without).
        if (m["active_params_b_reported"].is_number()) {
            const double active = m["active_params_b_reported"].get<double>();
            if (id == "qwen3-next-80b-a3b")
                CHECK((model(id, "active_params_b") > active && model(id, "active_params_b") < 1.2 * active));
            else
                CHECK(model(id, "active_params_b") == Approx(active).epsilon(0.12));
        }
        // Multimodal configs nest the language model in text_config.
        const json& text = m["config"].contains("text_config") ? m["config"]["text_config"] : m["config"];
        CHECK(model(id, "layers") == text.value("num_hidden_layers", text.value("n_layer", text.value("n_layers", 0.0))));
    }
}

TEST_CASE("KV cache per token: GQA, MLA, and the article's 128 KiB", "[catalog]") {
    // Llama-3-8B: 32 layers x 8 KV heads x 128 x (K, V) x 2 bytes = 128 KiB, the article's default.
    const roofline_formula_info* decode = roofline_formula_find("ROOFLINE_DECODE_MS");
    CHECK(model("llama-3-8b", "kv_kib_per_token") == decode->args[5]->default_number);
    // DeepSeek-V3 caches the MLA latent and the RoPE key per layer, not K and V per head.
    const json models = catalog("models.json");
    const json ds = [&] {
        for (const json& m : models["models"])
            if (m["id"] == "deepseek-v3") return m["config"];
        return json();
    }();
    const double latent = ds["kv_lora_rank"].get<double>() + ds["qk_rope_head_dim"].get<double>();
    CHECK(model("deepseek-v3", "kv_kib_per_token") == Approx(ds["num_hidden_layers"].get<double>() * latent * 2 / 1024));
    CHECK(model("deepseek-v3", "kv_kib_per_token") <
          ds["num_hidden_layers"].get<double>() * 2 * ds["num_key_value_heads"].get<double>() * 128 * 2 / 1024 / 10);
}

TEST_CASE("Mixtral-8x7B's active parameters: two experts of eight", "[catalog]") {
    const double total = model("mixtral-8x7b", "params_b"), active = model("mixtral-8x7b", "active_params_b");
    // Active is what one token reads: one row of the embedding table. Mistral's 12.9B counts the whole table.
    const double table_b = (model("mixtral-8x7b", "vocab") - 1) * model("mixtral-8x7b", "hidden") / 1e9;
    CHECK(active + table_b == Approx(model("mixtral-8x7b", "active_params_b_reported")).epsilon(0.01));
    CHECK(active < total / 3);
}

TEST_CASE("bound is never above a real measurement", "[catalog][profiles]") {
    const auto rows = measurements::read(ROOFLINE_MEASUREMENTS);
    REQUIRE(rows.size() > 10);
    for (const auto& r : rows) {
        double bound = NAN;
        INFO(r["id"]);
        if (r["metric"] == "step_ms")
            REQUIRE(roofline_step_ms(r["model"].c_str(), r["gpu"].c_str(), r.number("batch"), r.number("ctx_mean"),
                                     r["weight_dtype"].c_str(), r["kv_dtype"].c_str(), r.number("tp"), "bound",
                                     &bound) == ROOFLINE_OK);
        else
            REQUIRE(roofline_ttft_ms(r["model"].c_str(), r["gpu"].c_str(), r.number("prompt_tokens"), r.number("batch"),
                                     r["weight_dtype"].c_str(), r.number("tp"), "bound", &bound) == ROOFLINE_OK);
        CHECK(bound <= r.number("value"));
    }
}

TEST_CASE("the committed measurements are the shared reference's", "[profiles]") {
    const std::string shared = slurp(ROOFLINE_SHARED_MEASUREMENTS);
    if (shared.empty()) {
        WARN("no shared measurements; the committed copy stands alone");
        return;
    }
    CHECK(slurp(ROOFLINE_MEASUREMENTS) == shared);
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
    const double at_w = op(breakdown("gemma-2-9b", "h100-sxm", 1, w), "attention").bytes;
    const double at_4w = op(breakdown("gemma-2-9b", "h100-sxm", 1, 4 * w), "attention").bytes;
    CHECK(at_4w / at_w == Approx((4.0 * 21 + 21) / (21 + 21)).epsilon(0.01));  // 21 global, 21 sliding layers
    double v;
    CHECK(roofline_step_ms("llama-3-8b", "h100-sxm", 1, 0, "bf16", "", 3, "bound", &v) == ROOFLINE_ERROR_ARGUMENT);
    CHECK(std::string(roofline_errarg()) == "tp");
}

std::vector<Row> ttft_breakdown(const char* m, const char* g, double tokens, double batch, const char* w, double tp,
                                const char* profile) {
    roofline_array* a = nullptr;
    INFO(m << " on " << g << ": " << roofline_errmsg());
    REQUIRE(roofline_ttft_breakdown(m, g, tokens, batch, w, tp, profile, &a) == ROOFLINE_OK);
    return rows_of(a);
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
    CHECK(n == std::floor((0.9 * 80e9 - weights) / kv_seq));
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

TEST_CASE("a Hugging Face config.json, imported, works wherever a catalog id does", "[import]") {
    std::string config;
    const json models = catalog("models.json");
    for (const json& m : models["models"])
        if (m["id"] == "mistral-7b") config = m["config"].dump();
    REQUIRE(roofline_model_import_hf_config("My-Mistral", config.c_str()) == ROOFLINE_OK);
    CHECK(step("my-mistral", "l40s", 8, 1000) == step("mistral-7b", "l40s", 8, 1000));
    CHECK(roofline_model_import_hf_config("broken", "{\"hidden_size\": 4096") == ROOFLINE_ERROR_ARGUMENT);
    CHECK(std::string(roofline_errarg()) == "config_json");
    CHECK(roofline_model_import_hf_config("partial", "{\"hidden_size\": 4096}") == ROOFLINE_ERROR_ARGUMENT);
    CHECK(std::string(roofline_errmsg()).find("num_hidden_layers") != std::string::npos);
    CHECK(roofline_model_import_hf_config(nullptr, "{}") == ROOFLINE_ERROR_NULL);
    size_t added = 0;
    const std::string extra = R"({"gpus": [{"id": "my-gpu", "tflops": {"bf16": 100}, "hbm_tbs": 0.5, "hbm_gb": 24}]})";
    REQUIRE(roofline_catalog_add_json(extra.c_str(), &added) == ROOFLINE_OK);
    CHECK(added == 1);
    CHECK(gpu("MY-GPU", "bf16_tflops") == 100);
    CHECK(step("mistral-7b", "my-gpu", 1, 0) > step("mistral-7b", "l40s", 1, 0));
}
