// The importer of Hugging Face config.json files: one small reader per model_type family over shared
// field-name tables (docs/formulas.md, "Models from config.json"). A config that uses a feature no reader
// understands is refused with the field's name, never read as something else. Here: the generic reader, the
// building blocks every family shares (hf_reader.hpp), the plain transformer, quantization and the table of
// families; the families read apart are in hf_families.cpp.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ascii.hpp"
#include "hf_reader.hpp"
#include "roofline/catalog.hpp"
#include "roofline/error.hpp"

namespace roofline {

namespace hf {

// ---- Layers --------------------------------------------------------------------------------------------

/// The number of layers, bounded before anything loops over them.
double layer_count(const Reader& r, std::initializer_list<const char*> keys) {
    const double n = r.required(keys);
    if (n > 100000 || n != std::floor(n))
        r.fail(fmt::format("config.json field '{}' must be a whole number of at most 100000", *keys.begin()));
    return n;
}

/// A period over the layers (moe_layer_freq, full_attention_interval, ...): a whole number from 1 to the layers.
double period(const Reader& r, const char* key, double fallback, double layers) {
    const double v = r.number_or(key, fallback);
    if (!(v >= 1) || v != std::floor(v) || v > std::max(layers, 1.0))
        r.fail(fmt::format("config.json field '{}' must be a whole number from 1 to num_hidden_layers", key));
    return v;
}


/// Appends a layer to the runs, joining it to the last run when it is of the same kind.
void push_layer(std::vector<LayerRun>& runs, const LayerRun& layer) {
    if (!runs.empty()) {
        const LayerRun& last = runs.back();
        if (last.attention == layer.attention && last.window == layer.window && last.mlp == layer.mlp &&
            last.ratio == layer.ratio && last.topk == layer.topk) {
            runs.back().count += 1;
            return;
        }
    }
    runs.push_back({1, layer.attention, layer.window, layer.mlp, layer.ratio, layer.topk});
}

MoePlacement moe_placement(Reader& r) {
    MoePlacement p;
    p.first_dense = r.number_or("first_k_dense_replace", 0);
    r.use("moe_layer_freq");
    r.use("decoder_sparse_step");
    r.use("mlp_only_layers");
    const double layers = r.number_or("num_hidden_layers", 1);
    p.freq = period(r, "moe_layer_freq", 1, layers);
    p.step = period(r, "decoder_sparse_step", 1, layers);
    for (const json& v : r.list("mlp_only_layers")) {
        if (!v.is_number_integer()) r.fail("config.json field 'mlp_only_layers' must list layer numbers");
        p.dense_layers.insert(v.get<int>());
    }
    return p;
}

/// layer_types: "full_attention", "sliding_attention", "linear_attention" per layer.
Attention attention_of_type(const Reader& r, const json& t) {
    if (!t.is_string()) r.fail("config.json field 'layer_types' must list texts");
    const std::string s = t.get<std::string>();
    if (s == "full_attention" || s == "attention") return Attention::full;
    if (s == "sliding_attention") return Attention::sliding;
    if (s == "linear_attention") return Attention::state;
    r.unsupported("layer_types", fmt::format("the layer type '{}'", s));
}

/// layer_types, read (Reader::use) and of num_hidden_layers entries; empty when absent.
const json& layer_types(Reader& r, double layers) {
    r.use("layer_types");
    const json& types = r.list("layer_types");
    if (!types.empty() && types.size() != static_cast<std::size_t>(layers))
        r.fail("config.json field 'layer_types' must have num_hidden_layers entries");
    return types;
}

// ---- What every family reads --------------------------------------------------------------------------------

void read_common(Reader& r, ModelSpec& m, double default_vocab) {
    m.hidden = r.required({"hidden_size"});
    m.layers = layer_count(r, {"num_hidden_layers"});
    m.heads = r.required({"num_attention_heads"});
    m.kv_heads = r.number_or("num_key_value_heads", m.heads);
    m.head_dim = r.number_or("head_dim", r.number_or("attention_head_dim", 0));
    m.vocab = r.has("vocab_size") || !(default_vocab > 0) ? r.required({"vocab_size"}) : default_vocab;
    const std::string& type = r.type();
    m.tied_embeddings = r.flag("tie_word_embeddings",
                               type == "gemma2" || type == "gemma" || type == "gemma3" || type == "gemma3_text");
    if (auto layers = r.first_of(kMtpLayers)) m.mtp_layers = *layers;
}

void read_moe(Reader& r, ModelSpec& m, double default_expert_ffn) {
    m.experts = r.first_of(kExpertCount).value_or(0);
    if (m.experts <= 0) return;
    const auto k = r.first_of(kExpertsPerToken);
    if (!k || !(*k > 0)) r.fail("config.json has no 'num_experts_per_tok'");
    m.experts_per_token = *k;
    m.shared_experts = r.first_of(kSharedExperts).value_or(0);
    m.expert_ffn = r.number_or("moe_intermediate_size", default_expert_ffn);
    m.shared_expert_ffn = r.first_of(kSharedExpertFfn).value_or(0);
    if (m.shared_expert_ffn > 0 && m.shared_experts == 0) m.shared_experts = 1;  // Qwen2/3-MoE's one shared expert
    m.first_dense_layers = r.number_or("first_k_dense_replace", 0);
}

void read_mla(Reader& r, ModelSpec& m) {
    m.kv_lora_rank = r.number_or("kv_lora_rank", 0);
    if (m.kv_lora_rank <= 0) return;
    m.q_lora_rank = r.number_or("q_lora_rank", 0);
    m.qk_nope_head_dim = r.required({"qk_nope_head_dim"});
    m.qk_rope_head_dim = r.required({"qk_rope_head_dim"});
    m.v_head_dim = r.required({"v_head_dim"});
}

// ---- The plain transformer ---------------------------------------------------------------------------------

/// Llama, Mistral, Mixtral, Qwen2/3 (dense and MoE), Gemma 1/2, DeepSeek-V3/R1, Kimi-K2, GLM-4.5/4.6,
/// MiniMax-M2 and their relatives: one layer kind, MoE placed by the MoE fields, sliding windows as
/// Mistral, Qwen2 and Gemma 2 set them.
void read_transformer(Reader& r, ModelSpec& m) {
    read_common(r, m);
    m.ffn = r.required({"intermediate_size"});
    read_moe(r, m, m.ffn);
    read_mla(r, m);
    const MoePlacement moe = moe_placement(r);
    // Sliding windows: Gemma 2 on every other layer, Mistral on all, Qwen2/3 only when enabled (and then
    // from max_window_layers on).
    r.use("sliding_window");
    const double window = r.number_or("sliding_window", 0);
    const bool enabled = r.flag("use_sliding_window", true);
    const std::string& type = r.type();
    const bool sliding = window > 0 && enabled && type != "mixtral" && type != "qwen3_moe";
    const double from = type.rfind("qwen", 0) == 0 ? r.number_or("max_window_layers", 0) : 0;
    // Newer transformers write layer_types into these configs too: where present, it says which layers slide.
    r.use("layer_types");
    const json& types = layer_types(r, m.layers);
    m.runs = layers_of(m.layers, [&](int i) {
        Attention a = Attention::full;
        if (!types.empty()) {
            a = attention_of_type(r, types[i]);
            if (a == Attention::state) r.unsupported("layer_types", "linear attention in this family");
            if (a == Attention::sliding && !(window > 0)) r.fail("config.json has no 'sliding_window'");
        } else if (sliding && (type == "gemma2" ? i % 2 == 0 : i >= from)) {
            a = Attention::sliding;
        }
        return LayerRun{1, a, a == Attention::sliding ? window : 0, m.moe() ? moe.of(i) : Mlp::dense};
    });
}

}  // namespace hf

namespace {

using namespace hf;

// ---- Quantization ----------------------------------------------------------------------------------------

/// Whether a list of module patterns (modules_to_not_convert, ignore, exclude_modules) names these modules.
bool names_module(const json& patterns, std::initializer_list<const char*> parts) {
    if (!patterns.is_array()) return false;
    for (const json& p : patterns) {
        if (!p.is_string()) continue;
        const std::string s = p.get<std::string>();
        for (const char* part : parts)
            if (s.find(part) != std::string::npos) return true;
    }
    return false;
}

/// The checkpoint's formats, from config.json's quantization_config or hf_quant_config.json's quantization.
void read_quantization(Reader& r, ModelSpec& m, const json* quant_file) {
    DType w = DType::bf16;
    json excluded = json::array();
    const char* where = "quantization_config";
    std::string method;
    const json* q = nullptr;
    if (quant_file) {
        if (!quant_file->contains("quantization") || !(*quant_file)["quantization"].is_object())
            r.fail("hf_quant_config.json has no 'quantization' object");
        q = &(*quant_file)["quantization"];
        where = "hf_quant_config.json quantization";
        method = "modelopt";
    } else if (r.whole().contains("quantization_config") && r.whole()["quantization_config"].is_object()) {
        q = &r.whole()["quantization_config"];
        method = q->value("quant_method", std::string());
    } else if (r.j().contains("quantization_config") && r.j()["quantization_config"].is_object()) {
        q = &r.j()["quantization_config"];  // inside text_config (Kimi-K3)
        method = q->value("quant_method", std::string());
    } else {
        return;
    }
    auto field = [&](const char* k) { return fmt::format("{}.{}", where, k); };
    if (method == "fp8") {
        w = DType::fp8;
        if (q->contains("weight_block_size")) {
            const json& b = (*q)["weight_block_size"];
            if (b != json::array({128, 128}))
                r.fail(fmt::format("config.json field '{}' must be [128, 128] (the block that fp8_block counts)",
                                   field("weight_block_size")));
            w = DType::fp8_block;
        }
        excluded = q->value("modules_to_not_convert", json::array());
    } else if (method == "mxfp4") {
        w = DType::mxfp4;
        excluded = q->value("modules_to_not_convert", json::array());
    } else if (method == "modelopt") {
        const std::string algo = q->value("quant_algo", std::string());
        if (algo == "NVFP4") {
            w = DType::nvfp4;
            if (q->contains("group_size") && (*q)["group_size"] != 16)
                r.fail(fmt::format("config.json field '{}' must be 16 for NVFP4", field("group_size")));
        } else if (algo == "FP8") {
            w = DType::fp8;
        } else {
            r.unsupported(field("quant_algo").c_str(), fmt::format("the algorithm '{}'", algo));
        }
        excluded = q->value("exclude_modules", q->value("ignore", json::array()));
    } else if (method == "compressed-tensors") {
        const std::string format = q->value("format", std::string());
        if (format == "nvfp4-pack-quantized") w = DType::nvfp4;
        else if (format == "float-quantized") w = DType::fp8;
        else if (format == "mxfp4-pack-quantized") w = DType::mxfp4;
        else r.unsupported(field("format").c_str(), fmt::format("the format '{}'", format));
        excluded = q->value("ignore", json::array());
    } else if (method == "awq" || method == "gptq") {
        const double bits = q->value("bits", q->value("w_bit", 0.0));
        if (bits == 4) w = DType::int4;
        else if (bits == 8) w = DType::int8;
        else r.unsupported(field("bits").c_str(), fmt::format("{} bits", bits));
    } else {
        r.unsupported(field("quant_method").c_str(), fmt::format("the method '{}'", method));
    }
    m.native_experts = w;
    // Attention left out ("self_attn") keeps the linear layers in 16 bits; the embedding and lm_head stay
    // in 16 bits unless a checkpoint quantizes them (none read here does).
    m.native_linear = names_module(excluded, {"self_attn", "attn"}) ? DType::bf16 : w;
    m.native_embedding = DType::bf16;
}

// ---- The families ------------------------------------------------------------------------------------------

using FamilyReader = void (*)(Reader&, ModelSpec&);
struct Family {
    std::string_view model_type;
    FamilyReader read;
};
/// The families read apart from the plain transformer (read_transformer reads every other model_type).
constexpr Family kFamilies[] = {
    {"gptj", read_gptj},
    {"mpt", read_mpt},
    {"gpt_oss", read_gpt_oss},
    {"gemma3", read_gemma3},
    {"gemma3_text", read_gemma3},
    {"llama4", read_llama4},
    {"llama4_text", read_llama4},
    {"qwen3_next", read_qwen3_next},
    {"qwen3_5", read_qwen3_next},
    {"qwen3_5_text", read_qwen3_next},
    {"qwen3_5_moe", read_qwen3_next},
    {"qwen3_5_moe_text", read_qwen3_next},
    {"deepseek_v32", read_dsa},
    {"glm_moe_dsa", read_dsa},
    {"nemotron_h", read_nemotron_h},
    {"kimi_linear", read_kimi_linear},
    {"kimi_k3", read_kimi_linear},  // Kimi-K3's text_config is a kimi_linear one
    {"deepseek_v4", read_deepseek_v4},
    {"minimax_m3", read_minimax_m3},
    {"minimax_m3_vl", read_minimax_m3},  // the published config.json: the text model in text_config
    {"minimax_m3_vl_text", read_minimax_m3},
};

/// Families known to need what no reader here reads: refused by name, with the field that says so.
struct Refused {
    std::string_view model_type;
    const char* field;
    const char* why;
};
constexpr Refused kRefused[] = {
    {"minimax_m1", "attn_type_list", "lightning attention layers"},
};

ModelSpec read_model(const json& whole, const json& model_json, const std::string& type, const std::string& id,
                     const std::string& argument, const json& quant);

/// Python's json module writes Infinity, -Infinity and NaN, and some config.json files hold them (Nemotron-H's
/// time_step_limit); JSON has no such numbers: they are read as null (no reader uses those fields).
std::string without_python_numbers(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    bool in_string = false;
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (in_string) {
            out += c;
            if (c == '\\' && i + 1 < text.size()) {
                out += text[i + 1];
                i += 2;
                continue;
            }
            if (c == '"') in_string = false;
            ++i;
            continue;
        }
        if (c == '"') in_string = true;
        bool replaced = false;
        for (std::string_view word : {"-Infinity", "Infinity", "NaN"})
            if (text.substr(i, word.size()) == word) {
                out += "null";
                i += word.size();
                replaced = true;
                break;
            }
        if (!replaced) {
            out += c;
            ++i;
        }
    }
    return out;
}

}  // namespace

ModelSpec model_from_hf_config(std::string_view text, const std::string& id, const std::string& argument,
                               std::string_view quant_text) {
    json whole;
    try {
        const std::string clean = without_python_numbers(text);
        whole = json::parse(clean.begin(), clean.end());
    } catch (const json::parse_error& e) {
        throw Error::of_argument(Status::invalid_argument, "", argument, fmt::format("not valid JSON: {}", e.what()));
    }
    if (!whole.is_object()) throw Error::of_argument(Status::invalid_argument, "", argument, "not a JSON object");
    json quant;
    if (!quant_text.empty()) {
        try {
            quant = json::parse(quant_text.begin(), quant_text.end());
        } catch (const json::parse_error& e) {
            throw Error::of_argument(Status::invalid_argument, "", argument,
                                     fmt::format("hf_quant_config.json is not valid JSON: {}", e.what()));
        }
        if (!quant.is_object())
            throw Error::of_argument(Status::invalid_argument, "", argument, "hf_quant_config.json is not a JSON object");
    }
    if (whole.contains("model_type") && !whole["model_type"].is_string())
        throw Error::of_argument(Status::invalid_argument, "", argument, "config.json field 'model_type' must be a text");
    // Multimodal configs nest their language model in text_config (Llama 4, Gemma 3, Qwen3.5, MiniMax-M3).
    std::string type = whole.value("model_type", std::string());
    const json* model = &whole;
    if (whole.contains("text_config") && whole["text_config"].is_object() && !whole.contains("hidden_size")) {
        model = &whole["text_config"];
        if (type.empty() && model->contains("model_type") && (*model)["model_type"].is_string())
            type = (*model)["model_type"].get<std::string>();
    }
    try {
        ModelSpec m = read_model(whole, *model, type, id, argument, quant);
        // The text that reads as this model again: the hf_quant_config.json's quantization as the config's own
        // quantization_config, which read_quantization() reads the same way (quant_method "modelopt").
        if (!quant.is_null()) {
            json q = quant["quantization"];
            q["quant_method"] = "modelopt";
            whole["quantization_config"] = std::move(q);
        }
        m.config = std::make_shared<const std::string>(whole.dump());
        return m;
    } catch (const json::exception& e) {  // a field of another type than the reader expects
        throw Error::of_argument(Status::invalid_argument, "", argument,
                                 fmt::format("config.json has a field of an unexpected type: {}", e.what()));
    }
}

namespace {
/// ModelSpec::context_window: the config's positions, extended by its rope_scaling where that says so.
double context_window(const Reader& r) {
    double window = 0;
    for (const char* key : {"max_position_embeddings", "n_positions", "max_seq_len"})
        if (const auto v = r.number(key)) {
            window = *v;
            break;
        }
    const json& j = r.j();
    if (const auto it = j.find("rope_scaling"); it != j.end() && it->is_object()) {
        const auto factor = it->find("factor");
        const auto original = it->find("original_max_position_embeddings");
        if (factor != it->end() && factor->is_number() && original != it->end() && original->is_number())
            window = std::max(window, factor->get<double>() * original->get<double>());
    }
    return std::isfinite(window) && window >= 1 ? std::floor(window) : 0;
}

ModelSpec read_model(const json& whole, const json& model_json, const std::string& type, const std::string& id,
                     const std::string& argument, const json& quant) {
    Reader r(whole, model_json, type, argument);
    for (const Refused& x : kRefused)
        if (type == x.model_type) r.unsupported(x.field, x.why);

    ModelSpec m;
    m.id = lower(id);
    m.name = m.id;
    FamilyReader read = read_transformer;
    for (const Family& f : kFamilies)
        if (type == f.model_type) read = f.read;
    if (read == read_transformer && (type == "gptj" || r.has("n_embd"))) read = read_gptj;
    if (read == read_transformer && r.has("d_model")) read = read_mpt;
    read(r, m);
    m.context_window = context_window(r);
    r.refuse_unused();
    read_quantization(r, m, quant.is_object() ? &quant : nullptr);
    // DeepSeek-V4's expert_dtype: its routed experts in FP4 (MXFP4, UE8M0 scales per 32 values: vLLM's
    // DeepseekV4FP8Config dispatches them to Mxfp4MoEMethod) beside the FP8 blocks of the rest; fp8: as the rest.
    if (const std::string e = r.text("expert_dtype"); e == "fp4") m.native_experts = DType::mxfp4;
    else if (!e.empty() && e != "fp8") r.unsupported("expert_dtype", fmt::format("the dtype '{}'", e));

    if (m.head_dim <= 0) m.head_dim = m.hidden / m.heads;
    m.count_layers();
    // The sliding-window fields of ROOFLINE_MODEL, from the layers.
    for (const LayerRun& run : m.runs)
        if (run.attention == Attention::sliding) {
            m.sliding_window = run.window;
            m.sliding_layers += run.count;
        }
    double counted = 0;
    for (const LayerRun& run : m.runs) counted += run.count;
    if (counted != m.layers) r.fail(fmt::format("the layers read ({}) are not num_hidden_layers ({})", counted, m.layers));
    if (m.experts > 0 && !(m.experts_per_token <= m.experts))
        r.fail(fmt::format("num_experts_per_tok ({}) must not exceed the experts ({})", m.experts_per_token, m.experts));
    if (m.first_dense_layers < 0 || m.first_dense_layers > m.layers || m.shared_experts < 0 || m.q_lora_rank < 0)
        r.fail("first_k_dense_replace, n_shared_experts and q_lora_rank must be between 0 and the number of layers");
    if (m.kv_heads <= 0 || std::fmod(m.heads, m.kv_heads) != 0)
        r.fail(fmt::format("num_attention_heads ({}) must be a multiple of num_key_value_heads ({})", m.heads, m.kv_heads));
    if (m.layers > 100000 || m.hidden > 1e7 || m.vocab > 1e8 || m.experts > 1e6)
        r.fail("num_hidden_layers, hidden_size, vocab_size or the experts are beyond any model");
    return m;
}
}  // namespace

}  // namespace roofline
