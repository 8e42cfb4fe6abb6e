"""Adds models of tests/data/hf-configs/ to libroofline/catalog/models.json: each entry's "config" is the
subset of its config.json that the importer reads (src/hf_config.cpp), copied verbatim (the same field
names and values), with its source and published parameter counts from tests/data/hf-configs/sources.json.
An entry already in the catalog is replaced. tests/test_hf_config.cpp checks that every catalog entry
with a folder there holds exactly the values of its config.json.

usage: python3 tools/catalog/add_hf_models.py ID [ID ...]
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "tests" / "data" / "hf-configs"
CATALOG = ROOT / "libroofline" / "catalog" / "models.json"

# What src/hf_config.cpp reads, and what tells a reader where a number comes from.
READ = {
    "model_type", "architectures", "torch_dtype", "dtype", "max_position_embeddings",
    "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads", "head_dim", "attention_head_dim",
    "intermediate_size", "intermediate_size_mlp", "vocab_size", "tie_word_embeddings",
    "num_local_experts", "n_routed_experts", "num_experts", "num_experts_per_tok", "experts_per_token",
    "num_experts_per_token", "top_k_experts", "n_shared_experts", "num_shared_experts", "moe_intermediate_size",
    "shared_expert_intermediate_size", "moe_shared_expert_intermediate_size", "shared_intermediate_size",
    "first_k_dense_replace", "moe_layer_freq", "decoder_sparse_step", "mlp_only_layers",
    "q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim",
    "sliding_window", "use_sliding_window", "max_window_layers", "sliding_window_pattern", "layer_types",
    "attention_chunk_size", "no_rope_layers", "interleave_moe_layer_step",
    "full_attention_interval", "attn_output_gate", "linear_num_key_heads", "linear_key_head_dim",
    "linear_num_value_heads", "linear_value_head_dim", "linear_conv_kernel_dim", "mamba_ssm_dtype",
    "hybrid_override_pattern", "mamba_num_heads", "mamba_head_dim", "ssm_state_size", "n_groups", "conv_kernel",
    "mamba_ssm_cache_dtype", "mlp_hidden_act",
    "index_topk", "index_n_heads", "index_head_dim", "linear_attn_config", "mla_use_output_gate",
    "num_nextn_predict_layers", "mtp_num_hidden_layers",
    "quantization_config",
}


def subset(config):
    out = {k: v for k, v in config.items() if k in READ}
    if isinstance(config.get("text_config"), dict) and "hidden_size" not in config:
        out["text_config"] = {k: v for k, v in config["text_config"].items() if k in READ}
    return out


def main(ids):
    sources = {m["id"]: m for m in json.loads((CONFIGS / "sources.json").read_text())["models"]}
    catalog = json.loads(CATALOG.read_text())
    for model_id in ids:
        folder = CONFIGS / model_id
        config = json.loads((folder / "config.json").read_text().replace("Infinity", "null"))
        src = sources[model_id]
        entry = {
            "id": model_id,
            "name": src.get("name") or src["hf_repo"].split("/")[-1],
            "hf_repo": src["hf_repo"],
            "source": f"https://huggingface.co/{src['hf_repo']}/blob/main/config.json",
            "source_kind": "config.json",
            "params_b_reported": src["params_b_reported"],
            "active_params_b_reported": src["active_params_b_reported"],
            "notes": (f"Copy of config.json: {src['config_source']} (tests/data/hf-configs/{model_id}/"
                      f"{'; verbatim' if src['verbatim'] else '; NOT verbatim: see sources.json'}). "
                      f"{src['notes']} Parameter counts: {src['params_source']}"),
            "config": subset(config),
        }
        quant = folder / "hf_quant_config.json"
        if quant.exists():
            entry["hf_quant_config"] = json.loads(quant.read_text())
        models = catalog["models"]
        for i, m in enumerate(models):
            if m["id"] == model_id:
                models[i] = entry
                break
        else:
            models.append(entry)
    CATALOG.write_text(json.dumps(catalog, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
