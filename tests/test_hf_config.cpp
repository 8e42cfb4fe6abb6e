// The importer's family readers on real config.json files (tests/data/hf-configs/, each with its source in
// sources.json): parameter counts against the published ones, the cache at two contexts and one layer of each
// kind in a decode step against hand computations, the checkpoints' formats, and refusals that name the field;
// and a config.json imported through the C ABI, as a host imports one.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <roofline.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "roofline/catalog.hpp"
#include "roofline/error.hpp"
#include "roofline/formulas.hpp"
#include "roofline/operators.hpp"

#include "support/c_api_reads.hpp"

using json = nlohmann::json;
using namespace roofline;
using Catch::Matchers::Contains;

namespace {

using c_api_reads::gpu;
using c_api_reads::step;

const std::filesystem::path kDir = ROOFLINE_HF_CONFIGS;

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    REQUIRE(in);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

ModelSpec imported(const std::string& id) {
    const auto quant = kDir / id / "hf_quant_config.json";
    return model_from_hf_config(slurp(kDir / id / "config.json"), id, "config_json",
                                std::filesystem::exists(quant) ? slurp(quant) : std::string());
}

json config(const std::string& id) {
    std::string text = slurp(kDir / id / "config.json");
    // Python's Infinity (Nemotron-H's time_step_limit), as the importer reads it: null.
    for (std::size_t at; (at = text.find("Infinity")) != std::string::npos;) text.replace(at, 8, "null");
    json j = json::parse(text);
    return j.contains("text_config") && !j.contains("hidden_size") ? j["text_config"] : j;
}

const GpuSpec& h200() {
    static const GpuSpec g = *find_gpu("h200");
    return g;
}

const Operator& op(const std::vector<Operator>& ops, const std::string& name) {
    for (const Operator& o : ops)
        if (o.name == name) return o;
    FAIL("no operator " << name);
    return ops.front();
}

std::string refusal(const std::string& text, const std::string& id = "refused") {
    try {
        model_from_hf_config(text, id, "config_json");
    } catch (const Error& e) {
        CHECK(e.argument() == "config_json");
        return e.what();
    }
    FAIL("imported: " << text);
    return {};
}

/// The configs that need what no reader reads, and the field their refusal names (none now: MiniMax-M3's
/// sparse_attention_config was the last, read since block-sparse attention).
const std::map<std::string, std::string> kRefused = {};

}  // namespace

TEST_CASE("every committed config.json imports with its published parameter counts, or is refused naming its field",
          "[hf]") {
    const json sources = json::parse(slurp(kDir / "sources.json"));
    int imported_count = 0, refused_count = 0;
    for (const json& s : sources["models"]) {
        const std::string id = s["id"];
        if (!std::filesystem::exists(kDir / id / "config.json")) continue;  // sources.json says why
        INFO(id);
        if (auto r = kRefused.find(id); r != kRefused.end()) {
            const std::string why = refusal(slurp(kDir / id / "config.json"), id);
            CHECK_THAT(why, Contains("config.json field '" + r->second + "' is not supported (model_type '"));
            ++refused_count;
            continue;
        }
        const ModelSpec m = imported(id);
        ++imported_count;
        CHECK(m.layers == config(id)["num_hidden_layers"].get<double>());
        double counted = 0;
        for (const LayerRun& run : m.runs) counted += run.count;
        CHECK(counted == m.layers);
        // Total within 3%; active (what one token reads, the embedding table one row) within 12% (issue 17),
        // but Qwen3-Next's "3B activated", its name's figure: its layers give 3.56B with the lm_head.
        if (s["params_b_reported"].is_number())
            CHECK(m.params_b() == Approx(s["params_b_reported"].get<double>()).epsilon(0.03));
        if (s["active_params_b_reported"].is_number()) {
            const double active = s["active_params_b_reported"].get<double>();
            if (id == "qwen3-next-80b-a3b")
                CHECK((m.active_params_b() > active && m.active_params_b() < 1.2 * active));
            else
                CHECK(m.active_params_b() == Approx(active).epsilon(0.12));
        }
    }
    CHECK(imported_count == 26);  // the 26 folders
    CHECK(refused_count == static_cast<int>(kRefused.size()));
}

TEST_CASE("the layers of each family: kinds, windows and MLPs per layer", "[hf]") {
    SECTION("gpt-oss: layer_types alternate a 128-token window and full attention; MoE on every layer") {
        const ModelSpec m = imported("gpt-oss-20b");
        CHECK(m.layers_with(Attention::sliding) == 12);
        CHECK(m.layers_with(Attention::full) == 12);
        CHECK(m.sliding_window == 128);
        CHECK(m.moe_layers() == 24);
        CHECK(m.experts == 32);
        CHECK(m.experts_per_token == 4);  // spelled experts_per_token
    }
    SECTION("Llama 4 (text_config): chunks of 8192 on the RoPE layers, every 4th layer global") {
        const ModelSpec m = imported("llama-4-scout");
        CHECK(m.layers_with(Attention::chunked) == 36);
        CHECK(m.layers_with(Attention::full) == 12);
        CHECK(m.runs.front().window == 8192);
        CHECK(m.runs[3].attention == Attention::full);  // layer 4
        CHECK(m.shared_experts == 1);
        CHECK(m.ffn == config("llama-4-scout")["intermediate_size_mlp"].get<double>());
    }
    SECTION("Llama 4 Maverick: MoE and a shared expert on every 2nd layer (interleave_moe_layer_step 2), dense between") {
        const ModelSpec m = imported("llama-4-maverick");
        CHECK(m.layers_with(Attention::chunked) == 36);  // no no_rope_layers: NoPE (global) on every 4th layer
        CHECK(m.layers_with(Attention::full) == 12);
        CHECK(m.moe_layers() == 24);
        CHECK(m.layers_with(Mlp::dense) == 24);
        CHECK(m.experts == 128);
        CHECK(m.experts_per_token == 1);
        CHECK(m.shared_experts == 1);
        CHECK(m.ffn == 16384);  // intermediate_size_mlp: the dense layers'
        CHECK(m.expert_ffn == 8192);
        CHECK(m.shared_expert_ffn == 8192);
        // Counted from 1: layer 1 chunked and dense, layer 2 chunked and MoE, layer 4 global and MoE.
        CHECK(m.runs[0].attention == Attention::chunked);
        CHECK(m.runs[0].mlp == Mlp::dense);
        CHECK(m.runs[1].mlp == Mlp::moe);
        CHECK(m.runs[3].attention == Attention::full);
        CHECK(m.runs[3].mlp == Mlp::moe);
        CHECK(!m.tied_embeddings);
    }
    SECTION("Gemma 3 27B (the catalog's; no whole config.json found): a 1024-token window on 5 of every 6 layers") {
        const ModelSpec m = *find_model("gemma-3-27b");
        CHECK(m.layers_with(Attention::sliding) == 52);
        CHECK(m.layers_with(Attention::full) == 10);  // layers 6, 12, ..., 60 (sliding_window_pattern's default 6)
        CHECK(m.sliding_window == 1024);
        CHECK(m.runs[0].count == 5);
        CHECK(m.runs[1].attention == Attention::full);
        CHECK(m.runs.back().count == 2);  // layers 61 and 62
        CHECK(m.vocab == 262208);         // Gemma3TextConfig's default: the published text_config leaves it out
        CHECK(m.tied_embeddings);
        CHECK(m.head_dim == 128);         // not hidden_size / heads (168)
        // The Gemma 3 report's Table 1: 1,416M embedding and 25,600M non-embedding parameters (the 417M vision
        // encoder is not the text model's).
        CHECK(m.params_b() == Approx(1.416 + 25.600).epsilon(0.01));
        // Its text_config alone (model_type gemma3_text): the same defaults, so the same model.
        const ModelSpec text = model_from_hf_config(
            R"({"model_type": "gemma3_text", "head_dim": 128, "hidden_size": 5376, "intermediate_size": 21504,
                "num_attention_heads": 32, "num_hidden_layers": 62, "num_key_value_heads": 16, "sliding_window": 1024})",
            "gemma3-text", "config_json");
        CHECK(text.params_b() == m.params_b());
        CHECK(text.tied_embeddings);
    }
    SECTION("GLM-4.7 (glm4_moe): 3 dense layers, then 89 MoE layers of 160 experts; GLM-4.6 is read from its config") {
        const ModelSpec m = imported("glm-4.7");
        CHECK(m.layers_with(Attention::full) == 92);
        CHECK(m.layers_with(Mlp::dense) == 3);
        CHECK(m.moe_layers() == 89);
        CHECK(m.experts == 160);
        CHECK(m.experts_per_token == 8);
        CHECK(m.shared_experts == 1);
        CHECK(m.expert_ffn == 1536);
        CHECK(m.ffn == 12288);
        CHECK(!m.mla());
        CHECK(m.mtp_layers == 0);  // the abbreviated copy has no num_nextn_predict_layers (sources.json)
        CHECK(find_model("glm-4.6")->params_b() == m.params_b());
        CHECK(find_model("glm-4.6")->active_params_b() == m.active_params_b());
    }
    SECTION("Qwen3-Next: Gated DeltaNet on 3 of 4 layers, gated full attention on every 4th") {
        const ModelSpec m = imported("qwen3-next-80b-a3b");
        CHECK(m.layers_with(Attention::state) == 36);
        CHECK(m.layers_with(Attention::full) == 12);
        CHECK(m.state.kind == StateKind::gated_deltanet);
        CHECK(m.gated_attention);
        CHECK(m.shared_expert_ffn == 512);
    }
    SECTION("Qwen3.5 (text_config, layer_types): the same kinds, dense and MoE") {
        CHECK(imported("qwen3.5-27b").layers_with(Attention::state) == 48);
        CHECK(imported("qwen3.5-397b-a17b").layers_with(Attention::state) == 45);
        CHECK(imported("qwen3.5-397b-a17b").mtp_layers == 1);
    }
    SECTION("Nemotron-3 Nano: hybrid_override_pattern of Mamba2 (M), MoE (E) and attention (*) layers") {
        const ModelSpec m = imported("nemotron-3-nano-30b-a3b");
        const std::string pattern = config("nemotron-3-nano-30b-a3b")["hybrid_override_pattern"];
        CHECK(m.layers_with(Attention::state) == std::count(pattern.begin(), pattern.end(), 'M'));
        CHECK(m.layers_with(Attention::full) == std::count(pattern.begin(), pattern.end(), '*'));
        CHECK(m.moe_layers() == std::count(pattern.begin(), pattern.end(), 'E'));
        CHECK(m.layers_with(Mlp::none) == m.layers - m.moe_layers());
        CHECK(!m.gated_mlp);  // relu2
        CHECK(m.state.kind == StateKind::mamba2);
        CHECK(m.state.state_value_bytes == 4);  // mamba_ssm_cache_dtype float32
    }
    SECTION("Nemotron-H (Infinity in time_step_limit, read as null): dense MLP layers (-)") {
        const ModelSpec m = imported("nemotron-h-56b");
        CHECK(m.layers_with(Mlp::dense) > 0);
        CHECK(!m.moe());
    }
    SECTION("DeepSeek-V3.2 and GLM-5: sparse top-k attention over MLA on every layer") {
        for (const char* id : {"deepseek-v3.2", "glm-5"}) {
            const ModelSpec m = imported(id);
            CHECK(m.layers_with(Attention::sparse) == m.layers);
            CHECK(m.indexer.topk == config(id)["index_topk"].get<double>());
            CHECK(m.mla());
        }
    }
    SECTION("MiniMax-M3: full attention and dense MLPs on layers 0-2, block-sparse attention (MSA) and MoE on 3-59") {
        const ModelSpec m = imported("minimax-m3");
        CHECK(m.layers_with(Attention::full) == 3);
        CHECK(m.layers_with(Attention::block_sparse) == 57);
        CHECK(m.indexer_layers == 57);
        CHECK(m.layers_with(Mlp::dense) == 3);
        CHECK(m.moe_layers() == 57);
        REQUIRE(m.runs.size() == 2);
        CHECK(m.runs[0].attention == Attention::full);
        CHECK(m.runs[0].mlp == Mlp::dense);
        // 16 blocks of 128 tokens a KV head, the local block among them: 2048 tokens at most.
        CHECK(m.runs[1].attention == Attention::block_sparse);
        CHECK(m.runs[1].ratio == 128);
        CHECK(m.runs[1].topk == 16);
        CHECK(m.runs[1].window == 16 * 128);
        CHECK(m.ffn == 12288);        // dense_intermediate_size
        CHECK(m.expert_ffn == 3072);  // intermediate_size
        CHECK(m.shared_experts == 1);
        CHECK(m.shared_expert_ffn == 3072);
        CHECK(m.experts == 128);
        CHECK(m.experts_per_token == 4);
        CHECK(m.mtp_layers == 1);  // num_nextn_predict_layers (num_mtp_modules, the drafter's 7, is not counted)
        // The indexer: index_q_proj (4 heads of 128, split as the KV heads), index_k_proj (one shared key of 128),
        // their two norms; its keys in 16 bits, no scale.
        const double h = 6144;
        CHECK(m.indexer.heads == 4);
        CHECK(m.indexer.head_dim == 128);
        CHECK(m.indexer.params == h * 4 * 128 + h * 128 + 2 * 128);
        CHECK(m.indexer.split_params == h * 4 * 128);
        CHECK(m.indexer.key_bytes() == 128 * 2);
        CHECK(m.native_linear == DType::bf16);  // the published checkpoint is bfloat16
        // Parameters by hand: 3 dense layers (q, k, v, o; a gated MLP of 12288; 2 norms), 57 MoE layers (the same
        // attention, the indexer, the router, 128 experts and a shared one of 3072), the MTP layer (attention, its
        // norms and projection of two hidden states, a MoE layer's MLP), embedding and lm_head (untied), the final norm.
        const double attention = h * 64 * 128 * 2 + 2 * h * 4 * 128;
        const double expert = 3 * h * 3072, router = h * 128, indexer = h * 4 * 128 + h * 128 + 2 * 128;
        const double dense_layer = attention + 3 * h * 12288 + 2 * h;
        const double moe_layer = attention + indexer + router + 128 * expert + expert + 2 * h;
        const double mtp = attention + 4 * h + 2 * h * h + router + 128 * expert + expert;
        CHECK(m.params_b() * 1e9 == Approx(3 * dense_layer + 57 * moe_layer + mtp + 2 * 200064 * h + h).epsilon(1e-12));
        const double active_moe = attention + indexer + router + 4 * expert + expert + 2 * h;
        CHECK(m.active_params_b() * 1e9 ==
              Approx(3 * dense_layer + 57 * active_moe + h + 200064 * h + h).epsilon(1e-12));
    }
    SECTION("DeepSeek-R1 and Kimi-K2: dense first layers, MoE after; MTP layers counted apart") {
        const ModelSpec r1 = imported("deepseek-r1");
        CHECK(r1.layers_with(Mlp::dense) == 3);
        CHECK(r1.mtp_layers == 1);
        CHECK(imported("kimi-k2").experts == 384);
        CHECK(imported("kimi-k2").layers_with(Mlp::dense) == 1);
    }
    SECTION("Kimi Linear: KDA on linear_attn_config's kda_layers, MLA on its full_attn_layers (numbered from 1)") {
        const ModelSpec m = imported("kimi-linear-48b-a3b");
        CHECK(m.layers_with(Attention::state) == 20);
        CHECK(m.layers_with(Attention::full) == 7);
        CHECK(m.state.kind == StateKind::kda);
        CHECK(m.mla());
        CHECK(m.q_lora_rank == 0);  // null: q_proj straight from the hidden state
        // Layers 1-3 KDA, layer 4 MLA, ..., layer 27 MLA (counted from 1, as the config counts them).
        CHECK(m.runs[0].attention == Attention::state);
        CHECK(m.runs[0].count == 1);  // layer 1: dense MLP (first_k_dense_replace 1), then MoE
        CHECK(m.runs[2].attention == Attention::full);
        CHECK(m.runs.back().attention == Attention::full);
        CHECK(m.layers_with(Mlp::dense) == 1);
        CHECK(m.moe_layers() == 26);
        CHECK(m.experts == 256);
        CHECK(m.experts_per_token == 8);  // spelled num_experts_per_token
        CHECK(m.shared_experts == 1);     // spelled num_shared_experts
        // The checkpoint's 49,122,681,728 values (sources.json) but for the 26 x 256 e_score_correction_bias.
        CHECK(m.params_b() * 1e9 == Approx(49122681728.0 - 26 * 256).epsilon(1e-12));
    }
    SECTION("DeepSeek-V4: compress_ratios per layer, 0 a 128-token window, 4 CSA (top-k of the indexer), 128 HCA") {
        const ModelSpec flash = imported("deepseek-v4-flash");
        CHECK(flash.layers_with(Attention::sliding) == 2);      // layers 1 and 2 (ratio 0)
        CHECK(flash.layers_with(Attention::compressed) == 41);  // 21 of ratio 4, 20 of ratio 128
        CHECK(flash.runs[0].window == 128);
        CHECK(flash.runs[1].attention == Attention::compressed);
        CHECK(flash.runs[1].ratio == 4);
        CHECK(flash.runs[1].topk == 512);
        CHECK(flash.runs[1].window == 128);
        CHECK(flash.runs[2].ratio == 128);
        CHECK(flash.runs[2].topk == 0);  // HCA attends to every compressed entry
        CHECK(flash.indexer_layers == 21);
        CHECK(flash.indexer.key_bytes() == 128 + 4);  // FP8 keys and a 4-byte scale, as V3.2's
        CHECK(flash.moe_layers() == 43);
        CHECK(flash.shared_kv);
        CHECK(flash.kv_values_per_token_layer() == 512);  // one vector of head_dim, key and value
        CHECK(flash.hc_mult == 4);
        CHECK(flash.mtp_layers == 1);  // compress_ratios' 44th entry
        // The MTP draft's layer is that entry's kind (0: the window only), not the last layer's (CSA).
        const ModelSpec draft = mtp_draft(flash);
        CHECK(draft.layers_with(Attention::sliding) == 1);
        CHECK(draft.runs[0].window == 128);
        CHECK(draft.indexer_layers == 0);
        CHECK(flash.native_experts == DType::mxfp4);  // expert_dtype fp4
        CHECK(flash.native_linear == DType::fp8_block);
        const ModelSpec pro = imported("deepseek-v4-pro");
        CHECK(pro.layers_with(Attention::compressed) == 61);  // 30 of ratio 4 (top-1024), 31 of ratio 128
        CHECK(pro.indexer_layers == 30);
        CHECK(pro.indexer.topk == 1024);
        // Tensor parallelism splits the output's groups whole (vLLM: o_groups // tp): 8 groups on 8 GPUs, not 16.
        CHECK(layout_problem(flash, 8, {}).empty());
        CHECK_THAT(layout_problem(flash, 16, {}), Contains("tp: the model's 8 output groups (o_groups) are not a multiple"));
        // One layer's parameters by hand (DeepSeek-V4-Flash, a CSA layer): wq_a, q_norm, wq_b; wkv, kv_norm;
        // wo_a, wo_b; attn_sink; the compressor (ape, wkv, wgate, norm; two overlapping windows for ratio 4); the
        // indexer (wq_b, weights_proj and its own compressor of 2 x 128).
        const double h = 4096, q = 1024, d = 512, heads = 64, o = 1024, groups = 8;
        const double attention = h * q + q + q * heads * d + h * d + d + heads * d * o + groups * o * h + heads;
        CHECK(flash.attention_params() == attention);
        CHECK(flash.compressor_params(flash.runs[1]) == 4 * 2 * d + 2 * h * 2 * d + d);
        CHECK(flash.compressor_params(flash.runs[2]) == 128 * d + 2 * h * d + d);
        CHECK(flash.indexer.params == q * 64 * 128 + h * 64 + (4 * 2 * 128 + 2 * h * 2 * 128 + 128));
        // Hyper-connections: hc_attn_fn and hc_ffn_fn (24 x 4 hidden), their bases (24) and scales (3).
        CHECK(flash.mixing_params_per_layer() == 2 * (24 * 4 * h + 24 + 3));
    }
    SECTION("Kimi-K3 (text_config): Kimi Linear's layers with a full-rank KDA gate, gated MLA, a latent MoE, AttnRes") {
        const ModelSpec m = imported("kimi-k3");
        CHECK(m.layers_with(Attention::state) == 69);
        CHECK(m.layers_with(Attention::full) == 24);
        CHECK(m.layers_with(Mlp::dense) == 1);
        CHECK(m.moe_layers() == 92);
        CHECK(m.state.kind == StateKind::kda);
        CHECK(m.mla());
        CHECK(m.gated_attention);           // mla_use_output_gate
        CHECK(m.experts == 896);
        CHECK(m.experts_per_token == 16);
        CHECK(m.shared_experts == 2);
        CHECK(m.expert_width() == 3584);    // routed_expert_hidden_size
        CHECK(m.expert_params() == 3 * 3584 * 3072.0);
        CHECK(m.shared_expert_params() == 3 * 7168 * 3072.0);  // the shared experts on the hidden state
        CHECK(m.router_params() == 7168 * 896 + 2 * 7168 * 3584 + 3584.0);  // with the latent's projections
        CHECK(m.attn_res_block == 12);
        CHECK(m.native_experts == DType::mxfp4);  // compressed-tensors MXFP4, in text_config
        CHECK(m.native_linear == DType::bf16);    // self_attn ignored
        // Attention Residuals: layer i (from 0) mixes ceil(i / 12) blocks and the running sum before its attention,
        // and the block it writes (i a multiple of 12) too before its MLP; the output the 8 blocks and the sum.
        double sources = 8 + 1;
        for (int i = 0; i < 93; ++i) {
            const double before = std::ceil(i / 12.0);
            sources += (before + 1) + (before + (i % 12 == 0 ? 1 : 0) + 1);
        }
        CHECK(m.attn_res_reads == sources);
        CHECK(m.mixing_params_per_layer() == 4 * 7168.0);
        CHECK(m.mixing_params_head() == 2 * 7168.0);
    }
    SECTION("DeepSeek-V3.1: DeepSeek-V3's layers; FP8 blocks with UE8M0 scales are counted as fp8_block") {
        const ModelSpec m = imported("deepseek-v3.1");
        CHECK(m.layers_with(Mlp::dense) == 3);
        CHECK(m.mtp_layers == 1);
        CHECK(m.native_experts == DType::fp8_block);
        CHECK(m.params_b() == imported("deepseek-r1").params_b());
    }
}

TEST_CASE("the cache of a sequence at two contexts, by hand", "[hf]") {
    auto cache = [](const ModelSpec& m, double ctx, double tp = 1) {
        return kv_bytes_per_sequence_per_gpu(DeploymentRef{m, h200(), DType::bf16, DType::bf16, tp}, ctx);
    };
    SECTION("gpt-oss-20b: 12 layers capped at 128 tokens, 12 growing; K and V of 8 heads of 64 in 16 bits") {
        const ModelSpec m = imported("gpt-oss-20b");
        const double per_token_layer = 2 * 8 * 64 * 2;
        CHECK(cache(m, 100) == Approx(per_token_layer * (12 * 100 + 12 * 100)));
        CHECK(cache(m, 8192) == Approx(per_token_layer * (12 * 8192 + 12 * 128)));
        // ROOFLINE_CACHE_GB: 64 sequences, in GB, on one GPU of 2 (8 KV heads split in 2).
        CHECK(formula::cache_gb("gpt-oss-20b", 64, 8192, "", 2) == Approx(64 * per_token_layer / 2 * (12 * 8192 + 12 * 128) / 1e9));
    }
    SECTION("Llama 4 Scout and Maverick (the same attention layers): 36 chunked layers hold at most a chunk of 8192") {
        for (const char* id : {"llama-4-scout", "llama-4-maverick"}) {
            INFO(id);
            const ModelSpec m = imported(id);
            const double per_token_layer = 2 * 8 * 128 * 2;
            CHECK(cache(m, 4096) == Approx(per_token_layer * 48 * 4096));
            CHECK(cache(m, 100000) == Approx(per_token_layer * (12 * 100000 + 36 * 8192)));
        }
    }
    SECTION("Gemma 3 27B: 52 layers capped at 1024 tokens, 10 growing; K and V of 16 heads of 128") {
        const ModelSpec m = *find_model("gemma-3-27b");
        const double per_token_layer = 2 * 16 * 128 * 2;
        CHECK(cache(m, 1000) == Approx(per_token_layer * 62 * 1000));
        CHECK(cache(m, 32768) == Approx(per_token_layer * (10 * 32768 + 52 * 1024)));
    }
    SECTION("GLM-4.7: all 92 layers grow by K and V of 8 heads of 128 (GQA); tensor parallel splits the heads") {
        const ModelSpec m = imported("glm-4.7");
        const double per_token_layer = 2 * 8 * 128 * 2;
        CHECK(cache(m, 2048) == Approx(per_token_layer * 92 * 2048));
        CHECK(cache(m, 131072) == Approx(per_token_layer * 92 * 131072));
        CHECK(cache(m, 131072, 8) == Approx(per_token_layer / 8 * 92 * 131072));
    }
    SECTION("Qwen3-Next: 12 full layers grow; 36 Gated DeltaNet layers hold a 128 x 128 state per value head") {
        const ModelSpec m = imported("qwen3-next-80b-a3b");
        const double state = (32 * 128 * 128 + (2 * 16 * 128 + 32 * 128) * 3) * 2.0;  // + the convolution's 3 columns
        const double per_token_layer = 2 * 2 * 256 * 2;
        CHECK(cache(m, 1000) == Approx(12 * per_token_layer * 1000 + 36 * state));
        CHECK(cache(m, 100000) == Approx(12 * per_token_layer * 100000 + 36 * state));
    }
    SECTION("Nemotron-3 Nano: 6 attention layers grow; 23 Mamba2 layers hold a float32 state") {
        const ModelSpec m = imported("nemotron-3-nano-30b-a3b");
        const double state = (64 * 64 * 128 + (64 * 64 + 2 * 8 * 128) * 3) * 4.0;
        const double per_token_layer = 2 * 2 * 128 * 2;
        CHECK(cache(m, 1000) == Approx(6 * per_token_layer * 1000 + 23 * state));
        CHECK(cache(m, 65536) == Approx(6 * per_token_layer * 65536 + 23 * state));
    }
    SECTION("DeepSeek-V3.2: the MLA latent and RoPE key, and the indexer's FP8 key with its scale, every layer") {
        const ModelSpec m = imported("deepseek-v3.2");
        const double per_token = 61 * ((512 + 64) * 2 + (128 + 4));
        CHECK(cache(m, 2048) == Approx(per_token * 2048));
        CHECK(cache(m, 131072) == Approx(per_token * 131072));
        CHECK(cache(m, 4096, 8) == Approx(cache(m, 4096)));  // the latent is replicated, not split
    }
    SECTION("Kimi Linear: 7 MLA layers grow by their latent and RoPE key; 20 KDA layers hold a 128 x 128 float32 state per head") {
        const ModelSpec m = imported("kimi-linear-48b-a3b");
        const double latent = (512 + 64) * 2.0;
        // float32, and the q, k and v convolutions' last 3 columns in 16 bits (vLLM's kda_state_dtype).
        const double state = 32 * 128 * 128 * 4.0 + 3 * 4096 * 3 * 2.0;
        CHECK(cache(m, 1000) == Approx(7 * latent * 1000 + 20 * state));
        CHECK(cache(m, 1000000) == Approx(7 * latent * 1000000 + 20 * state));
        // tp 2: the latent is replicated, the KDA heads are split.
        CHECK(cache(m, 1000, 2) == Approx(7 * latent * 1000 + 20 * state / 2));
        CHECK(formula::cache_gb("kimi-linear-48b-a3b", 16, 131072, "", 1) ==
              Approx(16 * (7 * latent * 131072 + 20 * state) / 1e9));
    }
    SECTION("DeepSeek-V4-Flash: a 128-token window on all 43 layers, a compressed entry per 4 tokens on 21 (and their "
            "indexer's FP4 keys) and per 128 on 20, the compressors' float32 states") {
        const ModelSpec m = imported("deepseek-v4-flash");
        const double entry = 512 * 2.0, key = 128 + 4.0;
        // kv_state and score_state of 2 x 4 rows of 2 x 512 (ratio 4), of 128 rows of 512 (ratio 128); the indexer's
        // of 2 x 4 rows of 2 x 128.
        const double state = (21 * (2 * 8 * 1024 + 2 * 8 * 256) + 20 * (2 * 128 * 512)) * 4.0;
        auto by_hand = [&](double ctx) {
            return entry * (43 * std::min(ctx, 128.0) + 21 * ctx / 4 + 20 * ctx / 128) + key * 21 * ctx / 4 + state;
        };
        CHECK(cache(m, 4096) == Approx(by_hand(4096)));
        CHECK(cache(m, 1048576) == Approx(by_hand(1048576)));
        CHECK(cache(m, 100) == Approx(entry * (43 * 100 + 21 * 25 + 20 * 100 / 128.0) + key * 21 * 25 + state));
        // One key-value head: replicated in tensor parallel.
        CHECK(cache(m, 4096, 8) == Approx(cache(m, 4096)));
        CHECK(formula::cache_gb("deepseek-v4-flash", 16, 1048576, "", 1) == Approx(16 * by_hand(1048576) / 1e9));
        // DeepSeek-V4-Pro at 1M tokens: its entries and keys, the keys in 16 bits too (256 bytes, not 128 + 4), are
        // the 9.62 GiB of vLLM's DeepSeek-V4 blog post ("9.62 GiB vs 83.9 GiB, bf16", as copies in the search index
        // quote it); 30 CSA and 31 HCA layers.
        const ModelSpec pro = imported("deepseek-v4-pro");
        const double pro_state = (30 * (2 * 8 * 1024 + 2 * 8 * 256) + 31 * (2 * 128 * 512)) * 4.0;
        const double keys16 = cache(pro, 1048576) - pro_state + 30 * 1048576 / 4.0 * (256 - key);
        CHECK(keys16 / (1024.0 * 1024 * 1024) == Approx(9.62).epsilon(0.001));
    }
    SECTION("MiniMax-M3: all 60 layers hold every token's K and V (4 heads of 128); the 57 block-sparse ones also its "
            "indexer key (128 values in 16 bits), whatever blocks they read") {
        const ModelSpec m = imported("minimax-m3");
        const double kv = 2 * 4 * 128 * 2, key = 128 * 2;
        CHECK(cache(m, 4096) == Approx((60 * kv + 57 * key) * 4096));
        CHECK(cache(m, 1048576) == Approx((60 * kv + 57 * key) * 1048576));
        // tp 8: a KV head on each GPU (4 heads, 8 GPUs), the one key head replicated.
        CHECK(cache(m, 4096, 8) == Approx((60 * 2 * 1 * 128 * 2 + 57 * key) * 4096));
        CHECK(formula::cache_gb("minimax-m3", 16, 131072, "", 1) == Approx(16 * (60 * kv + 57 * key) * 131072 / 1e9));
    }
    SECTION("Kimi-K3: 24 MLA layers grow by their latent and RoPE key; 69 KDA layers hold 96 float32 states of 128 x 128") {
        const ModelSpec m = imported("kimi-k3");
        const double latent = (512 + 64) * 2.0;
        const double state = 96 * 128 * 128 * 4.0 + 3 * 96 * 128 * 3 * 2.0;
        CHECK(cache(m, 1000) == Approx(24 * latent * 1000 + 69 * state));
        CHECK(cache(m, 1048576) == Approx(24 * latent * 1048576 + 69 * state));
        CHECK(cache(m, 1000, 8) == Approx(24 * latent * 1000 + 69 * state / 8));  // KDA heads split, latent replicated
    }
}

TEST_CASE("one layer of each kind in a decode step, by hand", "[hf]") {
    const double batch = 8, ctx = 20000;
    auto step = [&](const ModelSpec& m, double tp = 1) {
        return decode_operators(DeploymentRef{m, h200(), DType::bf16, DType::bf16, tp}, batch, ctx);
    };
    SECTION("sliding and full attention (gpt-oss-20b): each reads its context and writes the new token") {
        const double kv = 2 * 8 * 64 * 2;
        CHECK(op(step(imported("gpt-oss-20b")), "attention").bytes ==
              Approx(batch * kv * (12 * ctx + 12 * 128 + 24)));
    }
    SECTION("chunked attention (Llama 4 Scout): the tokens of the chunk being filled") {
        const double kv = 2 * 8 * 128 * 2;
        const double in_chunk = ctx - 8192 * std::floor(ctx / 8192);
        CHECK(op(step(imported("llama-4-scout")), "attention").bytes ==
              Approx(batch * kv * (12 * ctx + 36 * in_chunk + 48)));
    }
    SECTION("Llama 4 Maverick: its chunked and global attention; its dense, expert and shared-expert MLPs") {
        const ModelSpec m = imported("llama-4-maverick");
        const auto ops = step(m);  // kept: op() points into it
        const double kv = 2 * 8 * 128 * 2, hidden = 5120;
        const double in_chunk = ctx - 8192 * std::floor(ctx / 8192);
        CHECK(op(ops, "attention").bytes == Approx(batch * kv * (12 * ctx + 36 * in_chunk + 48)));
        // 24 dense layers of 16384: the weights once, each token's hidden state in and out.
        CHECK(op(ops, "mlp").bytes == Approx(24 * (3 * hidden * 16384 * 2 + batch * 2 * hidden * 2)));
        // 24 MoE layers: the distinct experts of 128 that 8 tokens pick (one each), each token's hidden state to
        // its expert and back; the shared expert read once.
        const double touched = 128 * (1 - std::pow(1 - 1.0 / 128, batch));
        CHECK(op(ops, "experts").bytes == Approx(24 * (touched * 3 * hidden * 8192 * 2 + batch * 2 * hidden * 2)));
        CHECK(op(ops, "shared_experts").bytes == Approx(24 * (3 * hidden * 8192 * 2 + batch * 2 * hidden * 2)));
    }
    SECTION("sliding and global attention (Gemma 3 27B): 52 layers read 1024 tokens at most, 10 the context") {
        const ModelSpec m = *find_model("gemma-3-27b");
        const auto ops = step(m);
        const double kv = 2 * 16 * 128 * 2, hidden = 5376;
        CHECK(op(ops, "attention").bytes == Approx(batch * kv * (10 * ctx + 52 * 1024 + 62)));
        CHECK(op(ops, "mlp").bytes == Approx(62 * (3 * hidden * 21504 * 2 + batch * 2 * hidden * 2)));
    }
    SECTION("GQA and MoE (GLM-4.7): 96 query and 8 KV heads on every layer, 8 experts of 160 a token") {
        const auto ops = step(imported("glm-4.7"));
        const double kv = 2 * 8 * 128 * 2, hidden = 5120, qkv = 96 * 128 + 2 * 8 * 128;
        CHECK(op(ops, "attention").bytes == Approx(batch * kv * 92 * (ctx + 1)));
        CHECK(op(ops, "qkv_proj").bytes == Approx(92 * (hidden * qkv * 2 + batch * (hidden + qkv) * 2)));
        CHECK(op(ops, "mlp").bytes == Approx(3 * (3 * hidden * 12288 * 2 + batch * 2 * hidden * 2)));
        const double touched = 160 * (1 - std::pow(1 - 8.0 / 160, batch));
        CHECK(op(ops, "experts").bytes == Approx(89 * (touched * 3 * hidden * 1536 * 2 + batch * 8 * 2 * hidden * 2)));
    }
    SECTION("sparse attention (DeepSeek-V3.2): top-2048 latents, and the indexer's keys of the whole context") {
        const double latent = (512 + 64) * 2, key = 128 + 4;
        const auto ops = step(imported("deepseek-v3.2"));
        CHECK(op(ops, "attention").bytes == Approx(batch * (latent * 61 * (2048 + 1) + key * 61 * (ctx + 1))));
        // FLOPs: 128 heads over 2048 latents of 512 + 64 keys and 512 values, 64 indexer heads of 128 over ctx.
        CHECK(op(ops, "attention").flops == Approx(2 * batch * 61 * (128 * (576 + 512) * 2048 + 64 * 128 * ctx)));
    }
    SECTION("block-sparse attention (MiniMax-M3): 16 blocks of 128 tokens' K and V, the indexer's keys of the whole "
            "context; 3 full layers the context") {
        const ModelSpec m = imported("minimax-m3");
        const auto ops = step(m);  // kept: op() points into it
        const double kv = 2 * 4 * 128 * 2, key = 128 * 2;
        const double read = 3 * ctx + 57 * 2048, indexed = 57 * ctx;
        CHECK(op(ops, "attention").bytes == Approx(batch * (kv * (read + 60) + key * (indexed + 57))));
        // FLOPs: 64 heads over keys and values of 128, 4 index heads of 128 scoring every cached token's key.
        CHECK(op(ops, "attention").flops == Approx(2 * batch * (64 * (128 + 128) * read + 4 * 128 * indexed)));
        // One block-sparse layer alone: the step of a 1-layer model of that kind.
        ModelSpec one = m;
        one.runs = {{1, Attention::block_sparse, 2048, Mlp::moe, 128, 16}};
        one.layers = 1;
        one.mtp_layers = 0;
        one.count_layers();
        const auto layer = step(one);
        CHECK(op(layer, "attention").bytes == Approx(batch * (kv * (2048 + 1) + key * (ctx + 1))));
        CHECK(op(layer, "attention").flops == Approx(2 * batch * (64 * 256 * 2048 + 4 * 128 * ctx)));
        // q, k, v (64 + 2 x 4 heads of 128) and the indexer's projections (4 index heads and a key of 128).
        const double h = 6144, qkv = h * (64 + 8) * 128, indexer = h * 4 * 128 + h * 128 + 2 * 128;
        CHECK(op(layer, "qkv_proj").bytes ==
              Approx(qkv * 2 + batch * (h + 72 * 128) * 2 + indexer * 2 + batch * 4 * 128 * 2));
        CHECK(op(layer, "qkv_proj").flops == Approx(2 * batch * (qkv + indexer)));
        // Below 16 blocks a layer reads the whole context, as full attention.
        const auto short_ops = decode_operators(DeploymentRef{one, h200(), DType::bf16, DType::bf16, 1}, batch, 1000);
        CHECK(op(short_ops, "attention").flops == Approx(2 * batch * (64 * 256 * 1000 + 4 * 128 * 1000)));
        CHECK(attention_breaks(m, 0, 1e6) == std::vector<double>{2049});
        // tp 8: 8 query heads, a KV head and an index head on each GPU; the index key head and index_k_proj replicated.
        const auto tp8 = step(one, 8);
        CHECK(op(tp8, "attention").flops == Approx(2 * batch * (8 * 256 * 2048 + 1 * 128 * ctx)));
        CHECK(op(tp8, "attention").bytes == Approx(batch * (2 * 128 * 2 * (2048 + 1) + key * (ctx + 1))));
        const double indexer8 = h * 1 * 128 + h * 128 + 2 * 128;
        CHECK(op(tp8, "qkv_proj").flops == Approx(2 * batch * (h * (8 + 2) * 128 + indexer8)));
        // Prefill of 4096 tokens: position i attends min(i, 2048) tokens; the indexer scores all i keys.
        const double tokens = 4096;
        const auto prefill = prefill_operators(DeploymentRef{one, h200(), DType::bf16, DType::bf16, 1}, 2, tokens);
        const double pairs = 2048 * 2049 / 2.0 + (tokens - 2048) * 2048, scored = tokens * (tokens + 1) / 2;
        CHECK(op(prefill, "attention").flops == Approx(2 * 2 * (64 * 256 * pairs + 4 * 128 * scored)));
    }
    SECTION("state layers (Qwen3-Next): weights once, each sequence's state read and written, none of the context") {
        const ModelSpec m = imported("qwen3-next-80b-a3b");
        const double in = 2 * 16 * 128 + 2 * 32 * 128 + 2 * 32, out = 32 * 128, conv = 2 * 16 * 128 + 32 * 128;
        const double params = 2048 * in + conv * 4 + 2 * 32 + 128 + out * 2048;
        const double state = (32 * 128 * 128 + conv * 3) * 2.0;
        const auto ops = step(m);  // kept: op() points into it
        const Operator& linear = op(ops, "linear_attn");
        CHECK(linear.bytes == Approx(36 * (params * 2 + batch * (2048 + in + out + 2048) * 2 + 2 * batch * state)));
        CHECK(linear.flops == Approx(36 * batch * (2 * params + 6 * 32 * 128 * 128 + 2 * conv * 4)));
        // The same step at another context: the state layers do not change.
        const auto other = decode_operators(DeploymentRef{m, h200(), DType::bf16, DType::bf16, 1}, batch, 100);
        CHECK(op(other, "linear_attn").bytes == linear.bytes);
    }
    SECTION("Kimi Delta Attention layers (Kimi Linear), and its MLA layers' latents") {
        const ModelSpec m = imported("kimi-linear-48b-a3b");
        const double width = 32 * 128, rank = 128, hidden = 2304;
        const double in = 5 * width + 2 * rank + 32, out = width;
        // q, k, v, f_a, g_a, b; f_b, g_b; the three convolutions of 4; A_log, dt_bias, o_norm; o_proj.
        const double params = hidden * (3 * width + 2 * rank + 32) + 2 * rank * width + 3 * width * 4 + 32 + width + 128 +
                              width * hidden;
        const double state = 32 * 128 * 128 * 4.0 + 3 * width * 3 * 2.0;
        const auto ops = step(m);  // kept: op() points into it
        const Operator& linear = op(ops, "linear_attn");
        CHECK(linear.bytes == Approx(20 * (params * 2 + batch * (hidden + in + out + hidden) * 2 + 2 * batch * state)));
        CHECK(linear.flops == Approx(20 * batch * (2 * params + 7 * 32 * 128 * 128 + 2 * 3 * width * 4)));
        // The 7 MLA layers read every cached token's latent and RoPE key and write the new token's.
        CHECK(op(ops, "attention").bytes == Approx(batch * (512 + 64) * 2 * 7 * (ctx + 1)));
    }
    SECTION("compressed attention (DeepSeek-V4-Flash): the window, the top-512 entries of 1 in 4 tokens or all of 1 in "
            "128; the indexer's keys; the compressors' states") {
        const ModelSpec m = imported("deepseek-v4-flash");
        const auto ops = step(m);  // kept: op() points into it
        const double entry = 512 * 2.0, key = 128 + 4.0;
        const double read = 2 * 128 + 21 * (128 + std::min(ctx / 4, 512.0)) + 20 * (128 + ctx / 128);
        const double written = 43 + 21 / 4.0 + 20 / 128.0;  // the window's token, and a share of an entry
        const double indexed = 21 * ctx / 4, keys_written = 21 / 4.0;
        // Each token writes a row of its layer's states (8 rows for ratio 4, 128 for ratio 128) and reads them
        // whole at each compression (every 4, every 128 tokens).
        const double c4_state = 2 * 8 * 1024 + 2 * 8 * 256, c128_state = 2 * 128 * 512;
        const double touched = 21 * c4_state * (1 / 8.0 + 1 / 4.0) + 20 * c128_state * (1 / 128.0 + 1 / 128.0);
        CHECK(op(ops, "attention").bytes ==
              Approx(batch * (entry * (read + written) + key * (indexed + keys_written) + 4 * touched)));
        // 64 heads over keys of 512 and values of 512 (the same vector), 64 indexer heads of 128 over ctx / 4 keys.
        CHECK(op(ops, "attention").flops == Approx(2 * batch * (64 * (512 + 512) * read + 64 * 128 * indexed)));
        // At 2048 tokens and less, the top-512 is every compressed entry.
        const auto short_ops = decode_operators(DeploymentRef{m, h200(), DType::bf16, DType::bf16, 1}, batch, 2048);
        const double short_read = 2 * 128 + 21 * (128 + 512) + 20 * (128 + 16);
        CHECK(op(short_ops, "attention").flops ==
              Approx(2 * batch * (64 * 1024 * short_read + 64 * 128 * 21 * 512)));
        const std::vector<double> breaks = attention_breaks(m, 0, 1e6);
        CHECK(breaks == std::vector<double>{129, 2049});  // the window, and 4 x 512
    }
    SECTION("Kimi-K3: KDA with a full-rank gate, gated MLA, the latent experts") {
        const ModelSpec m = imported("kimi-k3");
        const auto ops = step(m);  // kept: op() points into it
        const double width = 96 * 128, rank = 128, hidden = 7168;
        const double in = 5 * width + rank + 96, out = width;
        // q, k, v, g (full rank), f_a, b; f_b; the three convolutions of 4; A_log, dt_bias, o_norm; o_proj.
        const double params = hidden * (4 * width + rank + 96) + rank * width + 3 * width * 4 + 96 + width + 128 +
                              width * hidden;
        const double state = 96 * 128 * 128 * 4.0 + 3 * width * 3 * 2.0;
        const Operator& linear = op(ops, "linear_attn");
        CHECK(linear.bytes == Approx(69 * (params * 2 + batch * (hidden + in + out + hidden) * 2 + 2 * batch * state)));
        CHECK(linear.flops == Approx(69 * batch * (2 * params + 7 * 96 * 128 * 128 + 2 * 3 * width * 4)));
        CHECK(op(ops, "attention").bytes == Approx(batch * (512 + 64) * 2 * 24 * (ctx + 1)));
        // The MLA projections with the output gate g_proj (hidden -> 96 x 128), on the 24 MLA layers.
        const double mla = hidden * 1536 + 1536 * 96 * 192 + hidden * 576 + 512 * 96 * 256 + hidden * 96 * 128;
        CHECK(op(ops, "qkv_proj").bytes == Approx(24 * (mla * 2 + batch * (hidden + mla / hidden) * 2)));
        // 92 MoE layers: the distinct experts of 896 that 8 tokens pick (16 each), on the latent of 3584.
        const double touched = 896 * (1 - std::pow(1 - 16.0 / 896, batch));
        CHECK(op(ops, "experts").bytes == Approx(92 * (touched * 3 * 3584 * 3072 * 2 + batch * 16 * 2 * 3584 * 2)));
    }
    SECTION("Mamba2 layers split by heads in tensor parallel (Nemotron-3 Nano)") {
        const ModelSpec m = imported("nemotron-3-nano-30b-a3b");
        const double state = (64 * 64 * 128 + (64 * 64 + 2 * 8 * 128) * 3) * 4.0;
        const double one = op(step(m, 1), "linear_attn").bytes, two = op(step(m, 2), "linear_attn").bytes;
        const double hidden_in_out = 23 * batch * 2 * 2688 * 2;  // each GPU reads and writes the whole hidden state
        CHECK(two == Approx((one - hidden_in_out) / 2 + hidden_in_out));
        CHECK(one > 23 * 2 * batch * state);
    }
}

TEST_CASE("the formats checkpoints ship in, per module (weight format native)", "[hf][formats]") {
    SECTION("gpt-oss: MXFP4 experts (4.25 bits), attention, router, embedding and lm_head in 16 bits") {
        const ModelSpec m = imported("gpt-oss-120b");
        CHECK(m.native_experts == DType::mxfp4);
        CHECK(m.native_linear == DType::bf16);
        const double experts = m.moe_layers() * m.experts * m.expert_params();
        const double bytes = weight_bytes_per_gpu(DeploymentRef::native(m, h200(), DType::bf16, 1));
        CHECK(bytes == Approx((m.params_b() * 1e9 - experts) * 2 + experts * 4.25 / 8).epsilon(1e-6));
        // The published checkpoint: 60.8 GiB (OpenAI's gpt-oss model card).
        CHECK(bytes / (1024.0 * 1024 * 1024) == Approx(60.8).epsilon(0.05));
        // bf16 everywhere, as before: about four times the experts' bytes.
        CHECK(weight_bytes_per_gpu(DeploymentRef{m, h200(), DType::bf16, DType::bf16, 1}) > 3 * bytes);
    }
    SECTION("DeepSeek-R1: FP8 with a scale per 128 x 128 block, embedding and lm_head in 16 bits") {
        const ModelSpec m = imported("deepseek-r1");
        CHECK(m.native_experts == DType::fp8_block);
        CHECK(m.native_linear == DType::fp8_block);
        CHECK(bits_per_value(DType::fp8_block) == Approx(8 + 32.0 / (128 * 128)));
    }
    SECTION("NVFP4 from hf_quant_config.json: experts in 4.5 bits, the excluded attention in 16") {
        const ModelSpec m = imported("deepseek-v3.1-nvfp4");
        CHECK(m.native_experts == DType::nvfp4);
        CHECK(m.native_linear == DType::bf16);
        CHECK(bits_per_value(DType::nvfp4) == 4.5);
    }
    SECTION("a 16-bit checkpoint: native is bf16 everywhere, so nothing moves") {
        const ModelSpec m = imported("qwen3-8b");
        CHECK(m.native_linear == DType::bf16);
        CHECK(formula::step_ms("qwen3-8b", "h100-sxm", 8, 4096, "", "", 1, "bound") ==
              formula::step_ms("qwen3-8b", "h100-sxm", 8, 4096, "bf16", "", 1, "bound"));
    }
    SECTION("the catalog's deepseek-v3 records its FP8 checkpoint: its default moved from bf16") {
        const double native = formula::step_ms("deepseek-v3", "h200", 8, 4096, "", "", 8, "bound");
        CHECK(native == formula::step_ms("deepseek-v3", "h200", 8, 4096, "native", "", 8, "bound"));
        CHECK(native < formula::step_ms("deepseek-v3", "h200", 8, 4096, "bf16", "", 8, "bound"));
        // FP8 blocks but for the embedding and lm_head, which stay in 16 bits.
        CHECK(native > formula::step_ms("deepseek-v3", "h200", 8, 4096, "fp8_block", "", 8, "bound"));
    }
}

TEST_CASE("a config that uses what no reader understands is refused, naming the field", "[hf]") {
    const std::string llama = R"("model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 2, "num_attention_heads": 32,
        "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256)";
    CHECK(refusal("{" + llama + R"(, "attention_chunk_size": 8192})") ==
          "argument 'config_json': config.json field 'attention_chunk_size' is not supported (model_type 'llama')");
    CHECK_THAT(refusal("{" + llama + R"(, "layer_types": ["full_attention", "linear_attention"]})"),
               Contains("config.json field 'layer_types' is not supported (model_type 'llama'): linear attention"));
    CHECK_THAT(refusal("{" + llama + R"(, "layer_types": ["full_attention", "sliding_attention"]})"),
               Contains("config.json has no 'sliding_window'"));
    // layer_types that newer transformers write: read.
    CHECK(model_from_hf_config("{" + llama + R"(, "sliding_window": 4096, "layer_types": ["full_attention",
        "sliding_attention"]})", "two", "config_json").layers_with(Attention::sliding) == 1);
    CHECK_THAT(refusal("{" + llama + R"(, "quantization_config": {"quant_method": "bitsandbytes"}})"),
               Contains("'quantization_config.quant_method' is not supported (model_type 'llama'): the method 'bitsandbytes'"));
    CHECK_THAT(refusal("{" + llama + R"(, "quantization_config": {"quant_method": "fp8", "weight_block_size": [64, 64]}})"),
               Contains("'quantization_config.weight_block_size' must be [128, 128]"));
    CHECK_THAT(refusal(R"({"model_type": "gpt_oss", "hidden_size": 2880, "num_hidden_layers": 2, "num_attention_heads": 64,
        "num_key_value_heads": 8, "intermediate_size": 2880, "vocab_size": 201088, "num_local_experts": 32,
        "experts_per_token": 4, "sliding_window": 128, "layer_types": ["sliding_attention", "strange_attention"]})"),
               Contains("config.json field 'layer_types' is not supported (model_type 'gpt_oss'): the layer type 'strange_attention'"));
    CHECK_THAT(refusal(R"({"model_type": "nemotron_h", "hidden_size": 1024, "num_hidden_layers": 3, "num_attention_heads": 8,
        "vocab_size": 1000, "intermediate_size": 4096, "mamba_num_heads": 16, "mamba_head_dim": 64, "ssm_state_size": 128,
        "hybrid_override_pattern": "M*X"})"),
               Contains("config.json field 'hybrid_override_pattern' is not supported (model_type 'nemotron_h'): the layer 'X'"));
    CHECK_THAT(refusal(R"({"model_type": "nemotron_h", "hidden_size": 1024, "num_hidden_layers": 3, "num_attention_heads": 8,
        "vocab_size": 1000, "intermediate_size": 4096, "mamba_num_heads": 16, "mamba_head_dim": 64, "ssm_state_size": 128,
        "hybrid_override_pattern": "M*"})"),
               Contains("'hybrid_override_pattern' must have a character per layer (3), not 2"));
    CHECK_THAT(refusal(R"({"model_type": "qwen3_next", "hidden_size": 2048, "num_hidden_layers": 4, "num_attention_heads": 16,
        "vocab_size": 1000, "intermediate_size": 5120})"),
               Contains("config.json has no 'linear_num_key_heads'"));
    CHECK_THAT(refusal("{" + llama + R"(, "num_attention_heads": "32"})"), Contains("'num_attention_heads' must be a number"));
    const std::string kimi = R"("model_type": "kimi_linear", "hidden_size": 2304, "num_hidden_layers": 3,
        "num_attention_heads": 32, "num_key_value_heads": 32, "intermediate_size": 9216, "vocab_size": 163840,
        "kv_lora_rank": 512, "q_lora_rank": null, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128)";
    const std::string kda = R"("num_heads": 32, "head_dim": 128, "short_conv_kernel_size": 4)";
    CHECK(model_from_hf_config("{" + kimi + R"(, "linear_attn_config": {"kda_layers": [1, 2], "full_attn_layers": [3], )" +
                                   kda + "}}", "kimi", "config_json").layers_with(Attention::state) == 2);
    // Kimi-K3's full-rank gate: g_proj (2304 -> 32 x 128) instead of g_a and g_b.
    const ModelSpec full_rank = model_from_hf_config("{" + kimi + R"(, "linear_attn_config": {"kda_layers": [1, 2],
        "full_attn_layers": [3], "use_full_rank_gate": true, )" + kda + "}}", "kimi", "config_json");
    CHECK(full_rank.state.params - model_from_hf_config("{" + kimi + R"(, "linear_attn_config": {"kda_layers": [1, 2],
        "full_attn_layers": [3], )" + kda + "}}", "kimi", "config_json").state.params ==
          2304.0 * 4096 - (2304.0 * 128 + 128 * 4096));
    CHECK(refusal("{" + kimi + R"(, "linear_attn_config": {"kda_layers": [1, 2], "full_attn_layers": [3],
        "use_sparse_gate": true, )" + kda + "}}") ==
          "argument 'config_json': config.json field 'linear_attn_config.use_sparse_gate' is not supported "
          "(model_type 'kimi_linear')");
    CHECK_THAT(refusal("{" + kimi + R"(, "linear_attn_config": {"kda_layers": [1], "full_attn_layers": [3], )" + kda + "}}"),
               Contains("config.json field 'linear_attn_config' names layer 2 in neither kda_layers nor full_attn_layers"));
    CHECK_THAT(refusal("{" + kimi + R"(, "linear_attn_config": {"kda_layers": [1, 3], "full_attn_layers": [3], )" + kda + "}}"),
               Contains("config.json field 'linear_attn_config.full_attn_layers' names layer 3 twice"));
    CHECK_THAT(refusal("{" + kimi + R"(, "linear_attn_config": {"kda_layers": [0, 1], "full_attn_layers": [3], )" + kda + "}}"),
               Contains("'linear_attn_config.kda_layers' must list layers from 1 to num_hidden_layers"));
    CHECK_THAT(refusal("{" + kimi + R"(, "linear_attn_config": {"kda_layers": [1, 2], "full_attn_layers": [3]}})"),
               Contains("config.json has no 'linear_attn_config.num_heads'"));
    CHECK(model_from_hf_config("{" + kimi + R"(, "mla_use_output_gate": true, "linear_attn_config": {"kda_layers": [1, 2],
        "full_attn_layers": [3], )" + kda + "}}", "kimi", "config_json").gated_attention);
    CHECK_THAT(refusal("{" + kimi + R"(, "attn_res_block_size": 0, "linear_attn_config": {"kda_layers": [1, 2],
        "full_attn_layers": [3], )" + kda + "}}"),
               Contains("config.json field 'attn_res_block_size' must be a whole number from 1 to num_hidden_layers"));
    CHECK_THAT(refusal("{" + kimi + R"(, "routed_expert_hidden_size": 1024, "linear_attn_config": {"kda_layers": [1, 2],
        "full_attn_layers": [3], )" + kda + "}}"),
               Contains("config.json field 'routed_expert_hidden_size' is not supported (model_type 'kimi_linear'): a "
                        "latent MoE without experts"));
    // DeepSeek-V4: only the ratios its reference code has; an entry per layer; its expert formats.
    const std::string v4 = R"("model_type": "deepseek_v4", "hidden_size": 1024, "num_hidden_layers": 2,
        "num_attention_heads": 16, "num_key_value_heads": 1, "head_dim": 512, "q_lora_rank": 256, "o_lora_rank": 256,
        "o_groups": 4, "sliding_window": 128, "index_topk": 64, "index_n_heads": 8, "index_head_dim": 128,
        "hc_mult": 4, "n_routed_experts": 8, "num_experts_per_tok": 2, "n_shared_experts": 1,
        "moe_intermediate_size": 512, "vocab_size": 1000)";
    CHECK(model_from_hf_config("{" + v4 + R"(, "compress_ratios": [4, 128]})", "v4", "config_json")
              .layers_with(Attention::compressed) == 2);
    CHECK(refusal("{" + v4 + R"(, "compress_ratios": [4, 8]})") ==
          "argument 'config_json': config.json field 'compress_ratios' is not supported (model_type 'deepseek_v4'): "
          "the ratio 8");
    CHECK_THAT(refusal("{" + v4 + R"(, "compress_ratios": [4]})"),
               Contains("config.json field 'compress_ratios' must have an entry per layer (2), not 1"));
    CHECK_THAT(refusal("{" + v4 + R"(, "compress_ratios": [4, 128], "expert_dtype": "fp2"})"),
               Contains("config.json field 'expert_dtype' is not supported (model_type 'deepseek_v4'): the dtype 'fp2'"));
    CHECK_THAT(refusal("{" + v4 + R"(, "compress_ratios": [4, 128], "o_groups": 3})"),
               Contains("config.json field 'o_groups' (3) must divide num_attention_heads (16)"));
    // MiniMax-M3: its sparse_attention_config read key by key; what it does not know is refused by its name.
    const std::string m3 = R"("model_type": "minimax_m3", "hidden_size": 1024, "num_hidden_layers": 2, "num_attention_heads": 16,
        "num_key_value_heads": 4, "head_dim": 64, "intermediate_size": 512, "dense_intermediate_size": 2048,
        "shared_intermediate_size": 512, "n_shared_experts": 1, "num_local_experts": 8, "num_experts_per_tok": 2,
        "moe_layer_freq": [0, 1], "vocab_size": 1000)";
    const std::string msa = R"("use_sparse_attention": true, "sparse_attention_freq": [0, 1], "sparse_block_size": 128,
        "sparse_topk_blocks": 16, "sparse_index_dim": 64, "sparse_num_index_heads": 4, "sparse_init_block": 0,
        "sparse_local_block": 1, "sparse_score_type": "max")";
    const ModelSpec small = model_from_hf_config("{" + m3 + R"(, "sparse_attention_config": {)" + msa +
                                                     R"(, "sparse_disable_index_value": [0, 1]}})", "m3", "config_json");
    CHECK(small.layers_with(Attention::block_sparse) == 1);
    CHECK(small.runs[1].window == 2048);
    CHECK(small.layers_with(Attention::full) == 1);
    CHECK(small.ffn == 2048);
    // Off: every layer attends in full (the dense ablation).
    CHECK(model_from_hf_config("{" + m3 + R"(, "sparse_attention_config": {"use_sparse_attention": false}})", "m3",
                               "config_json").layers_with(Attention::full) == 2);
    CHECK(refusal("{" + m3 + R"(, "sparse_attention_config": {)" + msa +
                  R"(, "sparse_disable_index_value": [0, 1], "sparse_init_tokens": 128}})") ==
          "argument 'config_json': config.json field 'sparse_attention_config.sparse_init_tokens' is not supported "
          "(model_type 'minimax_m3')");
    CHECK_THAT(refusal("{" + m3 + R"(, "sparse_attention_config": {)" + msa + R"(, "sparse_disable_index_value": [0, 0]}})"),
               Contains("config.json field 'sparse_attention_config.sparse_disable_index_value' is not supported "
                        "(model_type 'minimax_m3'): the index value and output projections of layer 1"));
    std::string sum = msa;
    sum.replace(sum.find("\"max\""), 5, "\"sum\"");
    CHECK_THAT(refusal("{" + m3 + R"(, "sparse_attention_config": {)" + sum + R"(, "sparse_disable_index_value": [0, 1]}})"),
               Contains("config.json field 'sparse_attention_config.sparse_score_type' is not supported (model_type "
                        "'minimax_m3'): the score type \"sum\""));
    CHECK_THAT(refusal("{" + m3 + R"(, "attention_output_gate": true})"),
               Contains("config.json field 'attention_output_gate' is not supported (model_type 'minimax_m3')"));
    CHECK_THAT(refusal("{" + m3 + R"(, "sparse_attention_config": {"use_sparse_attention": true, "sparse_topk_blocks": 16}})"),
               Contains("config.json has no 'sparse_attention_config.sparse_block_size'"));
    // The published config.json: minimax_m3_vl, the text model in text_config (whose own model_type is minimax_m2).
    CHECK(model_from_hf_config(R"({"model_type": "minimax_m3_vl", "text_config": {"model_type": "minimax_m2", )" + m3.substr(
                                   m3.find("\"hidden_size\"")) + R"(, "sparse_attention_config": {)" + msa +
                                   R"(, "sparse_disable_index_value": [0, 1]}}})", "m3vl", "config_json")
              .layers_with(Attention::block_sparse) == 1);
    // A text_config of minimax_m2 alone with a sparse_attention_config: not read as MiniMax-M2.
    CHECK_THAT(refusal(R"({"model_type": "minimax_m2", "hidden_size": 1024, "num_hidden_layers": 2, "num_attention_heads": 16,
        "intermediate_size": 512, "vocab_size": 1000, "sparse_attention_config": {"use_sparse_attention": true}})"),
               Contains("config.json field 'sparse_attention_config' is not supported (model_type 'minimax_m2')"));
    // Hyper-connections or a grouped output in another family: refused, not read as something else.
    CHECK_THAT(refusal("{" + llama + R"(, "hc_mult": 4})"),
               Contains("config.json field 'hc_mult' is not supported (model_type 'llama')"));
}

TEST_CASE("the catalog's models of tests/data/hf-configs hold their config.json's values, verbatim", "[hf][catalog]") {
    const json catalog = json::parse(slurp(std::filesystem::path(ROOFLINE_CATALOG_DIR) / "models.json"));
    int checked = 0;
    for (const json& entry : catalog["models"]) {
        const std::string id = entry["id"];
        if (!std::filesystem::exists(kDir / id / "config.json")) continue;
        INFO(id);
        std::string text = slurp(kDir / id / "config.json");
        for (std::size_t at; (at = text.find("Infinity")) != std::string::npos;) text.replace(at, 8, "null");
        const json whole = json::parse(text);
        for (const auto& [key, value] : entry["config"].items()) {
            INFO(key);
            REQUIRE(whole.contains(key));
            if (key == "text_config") {
                for (const auto& [k, v] : value.items()) {
                    INFO(k);
                    CHECK(whole["text_config"][k] == v);
                }
            } else {
                CHECK(whole[key] == value);
            }
        }
        // And it computes as the file does.
        const ModelSpec from_file = imported(id);
        CHECK(find_model(id)->params_b() == from_file.params_b());
        CHECK(find_model(id)->native_experts == from_file.native_experts);
        ++checked;
    }
    CHECK(checked == 25);  // the catalog ids with a folder (all but minimax-m2.5)
}

// Through the C ABI, as a host calls it: declared after the tests of the core, whose local `step` and `catalog`
// would shadow them.
namespace {

json catalog(const char* file) { return json::parse(slurp(std::filesystem::path(ROOFLINE_CATALOG_DIR) / file)); }

}  // namespace

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
