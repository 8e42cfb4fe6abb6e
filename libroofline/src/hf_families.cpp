// The config.json families read apart from the plain transformer (hf_reader.hpp, kFamilies in hf_config.cpp): the
// hybrids of state layers and attention, sparse and compressed attention, and the older spellings, each with the
// token mixers it reads. docs/formulas.md, "Models from config.json".
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "hf_reader.hpp"
#include "roofline/catalog.hpp"
#include "roofline/error.hpp"

namespace roofline::hf {
namespace {

// ---- Attention and state ---------------------------------------------------------------------------------

/// Gated DeltaNet (Qwen3-Next, Qwen3.5): keys and queries of linear_num_key_heads x linear_key_head_dim,
/// values of linear_num_value_heads x linear_value_head_dim; the state is a key x value matrix per value head.
void read_gated_deltanet(Reader& r, ModelSpec& m) {
    const double nk = r.required({"linear_num_key_heads"}), dk = r.required({"linear_key_head_dim"});
    const double nv = r.required({"linear_num_value_heads"}), dv = r.required({"linear_value_head_dim"});
    const double kernel = r.required({"linear_conv_kernel_dim"});
    const double conv = 2 * nk * dk + nv * dv;  // the channels the short convolution mixes: q, k, v
    StateLayerSpec& s = m.state;
    s.kind = StateKind::gated_deltanet;
    s.in_width = 2 * nk * dk + 2 * nv * dv + 2 * nv;  // q, k, v, the output gate z, and b, a
    s.out_width = nv * dv;
    s.params = m.hidden * s.in_width + conv * kernel + 2 * nv + dv + s.out_width * m.hidden;
    s.state_values = nv * dk * dv + conv * (kernel - 1);
    s.flops_per_token = gated_deltanet_flops_per_token(nv, dk, dv) + 2 * conv * kernel;
    s.heads = nv;
    const std::string dtype = r.text("mamba_ssm_dtype");
    s.state_value_bytes = dtype == "float32" ? 4 : 2;
}

/// Mamba2 (Nemotron-H): mamba_num_heads x mamba_head_dim channels, n_groups x ssm_state_size for B and C.
void read_mamba2(Reader& r, ModelSpec& m) {
    const double heads = r.required({"mamba_num_heads"}), head_dim = r.required({"mamba_head_dim"});
    const double state = r.required({"ssm_state_size"}), groups = r.number_or("n_groups", 1);
    const double kernel = r.number_or("conv_kernel", 4);
    const double inner = heads * head_dim, conv = inner + 2 * groups * state;
    StateLayerSpec& s = m.state;
    s.kind = StateKind::mamba2;
    s.in_width = 2 * inner + 2 * groups * state + heads;  // x, z, B, C, dt
    s.out_width = inner;
    s.params = m.hidden * s.in_width + conv * kernel + conv + 3 * heads + inner + inner * m.hidden;
    s.state_values = heads * head_dim * state + conv * (kernel - 1);
    // Per token: the state's decay and update (3 P N per head), its product with C (2 P N), the convolution.
    s.flops_per_token = 5 * heads * head_dim * state + 2 * conv * kernel;
    s.heads = heads;
    s.state_value_bytes = r.text("mamba_ssm_cache_dtype") == "float32" ? 4 : 2;
}

/// Kimi Delta Attention (Kimi Linear, arXiv 2510.26692): num_heads heads of head_dim for q, k and v, each
/// through its own short convolution; a per-channel decay from a low-rank projection (f_a, f_b), a gate
/// beta per head (b), an output gate of the same low rank (g_a, g_b) with a per-head RMS norm; a
/// head_dim x head_dim state per head. The weights as the published checkpoint names them (q/k/v_proj,
/// q/k/v_conv1d, f_a/f_b_proj, b_proj, g_a/g_b_proj, A_log, dt_bias, o_norm, o_proj; vLLM's
/// model_executor/models/kimi_linear.py); the state as vLLM holds it (layers/mamba/mamba_utils.py:
/// MambaStateShapeCalculator.kda_state_shape, the q, k and v convolutions' last kernel - 1 columns and
/// num_heads x head_dim x head_dim; MambaStateDtypeCalculator.kda_state_dtype, the convolutions in the
/// model's 16 bits, the recurrent state in float32).
void read_kda(Reader& r, ModelSpec& m, const json& c) {
    auto number = [&](const char* key) {
        auto it = c.find(key);
        if (it == c.end() || it->is_null()) r.fail(fmt::format("config.json has no 'linear_attn_config.{}'", key));
        if (it->is_boolean() || !it->is_number() || !(it->get<double>() > 0) || !std::isfinite(it->get<double>()))
            r.fail(fmt::format("config.json field 'linear_attn_config.{}' must be a number > 0", key));
        return it->get<double>();
    };
    bool full_rank_gate = false;
    for (const auto& [key, value] : c.items()) {
        if (key == "kda_layers" || key == "full_attn_layers" || key == "num_heads" || key == "head_dim" ||
            key == "short_conv_kernel_size" || key == "gate_lower_bound")  // the decay's bound: no size
            continue;
        if (key == "use_full_rank_gate" && value.is_boolean()) {
            full_rank_gate = value.get<bool>();
            continue;
        }
        r.unsupported(fmt::format("linear_attn_config.{}", key));  // what no reader knows
    }
    const double heads = number("num_heads"), dim = number("head_dim"), kernel = number("short_conv_kernel_size");
    if (heads > 1e5 || dim > 1e5 || kernel > 1e3)
        r.fail("config.json field 'linear_attn_config' has num_heads, head_dim or short_conv_kernel_size beyond any model");
    const double width = heads * dim, rank = dim;  // f_a and g_a project to head_dim
    StateLayerSpec& s = m.state;
    s.kind = StateKind::kda;
    s.out_width = width;
    if (full_rank_gate) {
        // Kimi-K3 (use_full_rank_gate): the output gate is one projection g_proj (hidden -> width) instead of
        // g_a, g_b (vLLM's KimiK3DeltaAttention: in_proj_qkvgfab packs q, k, v, g, f_a and b; f_b_proj apart).
        s.in_width = 5 * width + rank + heads;
        s.params = m.hidden * (4 * width + rank + heads) + rank * width + 3 * width * kernel + heads + width + dim +
                   width * m.hidden;
    } else {
        s.in_width = 5 * width + 2 * rank + heads;  // q, k, v, the decay and the output gate (and their low rank), beta
        s.params = m.hidden * (3 * width + 2 * rank + heads) + 2 * rank * width + 3 * width * kernel + heads + width +
                   dim + width * m.hidden;  // ... + f_b, g_b; the convolutions; A_log, dt_bias, o_norm; o_proj
    }
    s.conv_values = 3 * width * (kernel - 1);
    s.state_values = heads * dim * dim + s.conv_values;
    // Per token and head (the paper's recurrence S = (I - beta k k^T) Diag(alpha) S + beta k v^T, o = S^T q):
    // the per-channel decay (dk dv), k^T S and the rank-1 update (4 dk dv), S^T q (2 dk dv); the convolutions.
    s.flops_per_token = 7 * heads * dim * dim + 2 * 3 * width * kernel;
    s.heads = heads;
    s.state_value_bytes = 4;
    s.conv_value_bytes = 2;
}

/// DeepSeek-V3.2's DSA indexer: index_n_heads x index_head_dim queries from the query latent, one key per
/// token of index_head_dim, a weight per head.
void read_indexer(Reader& r, ModelSpec& m) {
    r.use("index_topk");
    IndexerSpec& x = m.indexer;
    x.topk = r.required({"index_topk"});
    x.heads = r.required({"index_n_heads"});
    x.head_dim = r.required({"index_head_dim"});
    const double q_in = m.q_lora_rank > 0 ? m.q_lora_rank : m.hidden;
    x.params = q_in * x.heads * x.head_dim + m.hidden * x.head_dim + 2 * x.head_dim + m.hidden * x.heads;
}

}  // namespace

// ---- The families ------------------------------------------------------------------------------------------


/// DeepSeek-V3.2 (and GLM-5's glm_moe_dsa): DeepSeek-V3 with sparse attention on every layer.
void read_dsa(Reader& r, ModelSpec& m) {
    read_transformer(r, m);
    if (!m.mla()) r.fail("config.json has no 'kv_lora_rank' (sparse attention is read on latent attention only)");
    read_indexer(r, m);
    for (LayerRun& run : m.runs) {
        run.attention = Attention::sparse;
        run.window = m.indexer.topk;
    }
}

/// DeepSeek-V4 (the DeepSeek-V4 report, arXiv 2606.19348; the checkpoint's inference/model.py; vLLM's
/// models/deepseek_v4.py and layers/deepseek_v4_attention.py): every layer attends to the last sliding_window
/// tokens of one 512-wide vector per token (key and value at once, one head: MQA) and, by compress_ratios[i],
/// to nothing else (0), to one compressed entry per 4 tokens of which its lightning indexer picks index_topk
/// (CSA, 4), or to all of its entries per 128 tokens (HCA, 128); each compressed layer's compressor pools
/// windows of raw vectors (overlapping for 4) into entries with a float32 state of the window being filled.
/// Queries from a low rank (q_lora_rank), a grouped low-rank output (o_groups x o_lora_rank), hyper-connections
/// (hc_mult streams), MoE on every layer (its first num_hash_layers route by a table of token ids: the same
/// experts a token, no other size); compress_ratios also lists the MTP layers after the model's.
void read_deepseek_v4(Reader& r, ModelSpec& m) {
    read_common(r, m);
    read_moe(r, m, 0);
    if (!m.moe()) r.fail("config.json has no 'n_routed_experts'");
    r.use("num_hash_layers");
    r.use("sliding_window");
    r.use("compress_ratios");
    r.use("hc_mult");
    r.use("o_lora_rank");
    m.kv_heads = r.number_or("num_key_value_heads", 1);
    m.head_dim = r.required({"head_dim"});
    m.q_lora_rank = r.required({"q_lora_rank"});
    m.o_lora_rank = r.required({"o_lora_rank"});
    m.o_groups = r.required({"o_groups"});
    if (std::fmod(m.heads, m.o_groups) != 0)
        r.fail(fmt::format("config.json field 'o_groups' ({}) must divide num_attention_heads ({})", m.o_groups, m.heads));
    m.shared_kv = true;
    m.hc_mult = r.number_or("hc_mult", 0);
    if (m.hc_mult != std::floor(m.hc_mult) || m.hc_mult > 64)
        r.fail("config.json field 'hc_mult' must be a whole number of at most 64");
    const double window = r.required({"sliding_window"});
    // The indexer of the CSA layers (inference/model.py, Indexer): wq_b from the query latent, weights_proj, and
    // its own compressor of ratio 4 over index_head_dim keys, kept as V3.2's are, FP8 and a 4-byte scale (vLLM's
    // DeepseekV4IndexerCache: 128 + 4 bytes; its FP4 option on Blackwell allocates as much and uses half).
    r.use("index_topk");
    IndexerSpec& x = m.indexer;
    x.topk = r.required({"index_topk"});
    x.heads = r.required({"index_n_heads"});
    x.head_dim = r.required({"index_head_dim"});
    x.params = m.q_lora_rank * x.heads * x.head_dim + m.hidden * x.heads +
               (4 * 2 * x.head_dim + 2 * m.hidden * 2 * x.head_dim + x.head_dim);
    x.state_values = 2 * (2 * 4) * (2 * x.head_dim);
    const json& ratios = r.list("compress_ratios");
    if (ratios.size() < static_cast<std::size_t>(m.layers))
        r.fail(fmt::format("config.json field 'compress_ratios' must have an entry per layer ({}), not {}", m.layers,
                           ratios.size()));
    auto kind_of = [&](std::size_t i) {
        const json& v = ratios[i];
        if (!v.is_number_integer()) r.fail("config.json field 'compress_ratios' must list whole numbers");
        const long long ratio = v.get<long long>();
        if (ratio == 0) return LayerRun{1, Attention::sliding, window, Mlp::moe};
        if (ratio != 4 && ratio != 128)  // the ratios the reference and vLLM implement (vLLM asserts 4 or 128)
            r.unsupported("compress_ratios", fmt::format("the ratio {}", ratio));
        return LayerRun{1, Attention::compressed, window, Mlp::moe, static_cast<double>(ratio),
                        ratio == 4 ? x.topk : 0};
    };
    m.runs = layers_of(m.layers, [&](int i) { return kind_of(static_cast<std::size_t>(i)); });
    // The MTP layer's own entry (0 in both published configs: a sliding layer), for the MTP draft.
    if (m.mtp_layers > 0 && ratios.size() > static_cast<std::size_t>(m.layers))
        m.mtp_attention = kind_of(static_cast<std::size_t>(m.layers));
}

/// Kimi Linear: Kimi Delta Attention on linear_attn_config's kda_layers, MLA on its full_attn_layers (both
/// numbered from 1, together every layer once), DeepSeek-V3's MoE (num_experts, num_shared_experts).
void read_kimi_linear(Reader& r, ModelSpec& m) {
    read_transformer(r, m);
    r.use("linear_attn_config");
    if (!m.mla()) r.fail("config.json has no 'kv_lora_rank' (Kimi Linear's full attention layers are MLA)");
    // Kimi-K3 (vLLM's models/kimi_k3/nvidia/model.py and mla.py): the MLA layers' output gate g_proj (hidden ->
    // heads x v_head_dim, sigmoid on the attention's output); a latent MoE, its routed experts on
    // routed_expert_hidden_size (routed_expert_down_proj, routed_expert_norm, routed_expert_up_proj around them),
    // the shared experts on the hidden state; Attention Residuals over blocks of attn_res_block_size layers.
    m.gated_attention = r.flag("mla_use_output_gate", false);
    r.use("routed_expert_hidden_size");
    m.expert_hidden = r.number_or("routed_expert_hidden_size", 0);
    if (m.expert_hidden > 0 && !m.moe()) r.unsupported("routed_expert_hidden_size", "a latent MoE without experts");
    r.use("attn_res_block_size");
    if (r.has("attn_res_block_size")) m.attn_res_block = period(r, "attn_res_block_size", 1, m.layers);
    auto it = r.j().find("linear_attn_config");
    if (it == r.j().end() || !it->is_object()) r.fail("config.json has no 'linear_attn_config' object");
    read_kda(r, m, *it);
    std::vector<int> kind(static_cast<std::size_t>(m.layers), 0);  // 1: KDA, 2: MLA
    auto mark = [&](const char* key, int k) {
        auto list = it->find(key);
        if (list == it->end() || !list->is_array())
            r.fail(fmt::format("config.json has no 'linear_attn_config.{}' list", key));
        for (const json& v : *list) {
            if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > static_cast<long long>(m.layers))
                r.fail(fmt::format("config.json field 'linear_attn_config.{}' must list layers from 1 to num_hidden_layers", key));
            int& slot = kind[static_cast<std::size_t>(v.get<long long>() - 1)];
            if (slot != 0)
                r.fail(fmt::format("config.json field 'linear_attn_config.{}' names layer {} twice or as both kinds", key,
                                   v.get<long long>()));
            slot = k;
        }
    };
    mark("kda_layers", 1);
    mark("full_attn_layers", 2);
    for (std::size_t i = 0; i < kind.size(); ++i)
        if (kind[i] == 0)
            r.fail(fmt::format("config.json field 'linear_attn_config' names layer {} in neither kda_layers nor "
                               "full_attn_layers", i + 1));
    const MoePlacement moe = moe_placement(r);
    m.runs = layers_of(m.layers, [&](int i) {
        const Attention a = kind[static_cast<std::size_t>(i)] == 1 ? Attention::state : Attention::full;
        return LayerRun{1, a, 0, m.moe() ? moe.of(i) : Mlp::dense};
    });
}

/// gpt-oss: layer_types of sliding and full attention, MoE on every layer (intermediate_size is an expert's).
void read_gpt_oss(Reader& r, ModelSpec& m) {
    read_common(r, m);
    m.ffn = r.required({"intermediate_size"});
    read_moe(r, m, m.ffn);
    r.use("layer_types");
    r.use("sliding_window");
    const double window = r.number_or("sliding_window", 0);
    const json& types = layer_types(r, m.layers);
    m.runs = layers_of(m.layers, [&](int i) {
        const Attention a = types.empty() ? Attention::full : attention_of_type(r, types[i]);
        if (a == Attention::state) r.unsupported("layer_types", "linear attention in gpt_oss");
        if (a == Attention::sliding && !(window > 0)) r.fail("config.json has no 'sliding_window'");
        return LayerRun{1, a, a == Attention::sliding ? window : 0, Mlp::moe};
    });
}

/// Gemma 3: sliding_window on all layers but every sliding_window_pattern-th (or layer_types). The published
/// multimodal configs (gemma-3-4b/12b/27b-it) leave vocab_size to Gemma3TextConfig's default, 262208.
void read_gemma3(Reader& r, ModelSpec& m) {
    read_common(r, m, 262208);
    m.ffn = r.required({"intermediate_size"});
    r.use("sliding_window");
    r.use("sliding_window_pattern");
    r.use("layer_types");
    const double window = r.required({"sliding_window"});
    const double pattern = period(r, "sliding_window_pattern", std::min(6.0, m.layers), m.layers);
    const json& types = layer_types(r, m.layers);
    m.runs = layers_of(m.layers, [&](int i) {
        Attention a = (i + 1) % static_cast<int>(pattern) == 0 ? Attention::full : Attention::sliding;
        if (!types.empty()) a = attention_of_type(r, types[i]);
        if (a == Attention::state) r.unsupported("layer_types", "linear attention in gemma3");
        return LayerRun{1, a, a == Attention::sliding ? window : 0, Mlp::dense};
    });
}

/// Llama 4: chunked local attention on the RoPE layers (no_rope_layers[i] = 1), global attention on the
/// others (every 4th by default); MoE every interleave_moe_layer_step-th layer with one shared expert.
void read_llama4(Reader& r, ModelSpec& m) {
    read_common(r, m);
    r.use("no_rope_layers");
    r.use("attention_chunk_size");
    r.use("interleave_moe_layer_step");
    const double expert_ffn = r.required({"intermediate_size"});
    m.ffn = r.number_or("intermediate_size_mlp", expert_ffn);
    read_moe(r, m, expert_ffn);
    m.expert_ffn = expert_ffn;
    if (m.moe()) {
        m.shared_experts = 1;
        m.shared_expert_ffn = expert_ffn;
    }
    const double chunk = r.number_or("attention_chunk_size", 0);
    const double step = period(r, "interleave_moe_layer_step", 1, m.layers);
    const json& rope = r.list("no_rope_layers");
    if (!rope.empty() && rope.size() != static_cast<std::size_t>(m.layers))
        r.fail("config.json field 'no_rope_layers' must have num_hidden_layers entries");
    m.runs = layers_of(m.layers, [&](int i) {
        const bool uses_rope = rope.empty() ? (i + 1) % 4 != 0 : rope[i] != 0;
        const Attention a = chunk > 0 && uses_rope ? Attention::chunked : Attention::full;
        const Mlp mlp = m.moe() && (i + 1) % static_cast<int>(step) == 0 ? Mlp::moe : Mlp::dense;
        return LayerRun{1, a, a == Attention::chunked ? chunk : 0, mlp};
    });
}

/// Qwen3-Next and Qwen3.5: Gated DeltaNet layers with full (gated) attention every
/// full_attention_interval-th layer (or layer_types); MoE (qwen3_next, qwen3_5_moe) or dense (qwen3_5).
void read_qwen3_next(Reader& r, ModelSpec& m) {
    read_common(r, m);
    m.ffn = r.number_or("intermediate_size", 0);
    read_moe(r, m, m.ffn);
    if (!m.moe() && !(m.ffn > 0)) r.fail("config.json has no 'intermediate_size'");
    read_gated_deltanet(r, m);
    r.use("full_attention_interval");
    r.use("layer_types");
    r.use("attn_output_gate");
    m.gated_attention = r.flag("attn_output_gate", true);  // Qwen3-Next's attention always has its gate
    const MoePlacement moe = moe_placement(r);
    const double interval = period(r, "full_attention_interval", std::min(4.0, m.layers), m.layers);
    const json& types = layer_types(r, m.layers);
    m.runs = layers_of(m.layers, [&](int i) {
        Attention a = (i + 1) % static_cast<int>(interval) == 0 ? Attention::full : Attention::state;
        if (!types.empty()) a = attention_of_type(r, types[i]);
        if (a == Attention::sliding) r.unsupported("layer_types", "sliding attention in this family");
        return LayerRun{1, a, 0, m.moe() ? moe.of(i) : Mlp::dense};
    });
}

/// Nemotron-H and Nemotron-3: hybrid_override_pattern, a character a layer: M Mamba2, * attention,
/// - MLP (ReLU², not gated), E MoE.
void read_nemotron_h(Reader& r, ModelSpec& m) {
    read_common(r, m);
    r.use("hybrid_override_pattern");
    r.use("sliding_window");
    if (r.number_or("sliding_window", 0) > 0) r.unsupported("sliding_window");
    m.ffn = r.number_or("intermediate_size", 0);
    read_moe(r, m, m.ffn);
    read_mamba2(r, m);
    const std::string act = r.text("mlp_hidden_act");
    m.gated_mlp = !(act.empty() || act == "relu2");
    const std::string pattern = r.text("hybrid_override_pattern");
    if (pattern.size() != static_cast<std::size_t>(m.layers))
        r.fail(fmt::format("config.json field 'hybrid_override_pattern' must have a character per layer ({}), not {}",
                           m.layers, pattern.size()));
    m.runs = layers_of(m.layers, [&](int i) {
        switch (pattern[i]) {
            case 'M': return LayerRun{1, Attention::state, 0, Mlp::none};
            case '*': return LayerRun{1, Attention::full, 0, Mlp::none};
            case '-': return LayerRun{1, Attention::none, 0, Mlp::dense};
            case 'E':
                if (!m.moe()) r.fail("config.json field 'hybrid_override_pattern' has MoE layers (E) but no 'n_routed_experts'");
                return LayerRun{1, Attention::none, 0, Mlp::moe};
            default:
                r.unsupported("hybrid_override_pattern", fmt::format("the layer '{}'", pattern[i]));
        }
    });
    if (m.layers_with(Mlp::dense) > 0 && !(m.ffn > 0)) r.fail("config.json has no 'intermediate_size'");
}

/// GPT-J and GPT-2 style names.
void read_gptj(Reader& r, ModelSpec& m) {
    m.hidden = r.required({"n_embd"});
    m.layers = layer_count(r, {"n_layer"});
    m.heads = r.required({"n_head"});
    m.kv_heads = m.heads;
    m.ffn = r.number_or("n_inner", 4 * m.hidden);
    m.gated_mlp = false;
    m.tied_embeddings = r.flag("tie_word_embeddings", false);
    m.vocab = r.required({"vocab_size"});
    m.runs = {{m.layers, Attention::full, 0, Mlp::dense}};
}

void read_mpt(Reader& r, ModelSpec& m) {
    m.hidden = r.required({"d_model"});
    m.layers = layer_count(r, {"n_layers"});
    m.heads = r.required({"n_heads"});
    m.kv_heads = m.heads;
    if (r.j().contains("attn_config") && r.j()["attn_config"].is_object()) {
        const json& a = r.j()["attn_config"];
        if (a.contains("kv_n_heads") && a["kv_n_heads"].is_number()) m.kv_heads = a["kv_n_heads"].get<double>();
    }
    m.ffn = r.number_or("expansion_ratio", 4) * m.hidden;
    m.gated_mlp = false;
    m.tied_embeddings = true;  // MPT always ties its embeddings
    m.vocab = r.required({"vocab_size"});
    m.runs = {{m.layers, Attention::full, 0, Mlp::dense}};
}

namespace {

/// MiniMax-M3's block-sparse attention (MSA) from its sparse_attention_config (transformers' MiniMaxM3VLIndexer;
/// vLLM's models/minimax_m3: common/indexer.py, common/ops/index_topk.py): on the layers of sparse_attention_freq an
/// indexer of sparse_num_index_heads query heads of sparse_index_dim (index_q_proj, index_q_norm) scores one shared
/// key per token (index_k_proj, index_k_norm; kept in a key-only side cache, 16 bits by default) and takes, per KV
/// head, the best sparse_topk_blocks blocks of sparse_block_size tokens (a block's score its best token's, "max"),
/// its first sparse_init_block and its last sparse_local_block blocks forced among them (vLLM scores them above any
/// other); the attention reads those blocks' K and V. The indexer only selects (sparse_disable_index_value 1 on
/// every sparse layer: no index value or output projection). Returns whether layer i is block-sparse, and fills
/// the indexer; `block` and `topk` the selection's sizes.
struct BlockSparse {
    std::vector<bool> layer;
    double block = 0, topk = 0;
};
BlockSparse read_block_sparse(Reader& r, ModelSpec& m) {
    BlockSparse b;
    b.layer.assign(static_cast<std::size_t>(m.layers), false);
    r.use("sparse_attention_config");
    auto it = r.j().find("sparse_attention_config");
    if (it == r.j().end() || it->is_null()) return b;
    if (!it->is_object()) r.fail("config.json field 'sparse_attention_config' must be an object");
    const json& c = *it;
    const std::string prefix = "sparse_attention_config.";
    for (const auto& item : c.items()) {
        const std::string& key = item.key();  // a name, not a structured binding: lambdas take it (clang)
        static constexpr std::array<const char*, 10> kKnown{
            "use_sparse_attention", "sparse_attention_freq", "sparse_disable_index_value", "sparse_block_size",
            "sparse_topk_blocks", "sparse_index_dim", "sparse_num_index_heads", "sparse_init_block",
            "sparse_local_block", "sparse_score_type"};
        if (std::find_if(kKnown.begin(), kKnown.end(), [&](const char* k) { return key == k; }) == kKnown.end())
            r.unsupported(prefix + key);  // what no reader knows
    }
    auto whole = [&](const char* key, std::optional<double> fallback) {
        auto v = c.find(key);
        if (v == c.end() || v->is_null()) {
            if (!fallback) r.fail(fmt::format("config.json has no '{}{}'", prefix, key));
            return *fallback;
        }
        if (v->is_boolean() || !v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < 0 ||
            v->get<double>() != std::floor(v->get<double>()) || v->get<double>() > 1e6)
            r.fail(fmt::format("config.json field '{}{}' must be a whole number from 0 to 1000000", prefix, key));
        return v->get<double>();
    };
    auto flags = [&](const char* key) {  // a 0/1 per layer; empty when absent
        std::vector<bool> f;
        auto v = c.find(key);
        if (v == c.end() || v->is_null()) return f;
        if (!v->is_array() || v->size() < b.layer.size())
            r.fail(fmt::format("config.json field '{}{}' must list an entry per layer ({})", prefix, key, m.layers));
        for (std::size_t i = 0; i < b.layer.size(); ++i) {
            const json& e = (*v)[i];
            if (!(e.is_number_integer() || e.is_boolean()))
                r.fail(fmt::format("config.json field '{}{}' must list 0 or 1 per layer", prefix, key));
            f.push_back(e.is_boolean() ? e.get<bool>() : e.get<long long>() != 0);
        }
        return f;
    };
    auto used = c.find("use_sparse_attention");
    if (used != c.end() && !used->is_null() && !used->is_boolean())
        r.fail(fmt::format("config.json field '{}use_sparse_attention' must be true or false", prefix));
    // Off (or absent, as the engines read it): every layer attends in full, the dense ablation.
    if (used == c.end() || used->is_null() || !used->get<bool>()) return b;
    if (auto score = c.find("sparse_score_type"); score != c.end() && !score->is_null() && *score != "max")
        r.unsupported(prefix + "sparse_score_type", fmt::format("the score type {}", score->dump()));
    b.block = whole("sparse_block_size", std::nullopt);
    b.topk = whole("sparse_topk_blocks", std::nullopt);
    const double init = whole("sparse_init_block", 0.0), local = whole("sparse_local_block", 1.0);
    IndexerSpec& x = m.indexer;
    x.heads = whole("sparse_num_index_heads", std::nullopt);
    x.head_dim = whole("sparse_index_dim", std::nullopt);
    if (!(b.block > 0) || !(b.topk > 0) || !(x.heads > 0) || !(x.head_dim > 0))
        r.fail(fmt::format("config.json fields '{0}sparse_block_size', '{0}sparse_topk_blocks', '{0}sparse_num_index_heads' "
                           "and '{0}sparse_index_dim' must be > 0", prefix));
    if (init + local > b.topk)
        r.unsupported(prefix + "sparse_local_block",
                      fmt::format("{} forced blocks (init and local) of {} picked", init + local, b.topk));
    // index_q_proj (split by heads in tensor parallel, as the KV heads), index_k_proj, index_q_norm, index_k_norm.
    x.split_params = m.hidden * x.heads * x.head_dim;
    x.params = x.split_params + m.hidden * x.head_dim + 2 * x.head_dim;
    x.heads_split = true;
    x.key_value_bytes = 2;
    x.key_scale_bytes = 0;
    x.topk = b.topk * b.block;
    const std::vector<bool> freq = flags("sparse_attention_freq"), score_only = flags("sparse_disable_index_value");
    for (std::size_t i = 0; i < b.layer.size(); ++i) {
        b.layer[i] = freq.empty() || freq[i];  // no list: every layer (as vLLM and FreeToken read it)
        if (b.layer[i] && (score_only.empty() || !score_only[i]))
            r.unsupported(prefix + "sparse_disable_index_value",
                          fmt::format("the index value and output projections of layer {} (from 0)", i));
    }
    return b;
}

}  // namespace

/// MiniMax-M3 (minimax_m3; its multimodal minimax_m3_vl, whose text_config is read; transformers'
/// minimax_m3_vl_text): GQA with per-head norms on every layer, block-sparse (read_block_sparse) where
/// sparse_attention_freq says; a dense MLP of dense_intermediate_size where moe_layer_freq[i] is 0, else MoE of
/// num_local_experts experts of intermediate_size (vLLM's FusedMoE and transformers take the experts' width from
/// it) and n_shared_experts of shared_intermediate_size; SwiGLU-OAI (gated). num_nextn_predict_layers MTP layers
/// are counted; num_mtp_modules (the drafter's modules, 7, that vLLM cycles through one a draft step) is not.
void read_minimax_m3(Reader& r, ModelSpec& m) {
    read_common(r, m);
    if (r.flag("attention_output_gate", false)) r.unsupported("attention_output_gate");
    const double expert_ffn = r.required({"intermediate_size"});
    r.use("dense_intermediate_size");
    m.ffn = r.number_or("dense_intermediate_size", expert_ffn);
    read_moe(r, m, expert_ffn);
    if (m.moe() && m.expert_ffn != expert_ffn)
        r.fail(fmt::format("config.json field 'moe_intermediate_size' ({}) is not intermediate_size ({}), the experts' "
                           "width MiniMax-M3 reads", m.expert_ffn, expert_ffn));
    r.use("moe_layer_freq");
    const json& moe_freq = r.list("moe_layer_freq");
    if (!moe_freq.empty() && moe_freq.size() != static_cast<std::size_t>(m.layers))
        r.fail("config.json field 'moe_layer_freq' must have num_hidden_layers entries");
    const BlockSparse sparse = read_block_sparse(r, m);
    r.use("layer_types");
    const json& types = layer_types(r, m.layers);
    m.runs = layers_of(m.layers, [&](int i) {
        const auto at = static_cast<std::size_t>(i);
        bool moe = m.moe() && i >= m.first_dense_layers;
        if (!moe_freq.empty()) {
            if (!moe_freq[at].is_number_integer()) r.fail("config.json field 'moe_layer_freq' must list 0 or 1 per layer");
            moe = moe_freq[at].get<long long>() != 0;
            if (moe && !m.moe()) r.fail("config.json field 'moe_layer_freq' has MoE layers but no 'num_local_experts'");
        }
        // transformers' MiniMaxM3VLTextConfig writes layer_types from sparse_attention_freq: it must agree.
        if (!types.empty()) {
            const bool typed = types[at].is_string() && types[at].get<std::string>() == "minimax_m3_sparse";
            if (!typed && attention_of_type(r, types[at]) != Attention::full)
                r.unsupported("layer_types", fmt::format("the layer type {}", types[at].dump()));
            if (typed != sparse.layer[at])
                r.fail(fmt::format("config.json field 'layer_types' says layer {} (from 0) is {}, sparse_attention_config "
                                   "that it is not", i, typed ? "minimax_m3_sparse" : "full_attention"));
        }
        const Mlp mlp = moe ? Mlp::moe : Mlp::dense;
        if (!sparse.layer[at]) return LayerRun{1, Attention::full, 0, mlp};
        return LayerRun{1, Attention::block_sparse, sparse.topk * sparse.block, mlp, sparse.block, sparse.topk};
    });
}

}  // namespace roofline::hf
