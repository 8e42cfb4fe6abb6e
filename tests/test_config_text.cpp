// A model argument that holds the text of a Hugging Face config.json (#17): the same numbers as the same
// config imported under an id, the importer's errors under the argument's name, one cached entry per text,
// at most kCapacity of them (src/config_text.hpp).
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "config_text.hpp"
#include "roofline/catalog.hpp"
#include "roofline/error.hpp"
#include "roofline/formulas.hpp"

using namespace roofline;
using Catch::Matchers::Contains;

namespace {

Arg text(const std::string& s) { return {s}; }
Arg num(double v) { return {v}; }

double number(const char* formula, std::vector<Arg> args) { return std::get<double>(call(formula, args).value); }
std::string config_of(const std::string& model) {
    const std::vector<Arg> args{text(model)};
    return std::get<std::string>(call("ROOFLINE_MODEL_CONFIG", args).value);
}

Error error_of(const char* formula, std::vector<Arg> args) {
    try {
        call(formula, args);
    } catch (const Error& e) {
        return e;
    }
    FAIL("no error");
    throw;
}

/// A Llama-like config with `layers` layers (Qwen3-8B's shape otherwise).
std::string config(int layers, const char* extra = "") {
    return "{\"model_type\": \"llama\", \"hidden_size\": 4096, \"num_hidden_layers\": " + std::to_string(layers) +
           ", \"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"intermediate_size\": 14336, "
           "\"vocab_size\": 128256" + extra + "}";
}

}  // namespace

TEST_CASE("a config text gives the numbers of the same config imported under an id") {
    const std::string cfg = config(32);
    add_model_from_hf_config("config-text-test", cfg);
    for (const char* formula : {"ROOFLINE_STEP_MS", "ROOFLINE_STEP_TOKS"}) {
        const double by_id = number(formula, {text("config-text-test"), text("h100-sxm"), num(8), num(1024)});
        CHECK(number(formula, {text(cfg), text("h100-sxm"), num(8), num(1024)}) == by_id);
        CHECK(number(formula, {text("  \n\t" + cfg), text("h100-sxm"), num(8), num(1024)}) == by_id);  // leading space
    }
    CHECK(number("ROOFLINE_TTFT_MS", {text(cfg), text("h100-sxm"), num(2048)}) ==
          number("ROOFLINE_TTFT_MS", {text("config-text-test"), text("h100-sxm"), num(2048)}));
    CHECK(number("ROOFLINE_FIT_BATCH", {text(cfg), text("h100-sxm"), num(4096)}) ==
          number("ROOFLINE_FIT_BATCH", {text("config-text-test"), text("h100-sxm"), num(4096)}));
    CHECK(number("ROOFLINE_CACHE_GB", {text(cfg), num(8), num(4096)}) ==
          number("ROOFLINE_CACHE_GB", {text("config-text-test"), num(8), num(4096)}));
    CHECK(number("ROOFLINE_MODEL", {text(cfg), text("layers")}) == 32);
    CHECK(number("ROOFLINE_E2E_MS", {text(cfg), text("h100-sxm"), num(1000), num(200), num(8)}) ==
          number("ROOFLINE_E2E_MS", {text("config-text-test"), text("h100-sxm"), num(1000), num(200), num(8)}));
    // ROOFLINE_SPEC_STEP_MS: both the target and the draft model.
    const std::string draft = config(4);
    add_model_from_hf_config("config-text-draft", draft);
    CHECK(number("ROOFLINE_SPEC_STEP_MS", {text(cfg), text(draft), text("h100-sxm"), num(8), num(1024), num(4),
                                           num(0.7)}) ==
          number("ROOFLINE_SPEC_STEP_MS", {text("config-text-test"), text("config-text-draft"), text("h100-sxm"),
                                           num(8), num(1024), num(4), num(0.7)}));
}

TEST_CASE("a config text typed into a cell: AutoCorrect's typographic quotes and no-break spaces read as ASCII") {
    // Calc's AutoCorrect turns each '"' typed into a cell into an opening or a closing quote (“ ”, „ “ in German),
    // and French typing puts a no-break space before ':'.
    const std::string cfg = config(30);
    std::string curly, german;
    bool open = true;
    for (char c : cfg) {
        if (c == '"') {
            curly += open ? "\u201c" : "\u201d";
            german += open ? "\u201e" : "\u201c";
            open = !open;
        } else if (c == ':') {
            curly += "\u00a0:";
            german += ':';
        } else {
            curly += c;
            german += c;
        }
    }
    REQUIRE(curly.find('"') == std::string::npos);
    const double ascii = number("ROOFLINE_STEP_MS", {text(cfg), text("h100-sxm"), num(8), num(1024)});
    CHECK(number("ROOFLINE_STEP_MS", {text(curly), text("h100-sxm"), num(8), num(1024)}) == ascii);
    CHECK(number("ROOFLINE_STEP_MS", {text(german), text("h100-sxm"), num(8), num(1024)}) == ascii);
    CHECK(number("ROOFLINE_MODEL", {text(curly), text("layers")}) == 30);
    // A text that reads as it is keeps its typographic quotes (here inside a string).
    const std::string named = config(30, ", \"name_or_path\": \"the \u201cbig\u201d one\"");
    CHECK(number("ROOFLINE_MODEL", {text(named), text("layers")}) == 30);
    // Still not JSON with ASCII quotes: the importer's error on that text, under the argument's name.
    const Error e = error_of("ROOFLINE_MODEL", {text("{\u201cmodel_type\u201d: \u201cllama\u201d,"), text("layers")});
    CHECK(e.argument() == "model");
    CHECK_THAT(e.reason(), Contains("JSON"));
}

TEST_CASE("a config text's model has a stable id of its hash") {
    const std::string cfg = config(32);
    const auto m = config_text::model(cfg, "model");
    CHECK(m->id == config_text::id_of(cfg));
    CHECK(m->id.rfind("config:", 0) == 0);
    CHECK(m->id.size() == 7 + 8);
    CHECK(config_text::hash("") == 14695981039346656037ull);  // FNV-1a's offset basis
    CHECK(config_text::id_of(config(33)) != m->id);
}

TEST_CASE("is_config: a text whose first non-space character is '{'") {
    CHECK(config_text::is_config("{}"));
    CHECK(config_text::is_config(" \r\n\t{"));
    CHECK_FALSE(config_text::is_config(""));
    CHECK_FALSE(config_text::is_config("   "));
    CHECK_FALSE(config_text::is_config("llama-3-8b"));
    CHECK_FALSE(config_text::is_config("x{"));
    CHECK_FALSE(config_text::is_config("[{}]"));
}

TEST_CASE("a bad config text is the importer's error under the argument's name") {
    Error e = error_of("ROOFLINE_STEP_MS", {text("{\"model_type\": \"llama\", \"num_hidden_layers\": 32}"),
                                            text("h100-sxm"), num(8), num(1024)});
    CHECK(e.status() == Status::invalid_argument);
    CHECK(e.where() == "ROOFLINE_STEP_MS");
    CHECK(e.argument() == "model");
    CHECK_THAT(e.what(), Contains("argument 'model'") && Contains("config.json has no 'hidden_size'"));

    e = error_of("ROOFLINE_STEP_MS", {text("{not json"), text("h100-sxm"), num(8), num(1024)});
    CHECK(e.argument() == "model");
    CHECK_THAT(e.what(), Contains("not valid JSON"));

    e = error_of("ROOFLINE_SPEC_STEP_MS", {text("llama-3.1-70b"), text("{\"model_type\": \"llama\"}"),
                                           text("h100-sxm"), num(8), num(1024), num(4), num(0.7)});
    CHECK(e.argument() == "draft_model");
    CHECK(e.where() == "ROOFLINE_SPEC_STEP_MS");
    CHECK_THAT(e.what(), Contains("config.json has no"));

    // Too long: refused before it is read.
    std::string huge = config(32);
    huge.insert(1, std::string(config_text::kMaxBytes, ' '));
    e = error_of("ROOFLINE_CACHE_GB", {text(huge), num(8), num(4096)});
    CHECK(e.argument() == "model");
    CHECK_THAT(e.what(), Contains("at most 1048576 bytes"));

    // An id is never read as JSON, a config text never looked up as an id.
    e = error_of("ROOFLINE_STEP_MS", {text("llama-3-8b-not-there"), text("h100-sxm"), num(8), num(1024)});
    CHECK(e.status() == Status::unknown_id);
    add_model_from_hf_config("{looks-like-json", config(32));
    e = error_of("ROOFLINE_STEP_MS", {text("{looks-like-json"), text("h100-sxm"), num(8), num(1024)});
    CHECK(e.status() == Status::invalid_argument);
    CHECK_THAT(e.what(), Contains("not valid JSON"));
}

TEST_CASE("the cache: one entry per text, the least recently used dropped after kCapacity") {
    config_text::clear();
    const std::string cfg = config(32);
    const auto a = config_text::model(cfg, "model");
    const auto b = config_text::model(std::string(cfg), "model");  // an equal text elsewhere in memory
    CHECK(a.get() == b.get());
    CHECK(config_text::cached() == 1);
    // A refused text is not kept.
    CHECK_THROWS_AS(config_text::model("{\"model_type\": \"llama\"}", "model"), Error);
    CHECK(config_text::cached() == 1);
    // kCapacity other texts, `cfg` used again half way: it stays, the oldest of the others goes.
    for (std::size_t i = 0; i < config_text::kCapacity; ++i) {
        config_text::model(config(1 + static_cast<int>(i)), "model");
        if (i == config_text::kCapacity / 2) CHECK(config_text::model(cfg, "model").get() == a.get());
    }
    CHECK(config_text::cached() == config_text::kCapacity);
    CHECK(config_text::model(cfg, "model").get() == a.get());
    CHECK(config_text::model(config(1), "model")->layers == 1);  // read again: it was dropped
    CHECK(config_text::cached() == config_text::kCapacity);
    // An entry dropped from the cache stays valid while held.
    config_text::clear();
    CHECK(a->layers == 32);
}

TEST_CASE("8 threads with different config texts agree with one") {
    constexpr int kTexts = 100;  // more than the cache holds: entries are dropped while others read
    std::vector<double> want(kTexts);
    for (int i = 0; i < kTexts; ++i)
        want[i] = number("ROOFLINE_STEP_MS", {text(config(1 + i)), text("h100-sxm"), num(8), num(1024)});
    std::vector<int> mismatches(8, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([&, t] {
            for (int round = 0; round < 5; ++round)
                for (int i = 0; i < kTexts; ++i) {
                    const int k = (i * 7 + t * 13) % kTexts;
                    if (number("ROOFLINE_STEP_MS", {text(config(1 + k)), text("h100-sxm"), num(8), num(1024)}) !=
                        want[k])
                        ++mismatches[t];
                }
        });
    for (auto& th : threads) th.join();
    for (int t = 0; t < 8; ++t) CHECK(mismatches[t] == 0);
}

TEST_CASE("ROOFLINE_MODEL_CONFIG: every catalog model's config text computes as the model itself") {
    for (const std::string& id : model_ids()) {
        if (config_text::is_config(id)) continue;  // an id another test added to show that it is never read as JSON
        INFO(id);
        const std::string cfg = config_of(id);
        REQUIRE(config_text::is_config(cfg));
        CHECK(cfg.find('\n') == std::string::npos);  // compact: one line, for a cell
        // Every number of the catalog, and a decode step in the checkpoint's own formats and in bf16.
        for (const std::string& field : model_field_names()) {
            if (field == "params_b_reported" || field == "active_params_b_reported") continue;  // not in a config
            INFO(field);
            CHECK(number("ROOFLINE_MODEL", {text(cfg), text(field)}) == number("ROOFLINE_MODEL", {text(id), text(field)}));
        }
        for (const char* weights : {"native", "bf16"}) {
            INFO(weights);
            const std::vector<Arg> tail{num(16), num(2048), text(weights), text(""), num(1)};
            std::vector<Arg> by_id{text(id), text("b200")}, by_text{text(cfg), text("b200")};
            by_id.insert(by_id.end(), tail.begin(), tail.end());
            by_text.insert(by_text.end(), tail.begin(), tail.end());
            CHECK(number("ROOFLINE_STEP_MS", by_text) == number("ROOFLINE_STEP_MS", by_id));
        }
        // The text of a config text is itself.
        CHECK(config_of(cfg) == cfg);
    }
    // A checkpoint whose formats come from its hf_quant_config.json keeps them (NVFP4 experts).
    const std::string nvfp4 = config_of("deepseek-v3.1-nvfp4");
    CHECK_THAT(nvfp4, Contains("\"quant_method\":\"modelopt\"") && Contains("\"quant_algo\":\"NVFP4\""));
    // An imported model: the text it was imported from, as compact JSON.
    add_model_from_hf_config("config-text-export", config(12));
    const std::string exported = config_of("config-text-export");
    CHECK(number("ROOFLINE_MODEL", {text(exported), text("layers")}) == 12);
    CHECK(number("ROOFLINE_STEP_MS", {text(exported), text("h100-sxm"), num(8), num(1024)}) ==
          number("ROOFLINE_STEP_MS", {text("config-text-export"), text("h100-sxm"), num(8), num(1024)}));
    // An unknown id: the argument named, the catalog's suggestion.
    const Error e = error_of("ROOFLINE_MODEL_CONFIG", {text("llama3-8b")});
    CHECK(e.status() == Status::unknown_id);
    CHECK(e.argument() == "model");
}
