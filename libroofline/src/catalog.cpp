// Catalogs: the embedded data files, Hugging Face configs, and what hosts add.
#include "roofline/catalog.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <cstdint>
#include <span>

#include "ascii.hpp"
#include "catalog_data.hpp"
#include "roofline/error.hpp"
#include "roofline/units.hpp"

namespace roofline {
namespace {

using json = nlohmann::json;

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = ascii::lower(c);
    return out;
}

/// Refuses a text a host passed in (a config.json, a catalog, an id), naming the argument and why.
[[noreturn]] void invalid_input(const std::string& argument, std::string reason) {
    throw Error::of_argument(Status::invalid_argument, "", argument, std::move(reason));
}

json parse(std::string_view text, const std::string& argument) {
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        invalid_input(argument, fmt::format("not valid JSON: {}", e.what()));
    }
}

/// A number of a JSON object, if present and not null.
std::optional<double> number(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if (!it->is_number()) return std::nullopt;
    return it->get<double>();
}

double peak(const json& tflops, const char* key) { return number(tflops, key).value_or(0); }

/// A field of a GPU that must be a finite number >= 0 where it is given (null or absent: `otherwise`).
double non_negative(const json& g, const char* key, double otherwise, const std::string& id,
                    const std::string& argument) {
    auto it = g.find(key);
    if (it == g.end() || it->is_null()) return otherwise;
    const double v = it->is_number() ? it->get<double>() : NAN;
    if (!(v >= 0) || !std::isfinite(v))
        invalid_input(argument, fmt::format("GPU '{}' needs {} to be a number >= 0", id, key));
    return v;
}

/// The FP4 formats a GPU's matrix units take, from "fp4_formats" (absent: both NVFP4 and MXFP4).
void read_fp4_formats(const json& g, GpuSpec& s, const std::string& argument) {
    auto it = g.find("fp4_formats");
    if (it == g.end() || it->is_null()) return;
    if (!it->is_array())
        invalid_input(argument, fmt::format("GPU '{}' needs fp4_formats to be a list of \"nvfp4\" and \"mxfp4\"", s.id));
    s.fp4_nvfp4 = s.fp4_mxfp4 = false;
    for (const json& f : *it) {
        const std::string name = f.is_string() ? lower(f.get<std::string>()) : std::string();
        if (name == "nvfp4") s.fp4_nvfp4 = true;
        else if (name == "mxfp4") s.fp4_mxfp4 = true;
        else
            invalid_input(argument, fmt::format("GPU '{}' has an fp4_formats entry {} that is not \"nvfp4\" or \"mxfp4\"",
                                                s.id, f.dump()));
    }
}

GpuSpec gpu_from_json(const json& g, const std::string& argument) {
    if (!g.is_object() || !g.contains("id") || !g["id"].is_string())
        invalid_input(argument, "every GPU needs an \"id\"");
    GpuSpec s;
    s.id = lower(g["id"].get<std::string>());
    s.name = g.value("name", s.id);
    if (g.contains("vendor")) {
        if (!g["vendor"].is_string())
            invalid_input(argument, fmt::format("GPU '{}': \"vendor\" must be a text (\"NVIDIA\", \"AMD\")", s.id));
        s.vendor = g["vendor"].get<std::string>();
    }
    if (g.contains("architecture")) {
        if (!g["architecture"].is_string())
            invalid_input(argument, fmt::format("GPU '{}': \"architecture\" must be a text (\"Hopper\")", s.id));
        s.architecture = g["architecture"].get<std::string>();
    }
    const json t = g.value("tflops", json::object());
    s.fp32 = peak(t, "fp32");
    s.tf32 = peak(t, "tf32");
    s.bf16 = peak(t, "bf16");
    s.fp16 = peak(t, "fp16");
    s.fp8 = peak(t, "fp8");
    s.int8 = peak(t, "int8");
    s.int4 = peak(t, "int4");
    s.fp4 = t.is_object() ? non_negative(t, "fp4", 0, s.id, argument) : 0;
    read_fp4_formats(g, s, argument);
    s.hbm_tbs = number(g, "hbm_tbs").value_or(0);
    s.hbm_gb = number(g, "hbm_gb").value_or(0);
    s.memory_reported_gb = non_negative(g, "memory_reported_gb", 0, s.id, argument);
    s.l2_mb = number(g, "l2_mb").value_or(0);
    s.interconnect_tbs = number(g, "interconnect_tbs").value_or(0);
    s.usd_per_gpu_hour = number(g, "usd_per_gpu_hour").value_or(0);
    if (!(s.usd_per_gpu_hour >= 0) || !std::isfinite(s.usd_per_gpu_hour))
        invalid_input(argument, fmt::format("GPU '{}' has a negative or infinite usd_per_gpu_hour", s.id));
    s.scaleup_gpus = non_negative(g, "scaleup_gpus", 8, s.id, argument);
    if (!(s.scaleup_gpus >= 1) || s.scaleup_gpus != std::floor(s.scaleup_gpus))
        invalid_input(argument, fmt::format("GPU '{}' needs scaleup_gpus to be a whole number >= 1", s.id));
    s.server_gpus = non_negative(g, "server_gpus", s.scaleup_gpus, s.id, argument);
    if (!(s.server_gpus >= 1) || s.server_gpus != std::floor(s.server_gpus))
        invalid_input(argument, fmt::format("GPU '{}' needs server_gpus to be a whole number >= 1", s.id));
    s.scaleout_tbs = non_negative(g, "scaleout_tbs", 0, s.id, argument);
    if (g.contains("switch_reduction") && !g["switch_reduction"].is_null()) {
        if (!g["switch_reduction"].is_boolean())
            invalid_input(argument, fmt::format("GPU '{}' field 'switch_reduction' must be true or false", s.id));
        s.switch_reduction = g["switch_reduction"].get<bool>();
    }
    s.power_w = non_negative(g, "power_w", 0, s.id, argument);
    s.host_link_tbs = non_negative(g, "host_link_tbs", 0, s.id, argument);
    if (g.contains("price_offer") && !g["price_offer"].is_null()) {
        const json& offer = g["price_offer"];
        if (!offer.is_string() || (offer != "server" && offer != "gpu"))
            invalid_input(argument, fmt::format("GPU '{}' field 'price_offer' must be \"server\" (an instance of a "
                                                "whole server) or \"gpu\" (a single-GPU instance)", s.id));
        s.price_offer = offer.get<std::string>();
    }
    s.usd_per_gpu_hour_reserved = non_negative(g, "usd_per_gpu_hour_reserved", 0, s.id, argument);
    s.reserved_years = non_negative(g, "reserved_years", 0, s.id, argument);
    if ((s.usd_per_gpu_hour_reserved > 0) != (s.reserved_years > 0))
        invalid_input(argument, fmt::format("GPU '{}': usd_per_gpu_hour_reserved and reserved_years (its term) go "
                                            "together", s.id));
    s.usd_per_server = non_negative(g, "usd_per_server", 0, s.id, argument);
    if (g.contains("segment")) {
        const json& seg = g["segment"];
        if (!seg.is_string() || (seg != "datacenter" && seg != "workstation" && seg != "consumer"))
            invalid_input(argument, fmt::format("GPU '{}' field 'segment' must be \"datacenter\", \"workstation\" or "
                                                "\"consumer\"", s.id));
        s.segment = seg.get<std::string>();
    }
    if (g.contains("memory_kind")) {
        const json& kind = g["memory_kind"];
        if (!kind.is_string() || (kind != "HBM" && kind != "GDDR" && kind != "LPDDR"))
            invalid_input(argument, fmt::format("GPU '{}' field 'memory_kind' must be \"HBM\", \"GDDR\" or \"LPDDR\"", s.id));
        s.memory_kind = kind.get<std::string>();
    }
    s.idle_w = non_negative(g, "idle_w", 0, s.id, argument);
    s.host_w = non_negative(g, "host_w", 0, s.id, argument);
    if (s.idle_w > 0 && !(s.idle_w < s.power_w))
        invalid_input(argument, fmt::format("GPU '{}': idle_w ({} W) must be below power_w ({} W)", s.id, s.idle_w,
                                            s.power_w));
    if (g.contains("sources")) s.source = g["sources"].dump();
    if (!(s.fp16 > 0 || s.bf16 > 0) || !(s.hbm_tbs > 0) || !(s.hbm_gb > 0))
        invalid_input(argument, fmt::format("GPU '{}' needs tflops.bf16 or tflops.fp16, hbm_tbs and hbm_gb", s.id));
    if (s.bf16 <= 0) s.bf16 = s.fp16;
    if (s.fp16 <= 0) s.fp16 = s.bf16;
    return s;
}

/// The format named by a checkpoint's field: a dtype name (dtype.hpp).
DType checkpoint_format(const json& c, const char* key, const std::string& model, const std::string& argument) {
    const auto it = c.find(key);
    const std::optional<DType> d =
        it != c.end() && it->is_string() ? parse_dtype(it->get<std::string>()) : std::optional<DType>();
    if (!d)
        invalid_input(argument, fmt::format("model '{}': every checkpoint needs \"{}\", a format ({})", model, key,
                                            fmt::join(dtype_names(), ", ")));
    return *d;
}

/// models.json "checkpoints": [{"id", "linear", "experts", "embedding", "source"}], the published checkpoints in
/// other formats than the config's own.
std::shared_ptr<const std::vector<Checkpoint>> checkpoints_of(const json& m, const std::string& model,
                                                                const std::string& argument) {
    const auto it = m.find("checkpoints");
    if (it == m.end() || it->is_null()) return nullptr;
    if (!it->is_array()) invalid_input(argument, fmt::format("model '{}': \"checkpoints\" must be a list", model));
    auto out = std::make_shared<std::vector<Checkpoint>>();
    for (const json& c : *it) {
        auto text = [&](const char* key) {
            if (!c.is_object() || !c.contains(key) || !c[key].is_string() || c[key].get<std::string>().empty())
                invalid_input(argument, fmt::format("model '{}': every checkpoint needs a text \"{}\"", model, key));
            return c[key].get<std::string>();
        };
        Checkpoint k;
        k.id = text("id");
        k.source = text("source");
        k.linear = checkpoint_format(c, "linear", model, argument);
        k.experts = checkpoint_format(c, "experts", model, argument);
        k.embedding = checkpoint_format(c, "embedding", model, argument);
        out->push_back(std::move(k));
    }
    return out;
}

ModelSpec model_from_entry(const json& m, const std::string& argument) {
    if (!m.is_object() || !m.contains("id") || !m["id"].is_string() || !m.contains("config"))
        invalid_input(argument, "every model needs an \"id\" and a \"config\"");
    const std::string id = lower(m["id"].get<std::string>());
    // The checkpoint's hf_quant_config.json, where its formats are there and not in config.json.
    const std::string quant = m.contains("hf_quant_config") ? m["hf_quant_config"].dump() : std::string();
    ModelSpec s = model_from_hf_config(m["config"].dump(), id, argument, quant);
    s.name = m.value("name", id);
    s.source = m.value("source", "");
    s.params_b_reported = number(m, "params_b_reported").value_or(0);
    s.active_params_b_reported = number(m, "active_params_b_reported").value_or(0);
    s.hf_repo = m.value("hf_repo", "");
    s.quantized = checkpoints_of(m, id, argument);
    return s;
}

/// The places of catalog entries by their ids (in lower case): a lookup of an id in lower case hashes it
/// and compares it with one entry or two, instead of all (open addressing; the hash reads the length and
/// three letters, enough to tell the catalog's ids apart, and cheap).
class IdIndex {
public:
    template <typename Spec> explicit IdIndex(const std::vector<Spec>& entries) {
        std::size_t size = 8;
        while (size < 2 * entries.size()) size *= 2;
        slots_.assign(size, kEmpty);
        // The first entry of an id wins, as a scan in file order would find it.
        for (std::size_t i = 0; i < entries.size(); ++i)
            if (!find(entries, entries[i].id)) slots_[free_slot(entries[i].id)] = i;
    }

    template <typename Spec> const Spec* find(const std::vector<Spec>& entries, std::string_view id) const noexcept {
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t h = hash(id);; ++h) {
            const std::size_t i = slots_[h & mask];
            if (i == kEmpty) return nullptr;
            if (entries[i].id == id) return &entries[i];
        }
    }

private:
    static constexpr std::size_t kEmpty = static_cast<std::size_t>(-1);

    static std::size_t hash(std::string_view id) noexcept {
        if (id.empty()) return 0;
        auto at = [&](std::size_t i) { return static_cast<std::uint64_t>(static_cast<unsigned char>(id[i])); };
        const std::uint64_t h = (id.size() * 0x9E3779B97F4A7C15ull) ^ (at(0) << 8) ^ (at(id.size() / 2) << 16) ^
                                (at(id.size() - 1) << 24);
        return static_cast<std::size_t>((h * 0xBF58476D1CE4E5B9ull) >> 32);
    }
    std::size_t free_slot(std::string_view id) const noexcept {
        const std::size_t mask = slots_.size() - 1;
        std::size_t h = hash(id);
        while (slots_[h & mask] != kEmpty) ++h;
        return h & mask;
    }

    std::vector<std::size_t> slots_;
};

/// The built-in catalogs, parsed once from the embedded files, then only read.
struct BuiltIn {
    std::vector<GpuSpec> gpus;
    std::vector<ModelSpec> models;
    IdIndex gpu_index, model_index;
    BuiltIn() : gpus(parse_gpus()), models(parse_models()), gpu_index(gpus), model_index(models) {}

    static std::vector<GpuSpec> parse_gpus() {
        const json g = json::parse(detail::kGpusJson);
        std::vector<GpuSpec> out;
        for (const json& entry : g.at("gpus")) out.push_back(gpu_from_json(entry, "gpus.json"));
        return out;
    }
    static std::vector<ModelSpec> parse_models() {
        const json m = json::parse(detail::kModelsJson);
        std::vector<ModelSpec> out;
        for (const json& entry : m.at("models")) out.push_back(model_from_entry(entry, "models.json"));
        return out;
    }
};

const BuiltIn& built_in() {
    static const BuiltIn catalog;
    return catalog;
}

/// What hosts add at run time: the library's one piece of shared mutable state, behind a lock. An entry
/// is shared with the lookups that hold it, so that replacing it never pulls it from under one.
struct Added {
    std::shared_mutex mutex;
    std::map<std::string, std::shared_ptr<const GpuSpec>, std::less<>> gpus;
    std::map<std::string, std::shared_ptr<const ModelSpec>, std::less<>> models;
    /// How many times hosts added or replaced entries: while 0 a lookup reads the built-ins alone, with no
    /// lock; a change tells the formulas' per-thread memo of resolved arguments to look again.
    std::atomic<std::uint64_t> generation{0};
};

Added& added() {
    static Added registry;
    return registry;
}

}  // namespace

double GpuSpec::peak_tflops(DType compute) const noexcept {
    double p = 0;
    switch (compute) {
        case DType::fp32: p = fp32; break;
        case DType::bf16: p = bf16; break;
        case DType::fp8: p = fp8; break;
        case DType::nvfp4: p = fp4_nvfp4 ? fp4 : 0; break;
        case DType::mxfp4: p = fp4_mxfp4 ? fp4 : 0; break;
        default: p = fp16; break;
    }
    return p > 0 ? p : fp16;
}

std::vector<Checkpoint> ModelSpec::published() const {
    std::vector<Checkpoint> out{{hf_repo.empty() ? id : hf_repo, native_linear, native_experts, native_embedding, source}};
    if (quantized) out.insert(out.end(), quantized->begin(), quantized->end());
    return out;
}

double ModelSpec::kv_values_per_token_layer() const noexcept {
    return mla() ? kv_lora_rank + qk_rope_head_dim : (shared_kv ? 1 : 2) * kv_heads * head_dim;
}

double ModelSpec::attention_params() const noexcept {
    if (mla()) {
        const double q = q_lora_rank > 0 ? hidden * q_lora_rank + q_lora_rank * heads * qk_dim() + q_lora_rank
                                         : hidden * heads * qk_dim();
        const double kv = hidden * (kv_lora_rank + qk_rope_head_dim) + kv_lora_rank +
                          kv_lora_rank * heads * (qk_nope_head_dim + v_head_dim);
        return q + kv + heads * v_head_dim * hidden + (gated_attention ? hidden * heads * v_head_dim : 0);
    }
    if (shared_kv) {
        // DeepSeek-V4 (inference/model.py, Attention): wq_a, q_norm, wq_b; wkv and kv_norm (one head of head_dim
        // that is key and value); wo_a (heads x head_dim / o_groups -> o_groups x o_lora_rank) and wo_b; attn_sink.
        return hidden * q_lora_rank + q_lora_rank + q_lora_rank * heads * head_dim + (hidden + 1) * kv_heads * head_dim +
               heads * head_dim * o_lora_rank + o_groups * o_lora_rank * hidden + heads;
    }
    return (gated_attention ? 2 : 1) * hidden * heads * head_dim + 2 * hidden * kv_heads * head_dim +
           heads * head_dim * hidden;
}

std::string_view to_string(Attention a) noexcept {
    switch (a) {
        case Attention::none: return "none";
        case Attention::full: return "full";
        case Attention::sliding: return "sliding";
        case Attention::chunked: return "chunked";
        case Attention::sparse: return "sparse";
        case Attention::compressed: return "compressed";
        case Attention::block_sparse: return "block_sparse";
        default: return "state";
    }
}

std::string_view to_string(Mlp m) noexcept {
    switch (m) {
        case Mlp::none: return "none";
        case Mlp::dense: return "dense";
        default: return "moe";
    }
}

// Layer i (from 0) mixes, before its attention, the ceil(i / B) blocks written so far and the running sum, and
// before its MLP those and the block it writes when i is a multiple of B (vLLM's attn_res: num_blocks
// prev_valid_blocks, then prev_valid_blocks + is_block_write_layer, each with the prefix); the output all
// ceil(layers / B) blocks and the prefix.
namespace {
double attn_res_sources(double layers, double b) {
    if (!(b > 0)) return 0;
    double sources = std::ceil(layers / b) + 1;
    for (double i = 0; i < layers; ++i) {
        const double before = std::ceil(i / b);
        sources += (before + 1) + (before + (std::fmod(i, b) == 0 ? 1 : 0) + 1);
    }
    return sources;
}
}  // namespace

void ModelSpec::count_layers() {
    attention_count = {};
    mlp_count = {};
    norm_count = 1;  // the final norm
    indexer_layers = 0;
    attn_res_reads = attn_res_sources(layers, attn_res_block);
    attention_groups.clear();
    for (const LayerRun& r : runs) {
        attention_count[static_cast<std::size_t>(r.attention)] += r.count;
        mlp_count[static_cast<std::size_t>(r.mlp)] += r.count;
        norm_count += r.count * ((r.attention != Attention::none) + (r.mlp != Mlp::none));
        if (r.attention == Attention::sparse || r.attention == Attention::block_sparse ||
            (r.attention == Attention::compressed && r.topk > 0))
            indexer_layers += r.count;
        if (r.attention == Attention::none || r.attention == Attention::state) continue;
        auto same = std::find_if(attention_groups.begin(), attention_groups.end(), [&](const LayerRun& g) {
            return g.attention == r.attention && g.window == r.window && g.ratio == r.ratio && g.topk == r.topk;
        });
        if (same != attention_groups.end()) same->count += r.count;
        else attention_groups.push_back({r.count, r.attention, r.window, Mlp::none, r.ratio, r.topk});
    }
}

namespace {
/// Parameters, billions, when each MoE layer holds `experts_held` experts (all of them, or those one token
/// uses) and the embedding table `embedding_rows` rows (all, or the one a token reads).
double count_params_b(const ModelSpec& m, double experts_held, double embedding_rows, double mtp_layers) noexcept {
    double body = 0;
    for (const LayerRun& r : m.runs) {
        double layer = 0;
        switch (r.attention) {
            case Attention::none: break;
            case Attention::state: layer += m.state.params + m.hidden; break;
            case Attention::sparse:
            case Attention::block_sparse: layer += m.attention_params() + m.indexer.params + m.hidden; break;
            case Attention::compressed:
                layer += m.attention_params() + m.compressor_params(r) + (r.topk > 0 ? m.indexer.params : 0) + m.hidden;
                break;
            default: layer += m.attention_params() + m.hidden; break;
        }
        layer += m.mixing_params_per_layer();
        switch (r.mlp) {
            case Mlp::none: break;
            case Mlp::dense: layer += m.dense_mlp_params() + m.hidden; break;
            case Mlp::moe:
                layer += m.router_params() + experts_held * m.expert_params() +
                         m.shared_experts * m.shared_expert_params() + m.hidden;
                break;
        }
        body += r.count * layer;
    }
    // An MTP layer: a decoder layer like the last one, with its own projection of two hidden states.
    if (mtp_layers > 0 && !m.runs.empty()) {
        const LayerRun& last = m.runs.back();
        double layer = m.attention_params() + 2 * m.hidden + 2 * m.hidden * m.hidden + 2 * m.hidden;
        layer += last.mlp == Mlp::moe ? m.router_params() + m.experts * m.expert_params() +
                                            m.shared_experts * m.shared_expert_params()
                                      : m.dense_mlp_params();
        body += mtp_layers * layer;
    }
    const double lm_head = m.tied_embeddings ? (embedding_rows < m.vocab ? m.vocab * m.hidden : 0) : m.vocab * m.hidden;
    return (body + embedding_rows * m.hidden + lm_head + m.hidden + m.mixing_params_head()) / 1e9;
}
}  // namespace

ModelSpec mtp_draft(const ModelSpec& target) {
    ModelSpec draft = target;
    draft.id = target.id + "-mtp";
    draft.name = draft.id;
    LayerRun layer{target.mtp_layers, Attention::full, 0, Mlp::dense};
    if (target.mtp_attention.count > 0) {  // the config's own kind for its MTP layers
        layer.attention = target.mtp_attention.attention;
        layer.window = target.mtp_attention.window;
        layer.ratio = target.mtp_attention.ratio;
        layer.topk = target.mtp_attention.topk;
        if (!target.runs.empty()) layer.mlp = target.runs.back().mlp == Mlp::none ? Mlp::dense : target.runs.back().mlp;
    } else if (!target.runs.empty()) {
        layer.mlp = target.runs.back().mlp == Mlp::none ? Mlp::dense : target.runs.back().mlp;
        // The attention of the last layer that attends (a state layer's MTP layer is a full attention layer).
        for (auto r = target.runs.rbegin(); r != target.runs.rend(); ++r)
            if (r->attention != Attention::none && r->attention != Attention::state) {
                layer.attention = r->attention;
                layer.window = r->window;
                layer.ratio = r->ratio;
                layer.topk = r->topk;
                break;
            }
    }
    draft.runs = {layer};
    draft.layers = target.mtp_layers;
    draft.mtp_layers = 0;
    draft.first_dense_layers = 0;
    draft.count_layers();
    return draft;
}

// DeepSeek-V4 (inference/model.py, Compressor): ape (ratio x coff head_dim), wkv and wgate (hidden -> coff
// head_dim), norm (head_dim), where coff = 2 for ratio 4 (two overlapping windows) and 1 otherwise; its state,
// kv_state and score_state of coff ratio x coff head_dim each, in float32 (vLLM's CompressorStateCache:
// state_dim 2 coff head_dim over a window of coff ratio tokens).
double ModelSpec::compressor_params(const LayerRun& r) const noexcept {
    if (r.attention != Attention::compressed || !(r.ratio > 0)) return 0;
    const double coff = r.ratio == 4 ? 2 : 1;
    return r.ratio * coff * head_dim + 2 * hidden * coff * head_dim + head_dim;
}

double ModelSpec::compressor_state_values(const LayerRun& r) const noexcept {
    if (r.attention != Attention::compressed || !(r.ratio > 0)) return 0;
    const double coff = r.ratio == 4 ? 2 : 1;
    return 2 * coff * r.ratio * coff * head_dim + (r.topk > 0 ? indexer.state_values : 0);
}

// DeepSeek-V4's hyper-connections (inference/model.py, Block): hc_attn_fn and hc_ffn_fn ((2 + h) h x h hidden),
// their bases ((2 + h) h) and scales (3); the head's hc_head_fn (h x h hidden), base (h) and scale (1).
// Kimi-K3's Attention Residuals (vLLM's KimiDecoderLayer): per layer two norms and two projections to one score
// (self_attention_res_norm/proj, mlp_res_norm/proj); the output's norm and projection.
double ModelSpec::mixing_params_per_layer() const noexcept {
    const double h = hc_mult;
    return (h > 0 ? 2 * ((2 + h) * h * h * hidden + (2 + h) * h + 3) : 0) + (attn_res_block > 0 ? 4 * hidden : 0);
}

double ModelSpec::mixing_params_head() const noexcept {
    const double h = hc_mult;
    return (h > 0 ? h * h * hidden + h + 1 : 0) + (attn_res_block > 0 ? 2 * hidden : 0);
}


double ModelSpec::params_b() const noexcept { return count_params_b(*this, experts, vocab, mtp_layers); }
double ModelSpec::active_params_b() const noexcept { return count_params_b(*this, experts_per_token, 1, 0); }

namespace {

/// An entry added by a host, else a built-in one (a pointer that owns nothing), else nullptr.
template <typename Spec>
std::shared_ptr<const Spec> entry(std::map<std::string, std::shared_ptr<const Spec>, std::less<>> Added::*added_entries,
                                  const std::vector<Spec>& built_ins, const IdIndex& index, std::string_view id) {
    // Ids are kept in lower case; one written otherwise is lowered first (allocating only when it is long).
    std::string lowered;
    if (std::any_of(id.begin(), id.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) id = lowered = lower(id);
    Added& a = added();
    if (a.generation.load(std::memory_order_acquire) != 0) {
        std::shared_lock lock(a.mutex);
        const auto& entries = a.*added_entries;
        if (auto it = entries.find(id); it != entries.end()) return it->second;
    }
    if (const Spec* s = index.find(built_ins, id)) return std::shared_ptr<const Spec>(std::shared_ptr<const Spec>(), s);
    return nullptr;
}

}  // namespace

std::shared_ptr<const GpuSpec> gpu_entry(std::string_view id) {
    const BuiltIn& b = built_in();
    return entry(&Added::gpus, b.gpus, b.gpu_index, id);
}
std::shared_ptr<const ModelSpec> model_entry(std::string_view id) {
    const BuiltIn& b = built_in();
    return entry(&Added::models, b.models, b.model_index, id);
}

std::uint64_t catalog_generation() noexcept { return added().generation.load(std::memory_order_acquire); }

double memory_gb(const GpuSpec& g) noexcept { return g.memory_reported_gb > 0 ? g.memory_reported_gb : g.hbm_gb; }

double memory_bytes(const GpuSpec& g) noexcept { return units::bytes_from_gb(memory_gb(g)); }

std::optional<GpuSpec> find_gpu(std::string_view id) {
    if (auto g = gpu_entry(id)) return *g;
    return std::nullopt;
}

std::optional<ModelSpec> find_model(std::string_view id) {
    if (auto m = model_entry(id)) return *m;
    return std::nullopt;
}

std::vector<std::string> gpu_ids() {
    std::vector<std::string> ids;
    for (const GpuSpec& g : built_in().gpus) ids.push_back(g.id);
    Added& a = added();
    std::shared_lock lock(a.mutex);
    for (const auto& [id, g] : a.gpus)
        if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
    return ids;
}

std::vector<std::string> model_ids() {
    std::vector<std::string> ids;
    for (const ModelSpec& m : built_in().models) ids.push_back(m.id);
    Added& a = added();
    std::shared_lock lock(a.mutex);
    for (const auto& [id, m] : a.models)
        if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
    return ids;
}

void add_model_from_hf_config(const std::string& id, std::string_view json_text, std::string_view quant_text) {
    if (id.empty() || id.size() > 100) invalid_input("id", "must be 1 to 100 characters");
    ModelSpec m = model_from_hf_config(json_text, id, "config_json", quant_text);
    Added& a = added();
    std::unique_lock lock(a.mutex);
    std::string key = m.id;  // read before m is moved (the right side of = goes first)
    a.models[std::move(key)] = std::make_shared<const ModelSpec>(std::move(m));
    a.generation.fetch_add(1, std::memory_order_acq_rel);
}

std::size_t add_catalog(std::string_view json_text) {
    const json j = parse(json_text, "catalog_json");
    std::vector<GpuSpec> gpus;
    std::vector<ModelSpec> models;
    if (j.contains("gpus"))
        for (const json& g : j["gpus"]) gpus.push_back(gpu_from_json(g, "catalog_json"));
    if (j.contains("models"))
        for (const json& m : j["models"]) models.push_back(model_from_entry(m, "catalog_json"));
    Added& a = added();
    std::unique_lock lock(a.mutex);
    // The id is read before the entry is moved into its shared copy (the right side of = goes first).
    for (GpuSpec& g : gpus) {
        std::string id = g.id;
        a.gpus[std::move(id)] = std::make_shared<const GpuSpec>(std::move(g));
    }
    for (ModelSpec& m : models) {
        std::string id = m.id;
        a.models[std::move(id)] = std::make_shared<const ModelSpec>(std::move(m));
    }
    if (!gpus.empty() || !models.empty()) a.generation.fetch_add(1, std::memory_order_acq_rel);
    return gpus.size() + models.size();
}

namespace {

/// The numbers ROOFLINE_GPU and ROOFLINE_MODEL give, each with its name: the one list of them.
struct GpuField {
    std::string_view name;
    double (*read)(const GpuSpec&);
};
constexpr GpuField kGpuFields[] = {
    {"fp32_tflops", [](const GpuSpec& g) { return g.fp32; }},
    {"tf32_tflops", [](const GpuSpec& g) { return g.tf32; }},
    {"bf16_tflops", [](const GpuSpec& g) { return g.bf16; }},
    {"fp16_tflops", [](const GpuSpec& g) { return g.fp16; }},
    {"fp8_tflops", [](const GpuSpec& g) { return g.fp8; }},
    {"int8_tops", [](const GpuSpec& g) { return g.int8; }},
    {"int4_tops", [](const GpuSpec& g) { return g.int4; }},
    {"hbm_tbs", [](const GpuSpec& g) { return g.hbm_tbs; }},
    {"hbm_gb", [](const GpuSpec& g) { return g.hbm_gb; }},
    {"l2_mb", [](const GpuSpec& g) { return g.l2_mb; }},
    {"interconnect_tbs", [](const GpuSpec& g) { return g.interconnect_tbs; }},
    {"usd_per_gpu_hour", [](const GpuSpec& g) { return g.usd_per_gpu_hour; }},
    // Appended (issue #18); the names above are frozen, new ones only ever go at the end.
    {"fp4_tflops", [](const GpuSpec& g) { return g.fp4; }},
    {"scaleup_gpus", [](const GpuSpec& g) { return g.scaleup_gpus; }},
    {"scaleout_tbs", [](const GpuSpec& g) { return g.scaleout_tbs; }},
    {"power_w", [](const GpuSpec& g) { return g.power_w; }},
    {"host_link_tbs", [](const GpuSpec& g) { return g.host_link_tbs; }},  // 0.14
    {"idle_w", [](const GpuSpec& g) { return g.idle_w; }},                // 0.14
    {"host_w", [](const GpuSpec& g) { return g.host_w; }},                // 0.14
    {"server_gpus", [](const GpuSpec& g) { return g.server_gpus; }},      // 0.14
    {"usd_per_gpu_hour_reserved", [](const GpuSpec& g) { return g.usd_per_gpu_hour_reserved; }},  // 0.14
    {"reserved_years", [](const GpuSpec& g) { return g.reserved_years; }},                        // 0.14
    {"usd_per_server", [](const GpuSpec& g) { return g.usd_per_server; }},                        // 0.14
    {"memory_gb", [](const GpuSpec& g) { return memory_gb(g); }},                                 // 0.16
};

struct ModelField {
    std::string_view name;
    double (*read)(const ModelSpec&);
};
constexpr ModelField kModelFields[] = {
    {"params_b", [](const ModelSpec& m) { return m.params_b(); }},
    {"active_params_b", [](const ModelSpec& m) { return m.active_params_b(); }},
    {"params_b_reported", [](const ModelSpec& m) { return m.params_b_reported; }},
    {"active_params_b_reported", [](const ModelSpec& m) { return m.active_params_b_reported; }},
    {"layers", [](const ModelSpec& m) { return m.layers; }},
    {"hidden", [](const ModelSpec& m) { return m.hidden; }},
    {"heads", [](const ModelSpec& m) { return m.heads; }},
    {"kv_heads", [](const ModelSpec& m) { return m.kv_heads; }},
    {"head_dim", [](const ModelSpec& m) { return m.head_dim; }},
    {"ffn", [](const ModelSpec& m) { return m.ffn; }},
    {"vocab", [](const ModelSpec& m) { return m.vocab; }},
    {"experts", [](const ModelSpec& m) { return m.experts; }},
    {"experts_per_token", [](const ModelSpec& m) { return m.experts_per_token; }},
    {"shared_experts", [](const ModelSpec& m) { return m.shared_experts; }},
    {"expert_ffn", [](const ModelSpec& m) { return m.expert_ffn; }},
    {"kv_lora_rank", [](const ModelSpec& m) { return m.kv_lora_rank; }},
    {"sliding_window", [](const ModelSpec& m) { return m.sliding_window; }},
    {"sliding_layers", [](const ModelSpec& m) { return m.sliding_layers; }},
    // At 2 bytes per value, K and V together, over the layers that keep a KV cache as if each kept every
    // token (windows, chunks and state layers: ROOFLINE_CACHE_GB).
    {"kv_kib_per_token", [](const ModelSpec& m) { return m.attention_layers() * m.kv_values_per_token_layer() * 2 / 1024; }},
    {"context_window", [](const ModelSpec& m) { return m.context_window; }},
};

template <typename Field> std::vector<std::string> names_of(std::span<const Field> fields) {
    std::vector<std::string> names;
    for (const Field& f : fields) names.emplace_back(f.name);
    return names;
}

template <typename Field, typename Spec>
std::optional<double> read_field(std::span<const Field> fields, const Spec& spec, std::string_view name) {
    for (const Field& f : fields)
        if (ascii::equals_lowered(f.name, name)) return f.read(spec);
    return std::nullopt;
}

}  // namespace

std::vector<std::string> gpu_field_names() { return names_of<GpuField>(kGpuFields); }
std::vector<std::string> model_field_names() { return names_of<ModelField>(kModelFields); }

std::optional<double> gpu_field(const GpuSpec& g, std::string_view field) {
    return read_field<GpuField>(kGpuFields, g, field);
}

std::optional<double> model_field(const ModelSpec& m, std::string_view field) {
    return read_field<ModelField>(kModelFields, m, field);
}

}  // namespace roofline
