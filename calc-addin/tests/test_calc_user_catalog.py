"""A user's own catalog reaches Calc: the add-in loads ~/.config/libroofline/catalog/*.json and
~/.config/libroofline/models/<id>.json (Hugging Face config.json files) once, when the office creates
it; formulas then take those ids, and compute what the C ABI computes for them. And a workbook shared with a
colleague who has no such folder: the model's ROOFLINE_MODEL_CONFIG text kept in a cell computes as the model there.

usage: test_calc_user_catalog.py WORKDIR OXT LIBROOFLINE
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from calc import Calc, Checks, load_roofline, shows  # noqa: E402

CONFIG = {"model_type": "llama", "hidden_size": 3072, "intermediate_size": 8192, "num_hidden_layers": 28,
          "num_attention_heads": 24, "num_key_value_heads": 8, "vocab_size": 128256, "tie_word_embeddings": True}
CATALOG = {"gpus": [{"id": "lab-gpu", "name": "A GPU of our lab", "tflops": {"bf16": 150, "fp8": 300},
                     "hbm_tbs": 1.2, "hbm_gb": 48, "interconnect_tbs": 0.05, "sources": {"memory": "our lab"}}]}


def main(workdir, oxt, library):
    calc = Calc(workdir, oxt)
    home = calc.dir / ".config" / "libroofline"  # the harness runs the office with HOME=workdir
    (home / "models").mkdir(parents=True)
    (home / "catalog").mkdir(parents=True)
    (home / "models" / "our-3b.json").write_text(json.dumps(CONFIG))
    (home / "catalog" / "lab.json").write_text(json.dumps(CATALOG))
    (home / "catalog" / "broken.json").write_text("{ not json")  # reported on stderr, ignored

    roofline = load_roofline(library)
    roofline.import_hf_config("our-3b", CONFIG)
    roofline.add_catalog(CATALOG)
    cases = [
        ('=ROOFLINE_MODEL("our-3b"; "layers")', roofline.model("our-3b", "layers")),
        ('=ROOFLINE_GPU("lab-gpu"; "hbm_tbs")', roofline.gpu("lab-gpu", "hbm_tbs")),
        ('=ROOFLINE_STEP_MS("our-3b"; "lab-gpu"; 16; 2048; "fp8"; ; 2; "typical")',
         roofline.step_ms("our-3b", "lab-gpu", 16, 2048, "fp8", "", 2, "typical")),
        ('=ROOFLINE_STEP_MS("llama-3-8b"; "h100-sxm"; 64; 4096)', roofline.step_ms("llama-3-8b", "h100-sxm", 64, 4096)),
        ('=ROOFLINE_STEP_MS("not-ours"; "lab-gpu"; 1; 0)', None),
        ('=ROOFLINE_MODEL_CONFIG("our-3b")', roofline.call("ROOFLINE_MODEL_CONFIG", "our-3b")),
        ('=ROOFLINE_STEP_MS(ROOFLINE_MODEL_CONFIG("our-3b"); "h100-sxm"; 16; 2048)',
         roofline.step_ms("our-3b", "h100-sxm", 16, 2048)),
    ]
    shown = calc.compute([c[0] for c in cases])
    check = Checks()
    for (formula, want), got in zip(cases, shown):
        check(shows(got, want, 1e-9), f"{formula} -> {got!r} (C ABI: {want})")

    # The colleague: another profile and home, no user folder. The id is unknown there; the config text kept in a
    # cell (what ROOFLINE_MODEL_CONFIG showed on the first machine) computes as the model.
    text = shown[len(cases) - 2]
    colleague = Calc(Path(workdir) / "colleague", oxt)
    check(not (colleague.dir / ".config" / "libroofline").exists(), "the colleague has no user folder")
    grid = colleague.compute_grid([[text, '=ROOFLINE_STEP_MS(A1; "h100-sxm"; 16; 2048)',
                                    '=ROOFLINE_STEP_MS("our-3b"; "h100-sxm"; 16; 2048)',
                                    '=ROOFLINE_WHY("ROOFLINE_STEP_MS"; "our-3b"; "h100-sxm"; 16; 2048)']])[0]
    want = roofline.step_ms("our-3b", "h100-sxm", 16, 2048)
    check(shows(grid[1], want, 1e-9), f"colleague: ROOFLINE_STEP_MS(the config text in A1; ...) -> {grid[1]!r} "
          f"(the first machine, by id: {want})")
    check(grid[2] == "#VALUE!", f"colleague: ROOFLINE_STEP_MS(\"our-3b\"; ...) -> {grid[2]!r}: the id is unknown there")
    check(isinstance(grid[3], str) and "'our-3b' in this machine's catalog or user folder" in grid[3],
          f"colleague: ROOFLINE_WHY says why: {grid[3]!r}")
    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
