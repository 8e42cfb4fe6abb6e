// Catalogs of GPUs and models. The built-in ones are data files of the repository
// (libroofline/catalog/*.json, every number with its source) embedded at build time: no formula reads
// a file. A host program may add entries: a Hugging Face config.json, or a catalog of its own, given
// as text (the library does no I/O).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/dtype.hpp"

namespace roofline {

/// A GPU: dense peaks per dtype, memory, the links of its scale-up domain and of the network beyond it.
struct GpuSpec {
    std::string id, name;
    std::string vendor;  ///< as the catalog writes it ("NVIDIA", "AMD"; empty: not said): a profile's variant per vendor
    /// As the catalog writes it ("Hopper", "Blackwell", "Blackwell (GB202)"; empty: not said): the kernel models'
    /// key (kernels.hpp)
    std::string architecture;
    /// Dense peak per compute dtype, TFLOP/s (TOPS for int8/int4); 0 where the GPU has no such mode.
    /// fp4: the block-scaled FP4 of the matrix units (NVFP4 and MXFP4 on Blackwell, MXFP4 on CDNA 4).
    double fp32 = 0, tf32 = 0, bf16 = 0, fp16 = 0, fp8 = 0, int8 = 0, int4 = 0, fp4 = 0;
    /// The FP4 formats the matrix units take at the fp4 peak (when fp4 > 0); another FP4 format dequantizes.
    bool fp4_nvfp4 = true, fp4_mxfp4 = true;
    double hbm_tbs = 0;           ///< memory bandwidth, TB/s
    double hbm_gb = 0;            ///< memory, GB, as the datasheet states it
    /// The memory the driver reports (nvidia-smi's total), GB, where the catalog records it (0: not recorded): what an
    /// engine takes its share of (vLLM's gpu_memory_utilization is of this total). An "80 GB" H100 SXM reports
    /// 81,559 MiB, 85.52 GB: HBM parts report about their datasheet figure in GiB. memory_bytes() reads it.
    double memory_reported_gb = 0;
    double l2_mb = 0;             ///< L2 cache, MB (0: not published)
    double interconnect_tbs = 0;  ///< GPU-to-GPU bandwidth per direction within the scale-up domain, TB/s
    /// Example on-demand cloud price of one GPU for an hour, USD (0: none): of the kind `price_offer` names.
    double usd_per_gpu_hour = 0;
    /// The kind of on-demand offer usd_per_gpu_hour is: "server" (an instance of a whole server, or of a rack's
    /// tray, per GPU-hour) or "gpu" (a single-GPU instance); never a serverless price. Empty: not said.
    std::string price_offer;
    /// Example reserved (committed) price of one GPU for an hour, USD, for a term of reserved_years (0: none).
    double usd_per_gpu_hour_reserved = 0;
    double reserved_years = 0;  ///< the term of usd_per_gpu_hour_reserved, years (0: none)
    /// Example purchase price of one server (or rack) of server_gpus GPUs, USD (0: none): the owned basis amortizes it.
    double usd_per_server = 0;
    /// GPUs that reach each other at interconnect_tbs: 8 for an HGX/OAM node or a server of PCIe cards,
    /// 72 for an NVL72 rack, 2 for an NVLink-bridged pair, 1 for a GPU alone (8 where a catalog omits it).
    double scaleup_gpus = 8;
    /// GPUs of the server (or rack) the GPU is bought or rented in: 8 for an HGX/OAM node or a server of PCIe cards,
    /// 72 for an NVL72 rack, 1 for a desktop card (scaleup_gpus where a catalog omits it). The planner rents whole ones.
    double server_gpus = 8;
    double scaleout_tbs = 0;      ///< network bandwidth per GPU per direction beyond the domain, TB/s (0: none)
    /// The scale-up domain's switches reduce (NVLink SHARP on third-generation NVSwitch and later, which NCCL's NVLS
    /// all-reduce uses): an all-reduce within the domain can send half a ring's bytes.
    bool switch_reduction = false;
    double power_w = 0;           ///< board power per GPU (TDP/TBP), W (0: not published)
    /// Bandwidth per direction between one GPU and its host's memory (PCIe, NVLink-C2C), TB/s: what a KV cache
    /// offloaded to host memory comes back over (0: none recorded, or no host memory apart).
    double host_link_tbs = 0;
    /// Where the GPU is sold to run: "datacenter", "workstation" (a desk's: DGX Spark) or "consumer" (GeForce, whose
    /// driver license rules out datacenter deployment). The planner plans on datacenter GPUs unless asked for others;
    /// a catalog entry that does not say is a datacenter GPU.
    std::string segment = "datacenter";
    bool datacenter() const noexcept { return segment == "datacenter"; }
    /// The memory's technology: "HBM", "GDDR" or "LPDDR" (absent: "HBM"), which sets the share of the board's power a
    /// step that streams memory at full bandwidth draws (power.hpp).
    std::string memory_kind = "HBM";
    double idle_w = 0;  ///< W drawn with nothing running, measured (0: not measured; power.hpp's idle_fraction)
    /// W per GPU the rest of its server draws (CPUs, memory, NICs, switches, fans): the system's published maximum
    /// less its GPUs' board power, per GPU, an upper estimate (0: not published; power.hpp's host_fraction).
    double host_w = 0;
    std::string source;

    /// The dense peak the matrix units reach in this dtype, falling back to fp16 where the GPU lacks it
    /// (nvfp4 and mxfp4 at the fp4 peak where the GPU takes that format, else dequantized to fp16).
    double peak_tflops(DType compute) const noexcept;
};

/// How a layer's token mixer reads the context (docs/formulas.md, "Layer kinds").
enum class Attention : unsigned char {
    none,     ///< no token mixer (a layer that is only an MLP: Nemotron-H's '-' and 'E' layers)
    full,     ///< every cached token: MHA, GQA, MQA, or MLA's latent when the model has MLA
    sliding,  ///< the last `window` tokens (gpt-oss, Gemma 2/3, Mistral)
    chunked,  ///< the tokens of its own chunk of `window` tokens (Llama 4's local layers)
    sparse,   ///< `window` = top-k tokens an indexer picks over the whole context (DeepSeek-V3.2 DSA)
    state,    ///< a recurrent state of fixed size, no KV cache (Gated DeltaNet, Mamba2)
    /// DeepSeek-V4's compressed attention: the last `window` tokens, and one compressed entry per `ratio` tokens
    /// of the whole context, all of them (HCA, ratio 128) or the `topk` an indexer picks (CSA, ratio 4)
    compressed,
    /// MiniMax-M3's block-sparse attention (MSA): the cache holds every token's K and V, and an indexer's key;
    /// each KV head reads the `topk` blocks of `ratio` tokens its indexer picks (the local block among them),
    /// `window` = topk x ratio tokens at most
    block_sparse,
};
/// The MLP of a layer.
enum class Mlp : unsigned char { none, dense, moe };
std::string_view to_string(Attention a) noexcept;
std::string_view to_string(Mlp m) noexcept;

/// `count` consecutive layers of one kind: the model is a list of them, in order.
struct LayerRun {
    double count = 0;
    Attention attention = Attention::full;
    double window = 0;  ///< tokens: sliding window, chunk, or top-k (0 for the others)
    Mlp mlp = Mlp::dense;
    double ratio = 0;   ///< compressed: tokens per compressed entry; block_sparse: tokens per block (0 for the others)
    double topk = 0;    ///< compressed: the entries an indexer picks (0: all of them); block_sparse: the blocks
};

/// FLOPs of a gated DeltaNet's recurrence (Qwen3-Next, Qwen3.5) per token, one layer: per value head of a k_dim x
/// v_dim state, its decay and rank-1 update (4 k_dim v_dim) and its product with the query (2 k_dim v_dim). The
/// catalog's count (StateLayerSpec::flops_per_token, with the convolution's), and the measured kernels' (issue #44).
constexpr double gated_deltanet_flops_per_token(double v_heads, double k_dim, double v_dim) noexcept {
    return 6 * v_heads * k_dim * v_dim;
}

/// The kinds of linear-attention and state-space layers: a gated DeltaNet's and KDA's delta rule (their recurrence
/// in kernels of its own, timed at Profile::state_compute_efficiency) and Mamba-2's scan.
enum class StateKind : unsigned char { none, gated_deltanet, kda, mamba2 };

/// A delta rule's recurrence (gated_deltanet, kda), not Mamba-2's scan.
constexpr bool delta_rule(StateKind k) noexcept { return k == StateKind::gated_deltanet || k == StateKind::kda; }

/// The linear-attention or state-space layers of a model (all of a model's are alike).
struct StateLayerSpec {
    StateKind kind = StateKind::none;
    double params = 0;           ///< parameters of one layer (projections, convolution, norms)
    double state_values = 0;     ///< values of one sequence's recurrent and convolution state, one layer
    double flops_per_token = 0;  ///< FLOPs of the recurrence and the convolution per token, one layer
    double heads = 0;            ///< the heads that tensor parallelism splits
    double state_value_bytes = 2;  ///< bytes per state value (16 bits, unless the config asks for float32)
    /// Of state_values, those of the convolution kept in conv_value_bytes instead (0, 0: none apart; KDA's
    /// recurrent state is float32 and its convolution's in 16 bits, as vLLM keeps them).
    double conv_values = 0, conv_value_bytes = 0;
    /// Bytes of one sequence's state, one layer.
    double state_bytes() const noexcept {
        return (state_values - conv_values) * state_value_bytes + conv_values * conv_value_bytes;
    }
    double in_width = 0, out_width = 0;  ///< widths of its input projection's output and of its output projection's input
};

/// The indexer of sparse attention (DeepSeek-V3.2 DSA, MiniMax-M3's MSA): scores every cached token with its own
/// small keys (one key of head_dim per token, shared by its `heads` query heads).
struct IndexerSpec {
    double heads = 0, head_dim = 0, topk = 0;
    double params = 0;  ///< its projections (and DeepSeek-V4's its compressor), one layer
    double state_values = 0;     ///< float32 values of one sequence's compressor state, one layer (V4)
    /// Bytes per key value and per key's scale: FP8 values and a 4-byte scale, as DeepSeek stores them (1, 4);
    /// MiniMax-M3's keys in 16 bits, no scale (2, 0: vLLM's indexer_kv_dtype "bf16", its default).
    double key_value_bytes = 1, key_scale_bytes = 4;
    /// Its query heads split over an attention group's GPUs as the KV heads are (MiniMax-M3: each GPU at least one,
    /// with split_params, those of its parameters split with them), or replicated on each (false: DeepSeek's).
    bool heads_split = false;
    double split_params = 0;
    /// Bytes of one token's indexer key, one layer.
    double key_bytes() const noexcept { return head_dim > 0 ? head_dim * key_value_bytes + key_scale_bytes : 0; }
    /// Its scores computed in FP8, as its keys are stored (DeepSeek's indexer quantizes queries and keys to FP8 and
    /// scores them with fp8_index, DeepGEMM's fp8_mqa_logits); MiniMax-M3's 16-bit keys, in 16 bits.
    bool fp8_scores() const noexcept { return key_value_bytes == 1; }
};

/// A published checkpoint of a model: its Hugging Face id and the format of each group of weights.
struct Checkpoint {
    std::string id;  ///< e.g. "nvidia/DeepSeek-R1-FP4"
    /// Its linear layers (attention, dense MLPs, shared experts), its routed experts, its embedding and lm_head.
    DType linear = DType::bf16, experts = DType::bf16, embedding = DType::bf16;
    std::string source;  ///< where the formats are read (the checkpoint's config or model card)
};

/// A transformer's architecture, as the roofline needs it.
struct ModelSpec {
    std::string id, name, source;
    double layers = 0, hidden = 0, heads = 0, kv_heads = 0, head_dim = 0;
    double ffn = 0;          ///< MLP width of a dense layer
    double vocab = 0;
    bool tied_embeddings = false;
    bool gated_mlp = true;   ///< three matrices (SwiGLU/GeGLU) or two (GELU, ReLU² MLP)
    bool gated_attention = false;  ///< an output gate as wide as the queries (Qwen3-Next): q_proj twice as wide
    // Mixture of experts (experts == 0: dense).
    double experts = 0, experts_per_token = 0, shared_experts = 0;
    double expert_ffn = 0;        ///< MLP width of one expert
    double shared_expert_ffn = 0; ///< MLP width of one shared expert (0: as an expert)
    double first_dense_layers = 0;  ///< leading layers that stay dense (DeepSeek-V3: 3)
    // Multi-head latent attention (kv_lora_rank == 0: none).
    double q_lora_rank = 0, kv_lora_rank = 0, qk_nope_head_dim = 0, qk_rope_head_dim = 0, v_head_dim = 0;
    // DeepSeek-V4's attention (shared_kv): low-rank queries, one vector per token that is both key and value (the
    // cache holds head_dim values per token, not 2), a grouped low-rank output (o_groups x o_lora_rank).
    bool shared_kv = false;
    double o_lora_rank = 0, o_groups = 0;
    double hc_mult = 0;           ///< hyper-connections (DeepSeek-V4's mHC): a residual stream of hc_mult copies
    double expert_hidden = 0;     ///< latent MoE (Kimi-K3): the routed experts' width (0: hidden)
    double attn_res_block = 0;    ///< Attention Residuals (Kimi-K3): layers per block (0: none)
    // Sliding-window attention: `sliding_layers` of the layers see at most `sliding_window` tokens.
    double sliding_window = 0, sliding_layers = 0;
    double params_b_reported = 0, active_params_b_reported = 0;  ///< as published (0: not published)
    /// Tokens of context a sequence may hold, prompt and answer: config.json's max_position_embeddings (n_positions,
    /// max_seq_len), or its rope_scaling's factor x original_max_position_embeddings where that is larger; 0: the
    /// config gives none. A context beyond it is refused by every formula (since 0.14).
    double context_window = 0;
    /// The layers in order, by runs of one kind (the importer always fills it, then calls count_layers()).
    std::vector<LayerRun> runs;
    /// What a step needs of the runs, counted once by count_layers(): layers of each attention and MLP kind,
    /// norms, and the attending layers grouped by kind and window (whatever their order and MLP).
    std::array<double, 8> attention_count{};
    std::array<double, 3> mlp_count{};
    double norm_count = 0;
    std::vector<LayerRun> attention_groups;
    void count_layers();
    StateLayerSpec state;  ///< the layers of Attention::state
    IndexerSpec indexer;   ///< the layers of Attention::sparse and block_sparse, and the compressed ones with a top-k
    double indexer_layers = 0;  ///< layers with an indexer (counted by count_layers())
    /// Sources the Attention Residuals of one token read, summed over the layers and the output (0: none;
    /// counted by count_layers()).
    double attn_res_reads = 0;
    double mtp_layers = 0; ///< multi-token-prediction layers: counted in the parameters, not in a step
    /// The MTP layers' token mixer where the config says it (DeepSeek-V4's compress_ratios after the layers';
    /// count 0: as the last layer that attends).
    LayerRun mtp_attention{0, Attention::full, 0, Mlp::none};
    /// The formats of the published checkpoint (weight format "native"): its linear layers (attention,
    /// dense MLPs, shared experts), its routed experts, and its embedding and lm_head.
    DType native_linear = DType::bf16, native_experts = DType::bf16, native_embedding = DType::bf16;
    /// The config text the model was read from, whole in itself (ROOFLINE_MODEL_CONFIG): config.json as compact
    /// JSON, with the checkpoint's hf_quant_config.json, where one came with it, as its quantization_config
    /// (quant_method "modelopt"), so that model_from_hf_config(*config) reads this model again. Shared by the
    /// copies (a copy costs a reference count); null only for a ModelSpec made by hand.
    std::shared_ptr<const std::string> config;
    /// The Hugging Face id of the checkpoint the config is from (the catalog's hf_repo; empty for a user's model).
    std::string hf_repo;
    /// The other checkpoints of the model published in other formats (models.json "checkpoints"), each with its
    /// source; shared by the copies; null where none is listed.
    std::shared_ptr<const std::vector<Checkpoint>> quantized;
    /// The published checkpoints: the config's own first (formats native_*; its id hf_repo, else the model's id),
    /// then the quantized ones.
    std::vector<Checkpoint> published() const;

    bool moe() const noexcept { return experts > 0; }
    bool mla() const noexcept { return kv_lora_rank > 0; }
    /// Layers of each kind of MLP, and layers whose token mixer keeps a KV cache (not `none`, not `state`).
    double moe_layers() const noexcept { return layers_with(Mlp::moe); }
    double layers_with(Mlp kind) const noexcept { return mlp_count[static_cast<std::size_t>(kind)]; }
    double layers_with(Attention kind) const noexcept { return attention_count[static_cast<std::size_t>(kind)]; }
    double attention_layers() const noexcept {
        return layers - layers_with(Attention::none) - layers_with(Attention::state);
    }
    /// Query/key width per head, and value width per head.
    double qk_dim() const noexcept { return mla() ? qk_nope_head_dim + qk_rope_head_dim : head_dim; }
    double v_dim() const noexcept { return mla() ? v_head_dim : head_dim; }
    /// KV cache values per token per layer (K and V; MLA: the latent and the RoPE key; shared_kv: one vector).
    double kv_values_per_token_layer() const noexcept;
    /// A compressed layer's compressor (its projections, position biases and norm), and the float32 values of
    /// one sequence's compressor state, its indexer's included; 0 for the other kinds.
    double compressor_params(const LayerRun& r) const noexcept;
    double compressor_state_values(const LayerRun& r) const noexcept;
    /// Per layer and once for the model: the hyper-connections' and the Attention Residuals' parameters.
    double mixing_params_per_layer() const noexcept;
    double mixing_params_head() const noexcept;
    /// The routed experts' width: the latent's (Kimi-K3), else hidden.
    double expert_width() const noexcept { return expert_hidden > 0 ? expert_hidden : hidden; }
    /// Parameters of one layer's attention, of a dense MLP, of one expert.
    double attention_params() const noexcept;
    double dense_mlp_params() const noexcept { return (gated_mlp ? 3 : 2) * hidden * ffn; }
    double expert_params() const noexcept { return (gated_mlp ? 3 : 2) * expert_width() * expert_ffn; }
    double shared_expert_params() const noexcept {
        return (gated_mlp ? 3 : 2) * hidden * (shared_expert_ffn > 0 ? shared_expert_ffn : expert_ffn);
    }
    /// The router, and a latent MoE's projections to and from the latent with its norm (replicated, like it).
    double router_params() const noexcept {
        return hidden * experts + (expert_hidden > 0 ? 2 * hidden * expert_hidden + expert_hidden : 0);
    }
    double norm_params() const noexcept { return 2 * hidden; }
    /// All parameters, and those one token uses (MoE: experts_per_token experts; the embedding table
    /// counts as the one row a token reads), billions. MTP layers are counted in params_b only.
    double params_b() const noexcept;
    double active_params_b() const noexcept;
};

/// Reads a model from the text of a Hugging Face config.json (src/hf_config.cpp, src/hf_families.cpp: one reader per
/// model_type family), and optionally the text of the checkpoint's hf_quant_config.json (empty: none).
/// Throws Error(invalid_argument, argument_name) with a message that names the field that is missing,
/// wrong, or not supported: a config is never read as something else.
ModelSpec model_from_hf_config(std::string_view json_text, const std::string& id, const std::string& argument_name,
                               std::string_view quant_config_text = {});

/// The draft that a model's own multi-token-prediction layers make (speculative decoding with draft_model
/// "mtp"): its mtp_layers decoder layers of the kind of its last layer, with its embedding and lm_head. The
/// projection of the two hidden states (2 hidden^2 per layer) is left out. Requires mtp_layers > 0.
ModelSpec mtp_draft(const ModelSpec& target);

/// The memory of one GPU an engine takes its share of, bytes: memory_reported_gb where the catalog records it, else
/// hbm_gb (the datasheet's; for HBM parts about 7% under what the driver reports). The one place the serving model,
/// the planner and the memory formulas read a GPU's capacity from (docs/formulas.md, the GPU catalog's fields).
double memory_bytes(const GpuSpec& g) noexcept;
/// The same memory in GB (1e9 bytes), as the planner and the formulas report it.
double memory_gb(const GpuSpec& g) noexcept;

/// The GPU or model of that id (case-insensitive): the built-ins, then those a host added.
std::optional<GpuSpec> find_gpu(std::string_view id);
std::optional<ModelSpec> find_model(std::string_view id);
/// The same entry without a copy (nullptr when none): it stays valid while the pointer is held, even if a
/// host replaces the entry meanwhile. A built-in entry costs no reference count; nothing is allocated.
std::shared_ptr<const GpuSpec> gpu_entry(std::string_view id);
std::shared_ptr<const ModelSpec> model_entry(std::string_view id);
std::vector<std::string> gpu_ids();
std::vector<std::string> model_ids();
/// A number that changes whenever a host adds or replaces entries (0 while none has): what a lookup found
/// by an id is still what it finds while this number stays the same.
std::uint64_t catalog_generation() noexcept;

/// Adds (or replaces) a model read from a Hugging Face config.json (and its hf_quant_config.json, if any),
/// under `id`.
void add_model_from_hf_config(const std::string& id, std::string_view json_text, std::string_view quant_text = {});
/// Adds (or replaces) the entries of a catalog in the format of the built-in files: {"gpus": [...],
/// "models": [...]} (either may be absent). Returns how many entries were added.
std::size_t add_catalog(std::string_view json_text);

/// The names of the numeric fields that ROOFLINE_GPU and ROOFLINE_MODEL give, in catalog order.
std::vector<std::string> gpu_field_names();
std::vector<std::string> model_field_names();
/// A field of a GPU or a model by its name (case-insensitive); nullopt for an unknown name.
std::optional<double> gpu_field(const GpuSpec& gpu, std::string_view field);
std::optional<double> model_field(const ModelSpec& model, std::string_view field);

}  // namespace roofline
