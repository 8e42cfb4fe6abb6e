// The reading of a Hugging Face config.json (hf_config.cpp: the generic reader, the plain transformer and the
// quantization; hf_families.cpp: the families read apart): the shared field-name tables, the Reader that refuses
// what no reader understands, and the building blocks of every family's layers. Private to the core.
#pragma once

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ascii.hpp"
#include "roofline/catalog.hpp"
#include "roofline/error.hpp"

namespace roofline::hf {

using json = nlohmann::json;

// ---- The shared field-name tables: every spelling of one fact, the first found wins. ---------------------
inline constexpr std::array<const char*, 3> kExpertCount{"num_local_experts", "n_routed_experts", "num_experts"};
inline constexpr std::array<const char*, 4> kExpertsPerToken{"num_experts_per_tok", "experts_per_token", "num_experts_per_token",
                                                      "top_k_experts"};
inline constexpr std::array<const char*, 2> kSharedExperts{"n_shared_experts", "num_shared_experts"};
inline constexpr std::array<const char*, 3> kSharedExpertFfn{"shared_expert_intermediate_size",
                                                      "moe_shared_expert_intermediate_size", "shared_intermediate_size"};
inline constexpr std::array<const char*, 2> kMtpLayers{"num_nextn_predict_layers", "mtp_num_hidden_layers"};

/// Fields that change the architecture: a reader that reads one says so (Reader::use), and a config that
/// has one no reader used is refused, naming it.
inline constexpr std::array<const char*, 25> kArchitectureFields{
    "layer_types", "full_attention_interval", "moe_layer_freq", "mlp_layer_types", "mlp_only_layers",
    "decoder_sparse_step", "hybrid_override_pattern", "indexer_types", "compress_ratios", "no_rope_layers",
    "attention_chunk_size", "linear_attn_config", "index_topk", "sliding_window_pattern", "interleave_moe_layer_step",
    "attn_type_list", "sparse_attention_config", "num_hash_layers", "routed_expert_hidden_size", "attn_output_gate",
    "dense_intermediate_size", "sliding_window", "attn_res_block_size", "hc_mult", "o_lora_rank"};

inline std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = ascii::lower(c);
    return out;
}

/// One config.json being read: the text model's object (text_config unwrapped), the argument to blame.
class Reader {
public:
    Reader(const json& whole, const json& text_model, std::string type, const std::string& argument)
        : whole_(whole), j_(text_model), type_(std::move(type)), argument_(argument) {}

    const json& j() const { return j_; }
    const json& whole() const { return whole_; }
    const std::string& type() const { return type_; }

    [[noreturn]] void fail(std::string reason) const {
        throw Error::of_argument(Status::invalid_argument, "", argument_, std::move(reason));
    }
    [[noreturn]] void unsupported(std::string_view field, std::string_view why = {}) const {
        fail(fmt::format("config.json field '{}' is not supported (model_type '{}'){}{}", field, type_,
                         why.empty() ? "" : ": ", why));
    }

    bool has(const char* key) const {
        auto it = j_.find(key);
        return it != j_.end() && !it->is_null();
    }
    /// A number, if present and not null; a field of another type is refused.
    std::optional<double> number(const char* key) const {
        auto it = j_.find(key);
        if (it == j_.end() || it->is_null()) return std::nullopt;
        if (it->is_boolean() || !it->is_number()) fail(fmt::format("config.json field '{}' must be a number", key));
        const double v = it->get<double>();
        if (!std::isfinite(v) || v < 0) fail(fmt::format("config.json field '{}' must be a number >= 0", key));
        return v;
    }
    double number_or(const char* key, double fallback) const { return number(key).value_or(fallback); }
    template <std::size_t N> std::optional<double> first_of(const std::array<const char*, N>& keys) const {
        for (const char* k : keys)
            if (auto v = number(k)) return v;
        return std::nullopt;
    }
    /// A number > 0 that must be there, by the first of its spellings.
    double required(std::initializer_list<const char*> keys) const {
        for (const char* k : keys)
            if (auto v = number(k)) {
                if (!(*v > 0)) fail(fmt::format("config.json field '{}' must be > 0", k));
                return *v;
            }
        fail(fmt::format("config.json has no '{}'", *keys.begin()));
    }
    bool flag(const char* key, bool fallback) const {
        auto it = j_.find(key);
        if (it == j_.end() || it->is_null()) return fallback;
        if (!it->is_boolean()) fail(fmt::format("config.json field '{}' must be true or false", key));
        return it->get<bool>();
    }
    std::string text(const char* key) const {
        auto it = j_.find(key);
        if (it == j_.end() || it->is_null()) return {};
        if (!it->is_string()) fail(fmt::format("config.json field '{}' must be a text", key));
        return it->get<std::string>();
    }
    /// A list field; empty when absent.
    const json& list(const char* key) const {
        static const json empty = json::array();
        auto it = j_.find(key);
        if (it == j_.end() || it->is_null()) return empty;
        if (!it->is_array()) fail(fmt::format("config.json field '{}' must be a list", key));
        return *it;
    }

    /// This reader reads the field (kArchitectureFields): it is not refused afterwards.
    void use(const char* key) { used_.insert(key); }
    /// Refuses any architecture field that is present, not trivially empty, and that no reader used.
    void refuse_unused() const {
        for (const char* k : kArchitectureFields) {
            if (used_.count(k) || !has(k)) continue;
            const json& v = j_[k];
            if ((v.is_array() || v.is_object()) && v.empty()) continue;
            unsupported(k);
        }
    }

private:
    const json& whole_;
    const json& j_;
    std::string type_;
    const std::string& argument_;
    std::set<std::string, std::less<>> used_;
};

// ---- Layers (hf_config.cpp) ----------------------------------------------------------------------------------

/// The number of layers, bounded before anything loops over them.
double layer_count(const Reader& r, std::initializer_list<const char*> keys);

/// A period over the layers (moe_layer_freq, full_attention_interval, ...): a whole number from 1 to the layers.
double period(const Reader& r, const char* key, double fallback, double layers);

/// Appends a layer to the runs, joining it to the last run when it is of the same kind.
void push_layer(std::vector<LayerRun>& runs, const LayerRun& layer);

/// The layers, from a function of the layer's index.
template <typename F> std::vector<LayerRun> layers_of(double count, F&& kind_of) {
    std::vector<LayerRun> runs;
    for (int i = 0; i < static_cast<int>(count); ++i) {
        push_layer(runs, kind_of(i));
    }
    return runs;
}

/// The MLP of layer i of a MoE model: first_k_dense_replace, moe_layer_freq, decoder_sparse_step,
/// mlp_only_layers, as each family spells it.
struct MoePlacement {
    double first_dense = 0, freq = 1, step = 1;
    std::set<int> dense_layers;
    /// DeepSeek's rule (layer i >= first_k_dense_replace and i % moe_layer_freq == 0) and Qwen's
    /// ((i + 1) % decoder_sparse_step == 0, not in mlp_only_layers); each is 1 where the other family's is.
    Mlp of(int i) const {
        if (i < first_dense || dense_layers.count(i)) return Mlp::dense;
        return i % static_cast<int>(freq) == 0 && (i + 1) % static_cast<int>(step) == 0 ? Mlp::moe : Mlp::dense;
    }
};

MoePlacement moe_placement(Reader& r);

/// layer_types: "full_attention", "sliding_attention", "linear_attention" per layer.
Attention attention_of_type(const Reader& r, const json& t);

/// layer_types, read (Reader::use) and of num_hidden_layers entries; empty when absent.
const json& layer_types(Reader& r, double layers);

// ---- What every family reads (hf_config.cpp) -------------------------------------------------------------------

/// default_vocab: the family's configuration class's vocab_size, for the files that leave it out (0: required).
void read_common(Reader& r, ModelSpec& m, double default_vocab = 0);
void read_moe(Reader& r, ModelSpec& m, double default_expert_ffn);
void read_mla(Reader& r, ModelSpec& m);

/// Llama, Mistral, Mixtral, Qwen2/3 (dense and MoE), Gemma 1/2, DeepSeek-V3/R1, ... : the plain transformer, which
/// reads every model_type that kFamilies does not list.
void read_transformer(Reader& r, ModelSpec& m);

// ---- The families read apart (hf_families.cpp) ---------------------------------------------------------------

void read_dsa(Reader& r, ModelSpec& m);
void read_deepseek_v4(Reader& r, ModelSpec& m);
void read_kimi_linear(Reader& r, ModelSpec& m);
void read_gpt_oss(Reader& r, ModelSpec& m);
void read_gemma3(Reader& r, ModelSpec& m);
void read_llama4(Reader& r, ModelSpec& m);
void read_qwen3_next(Reader& r, ModelSpec& m);
void read_nemotron_h(Reader& r, ModelSpec& m);
void read_gptj(Reader& r, ModelSpec& m);
void read_mpt(Reader& r, ModelSpec& m);
void read_minimax_m3(Reader& r, ModelSpec& m);

}  // namespace roofline::hf
