// The catalogs: the library's numbers are the sourced files' numbers, the architectures add up to the published
// parameter counts, and the bound is never above a measurement. Through the C ABI, as every host computes. (The
// operator model is test_operators.cpp's, a config.json imported through the C ABI test_hf_config.cpp's.)
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

#include "support/c_api_reads.hpp"

using json = nlohmann::json;

namespace {

using c_api_reads::gpu;
using c_api_reads::model;
using c_api_reads::step;

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

json catalog(const char* file) { return json::parse(slurp(std::string(ROOFLINE_CATALOG_DIR) + "/" + file)); }

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
        // The memory the serving model takes mem_util of: the driver's total where recorded (with its source, and
        // no less than 0.95 of the datasheet's: a reported figure is never a typo for another GPU's), else hbm_gb.
        if (g.contains("memory_reported_gb")) {
            CHECK(gpu(id, "memory_gb") == Approx(g["memory_reported_gb"].get<double>()).epsilon(1e-12));
            CHECK(g["memory_reported_gb"].get<double>() >= 0.95 * g["hbm_gb"].get<double>());
            CHECK(g["memory_reported_gb"].get<double>() <= 1.1 * g["hbm_gb"].get<double>());
            REQUIRE(g["sources"].contains("memory_reported"));
            CHECK(g["sources"]["memory_reported"].get<std::string>().find("http") != std::string::npos);
        } else {
            CHECK(gpu(id, "memory_gb") == Approx(g["hbm_gb"].get<double>()).epsilon(1e-12));
        }
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
        // Never a serverless price beside on-demand ones (since 0.14): one kind of offer, named.
        CHECK(source.find("Serverless") == std::string::npos);
        if (g["usd_per_gpu_hour"].is_null()) {
            double v;
            CHECK(roofline_gpu(id.c_str(), "usd_per_gpu_hour", &v) == ROOFLINE_ERROR_NO_SOLUTION);  // never a made-up 0
            CHECK(source.rfind("none: ", 0) == 0);  // says why
        } else {
            // The kind of offer, where its source says (absent: it does not).
            if (g.contains("price_offer")) CHECK((g["price_offer"] == "server" || g["price_offer"] == "gpu"));
            ++priced;
            CHECK(g["usd_per_gpu_hour"].get<double>() > 0);
            CHECK(gpu(id, "usd_per_gpu_hour") == g["usd_per_gpu_hour"].get<double>());
            CHECK(source.find("http") != std::string::npos);
        }
    }
    // Since 0.12 (issue #32) every GPU had an example price; since 0.14 MI350X's was a reserved one and moved there.
    CHECK(priced == gpus["gpus"].size() - 1);
}

TEST_CASE("reserved and purchase prices: each with its source and date, reserved with its term", "[catalog]") {
    const json gpus = catalog("gpus.json");
    const std::regex date(R"(20[0-9]{2}-[01][0-9]-[0-3][0-9])");
    std::size_t reserved = 0, owned = 0;
    for (const json& g : gpus["gpus"]) {
        const std::string id = g["id"];
        INFO(id);
        if (g.contains("usd_per_gpu_hour_reserved")) {
            ++reserved;
            const std::string source = g["sources"]["price_reserved"];
            CHECK(std::regex_search(source, date));
            CHECK(source.find("http") != std::string::npos);
            CHECK(gpu(id, "usd_per_gpu_hour_reserved") == g["usd_per_gpu_hour_reserved"].get<double>());
            CHECK(gpu(id, "reserved_years") >= 1);
            CHECK(gpu(id, "reserved_years") <= 3);
            // A commitment costs less than the same GPU on demand.
            if (!g["usd_per_gpu_hour"].is_null()) CHECK(gpu(id, "usd_per_gpu_hour_reserved") < gpu(id, "usd_per_gpu_hour"));
        }
        if (g.contains("usd_per_server")) {
            ++owned;
            const std::string source = g["sources"]["purchase"];
            CHECK(std::regex_search(source, date));
            CHECK(source.find("http") != std::string::npos);
            CHECK(gpu(id, "usd_per_server") == g["usd_per_server"].get<double>());
        }
    }
    CHECK(reserved >= 2);
    CHECK(owned >= 3);
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
        {"scaleup_gpus", "scaleup_gpus"}, {"scaleout_tbs", "scaleout_tbs"}, {"power_w", "power_w"},
        {"host_link_tbs", "host_link_tbs"}};
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
        for (const char* source : {"scaleup", "scaleout", "power", "host_link"}) {
            REQUIRE(g["sources"].contains(source));
            CHECK_FALSE(g["sources"][source].get<std::string>().empty());
        }
        if (!g["power_w"].is_null()) CHECK(g["sources"]["power"].get<std::string>().find("http") != std::string::npos);
        // The host link: PCIe Gen4/5/6 x16 or a share of NVLink-C2C, each with its source (DGX Spark: none apart).
        if (!g["host_link_tbs"].is_null()) {
            CHECK(g["sources"]["host_link"].get<std::string>().find("http") != std::string::npos);
            const double link = gpu(id, "host_link_tbs");
            CHECK((link == 0.032 || link == 0.064 || link == 0.128 || link == 0.225));
        }
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
    CHECK(gpu("old-style-gpu", "memory_gb") == 48);    // no reported total: the datasheet's
    for (const char* field : {"fp4_tflops", "scaleout_tbs", "power_w"}) {
        INFO(field);
        CHECK(std::isnan(gpu_or_nan("old-style-gpu", field)));  // not given: no answer
    }
    CHECK(step("llama-3-8b", "old-style-gpu", 1, 0, "nvfp4") > 0);  // FP4 weights dequantize: no FP4 peak
    const std::pair<const char*, const char*> bad[] = {
        {R"("scaleup_gpus": 0)", "scaleup_gpus"}, {R"("scaleup_gpus": 2.5)", "scaleup_gpus"},
        {R"("scaleup_gpus": "72")", "scaleup_gpus"}, {R"("scaleout_tbs": -0.1)", "scaleout_tbs"},
        {R"("power_w": -700)", "power_w"}, {R"("tflops": {"bf16": 1, "fp4": -1})", "fp4"},
        {R"("fp4_formats": ["int4"])", "fp4_formats"}, {R"("fp4_formats": "mxfp4")", "fp4_formats"},
        {R"("memory_reported_gb": -1)", "memory_reported_gb"}, {R"("memory_reported_gb": "85")", "memory_reported_gb"}};
    for (const auto& [field, name] : bad) {
        INFO(field);
        const std::string text = std::string(R"({"gpus": [{"id": "bad-gpu", "tflops": {"bf16": 1}, "hbm_tbs": 1, "hbm_gb": 1, )") +
                                 field + "}]}";
        CHECK(roofline_catalog_add_json(text.c_str(), &added) == ROOFLINE_ERROR_ARGUMENT);
        CHECK(std::string(roofline_errarg()) == "catalog_json");
        CHECK(std::string(roofline_errmsg()).find(name) != std::string::npos);
    }
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

TEST_CASE("every GPU says where it is sold to run: GeForce cards consumer, by their license, each with its source",
          "[catalog]") {
    const json gpus = catalog("gpus.json");
    int consumer = 0;
    for (const json& g : gpus.at("gpus")) {
        const std::string id = g.at("id"), name = g.at("name"), segment = g.value("segment", "datacenter");
        INFO(id);
        CHECK((segment == "datacenter" || segment == "workstation" || segment == "consumer"));
        CHECK((name.find("GeForce") != std::string::npos) == (segment == "consumer"));
        consumer += segment == "consumer";
        if (segment != "datacenter") {
            REQUIRE(g.at("sources").contains("segment"));
            CHECK(g["sources"]["segment"].get<std::string>().find("http") != std::string::npos);
        }
    }
    CHECK(consumer == 4);
    // A catalog of one's own: a segment that is none of the three is refused, naming the field.
    size_t added = 0;
    const char* bad = R"({"gpus": [{"id": "lab-card", "name": "x", "tflops": {"bf16": 100}, "hbm_tbs": 1, "hbm_gb": 24,
                         "segment": "gaming"}]})";
    CHECK(roofline_catalog_add_json(bad, &added) == ROOFLINE_ERROR_ARGUMENT);
    CHECK(std::string(roofline_errmsg()).find("'segment'") != std::string::npos);
}

TEST_CASE("every published checkpoint has a Hugging Face id, formats and a source, and computes as its formats",
          "[catalog][checkpoints]") {
    const json models = catalog("models.json");
    std::size_t listed = 0;
    for (const json& m : models.at("models")) {
        if (!m.contains("checkpoints")) continue;
        const std::string id = m["id"];
        for (const json& c : m["checkpoints"]) {
            ++listed;
            const std::string name = c.at("id");
            INFO(id << ": " << name);
            // An owner/name id, not the model's own, and a source that is a page with what was seen there.
            CHECK(std::regex_match(name, std::regex("[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")));
            CHECK(name != m.value("hf_repo", ""));
            const std::string source = c.at("source");
            CHECK(source.find("https://") != std::string::npos);
            CHECK(source.find(name.substr(name.find('/') + 1)) != std::string::npos);
            // The id as weight_dtype computes each module in its format: the same step as one format where the
            // checkpoint is one format throughout but its 16-bit embedding (Llama: the lm_head read at bf16 costs
            // more), and never the 16-bit step.
            const std::string linear = c.at("linear"), experts = c.at("experts");
            const double as_id = step(id.c_str(), "b200", 16, 4096, name.c_str(), "", 8);
            const double bf16 = step(id.c_str(), "b200", 16, 4096, "bf16", "", 8);
            REQUIRE(std::isfinite(as_id));
            CHECK(as_id < bf16);
            if (linear == experts) {
                const double uniform = step(id.c_str(), "b200", 16, 4096, linear.c_str(), "", 8);
                CHECK(as_id >= uniform);
                CHECK(as_id < 1.1 * uniform);
            }
        }
    }
    CHECK(listed >= 15);
}
