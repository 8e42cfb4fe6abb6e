"""A workbook carries its own models: a cell holding the text of a Hugging Face config.json is a model
argument (a text whose first non-space character is '{'), read by the same importer as
roofline_model_import_hf_config(), so every formula computes what the C ABI computes for the same config.
A bad config shows Err:502 (ROOFLINE_ERROR_ARGUMENT), ROOFLINE_WHY names the config.json field.
And its own calibration: a cell holding a profile text ("fit(...): bw=..., ...") is a profile argument of
every formula, the planner's included; a tampered one shows Err:502 and ROOFLINE_WHY names the parameter.

usage: test_calc_config_text.py WORKDIR OXT LIBROOFLINE
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from calc import Calc, Checks, Error, load_roofline, shows  # noqa: E402

CONFIG = {"model_type": "llama", "hidden_size": 3072, "intermediate_size": 8192, "num_hidden_layers": 28,
          "num_attention_heads": 24, "num_key_value_heads": 8, "vocab_size": 128256, "tie_word_embeddings": True}
DRAFT = dict(CONFIG, num_hidden_layers=4)
BAD = {k: v for k, v in CONFIG.items() if k != "hidden_size"}
PROFILE = ("fit(typical; n=12; mdape=3.1%; loo=4.1%): bw=0.7, mfu=0.45, link=0.6, step_ms=0.8, allreduce_us=12, "
           "ep_imbalance=1.11, overlap_ep=0")
TAMPERED = PROFILE.replace("bw=0.7", "bw=1.7")


def literal(text):
    """A text as a literal inside a Calc formula: its quotes doubled."""
    return '"' + text.replace('"', '""') + '"'


def main(workdir, oxt, library):
    roofline = load_roofline(library)
    config, draft, bad = json.dumps(CONFIG), json.dumps(DRAFT), json.dumps(BAD)
    roofline.import_hf_config("calc-config-3b", CONFIG)
    roofline.import_hf_config("calc-config-draft", DRAFT)
    step = roofline.step_ms("calc-config-3b", "h100-sxm", 8, 1024)
    check = Checks()
    check(roofline.step_ms(config, "h100-sxm", 8, 1024) == step, "C ABI: the config text computes as its import")
    why_bad = roofline.call("ROOFLINE_WHY", "ROOFLINE_STEP_MS", bad, "h100-sxm", 8, 1024)
    check("config.json has no 'hidden_size'" in why_bad and "'model'" in why_bad, f"C ABI: the reason {why_bad!r}")

    fitted_step = roofline.step_ms("llama-3.1-8b", "h100-sxm", 16, 4096, "bf16", "", 1, PROFILE)
    check(fitted_step != roofline.step_ms("llama-3.1-8b", "h100-sxm", 16, 4096, "bf16", "", 1, "typical"),
          "C ABI: the profile text is not typical")
    why_tampered = roofline.call("ROOFLINE_WHY", "ROOFLINE_STEP_MS", "llama-3.1-8b", "h100-sxm", 16, 4096, "bf16", "",
                                 1, TAMPERED)
    check("'bw'" in why_tampered and "'profile'" in why_tampered, f"C ABI: the reason {why_tampered!r}")
    fitted_plan = roofline.call("ROOFLINE_PLAN", "llama-3.1-8b", 10, 1000, 200, 800, 40, "h100-sxm", "", "", PROFILE)
    typical_plan = roofline.call("ROOFLINE_PLAN", "llama-3.1-8b", 10, 1000, 200, 800, 40, "h100-sxm")
    check(fitted_plan[0][9] == "tpot_ms" and fitted_plan[1][9] != typical_plan[1][9],
          "C ABI: the plan's TPOT under the profile text is not typical's")

    # Rows 1-5 hold the config texts and the profile texts (column A, as a user pastes them); the formulas follow.
    cases = [
        (config, config),
        (draft, draft),
        (bad, bad),
        (PROFILE, PROFILE),
        (TAMPERED, TAMPERED),
        ('=ROOFLINE_STEP_MS("llama-3.1-8b"; "h100-sxm"; 16; 4096; "bf16"; ; 1; A4)', fitted_step),
        ('=INDEX(ROOFLINE_PLAN("llama-3.1-8b"; 10; 1000; 200; 800; 40; "h100-sxm"; ; ; A4); 2; 10)', fitted_plan[1][9]),
        ('=ROOFLINE_STEP_MS("llama-3.1-8b"; "h100-sxm"; 16; 4096; "bf16"; ; 1; A5)', Error("Err:502")),
        ('=ROOFLINE_WHY("ROOFLINE_STEP_MS"; "llama-3.1-8b"; "h100-sxm"; 16; 4096; "bf16"; ""; 1; A5)', why_tampered),
        ('=ROOFLINE_STEP_MS(A1; "h100-sxm"; 8; 1024)', step),
        (f'=ROOFLINE_STEP_MS({literal(config)}; "h100-sxm"; 8; 1024)', step),
        ('=ROOFLINE_STEP_MS(" "&A1; "h100-sxm"; 8; 1024; "fp8"; ; 1; "typical")',
         roofline.step_ms("calc-config-3b", "h100-sxm", 8, 1024, "fp8", "", 1, "typical")),
        ('=ROOFLINE_TTFT_MS(A1; "h100-sxm"; 2048)', roofline.ttft_ms("calc-config-3b", "h100-sxm", 2048)),
        ('=ROOFLINE_FIT_BATCH(A1; "h100-sxm"; 4096)', roofline.fit_batch("calc-config-3b", "h100-sxm", 4096)),
        ('=ROOFLINE_CACHE_GB(A1; 8; 4096)', roofline.cache_gb("calc-config-3b", 8, 4096)),
        ('=ROOFLINE_MODEL(A1; "layers")', 28),
        ('=ROOFLINE_SPEC_STEP_MS(A1; A2; "h100-sxm"; 8; 1024; 4; 0.7)',
         roofline.spec_step_ms("calc-config-3b", "calc-config-draft", "h100-sxm", 8, 1024, 4, 0.7)),
        ('=ROOFLINE_STEP_MS(A3; "h100-sxm"; 8; 1024)', Error("Err:502")),
        ('=ROOFLINE_WHY("ROOFLINE_STEP_MS"; A3; "h100-sxm"; 8; 1024)', why_bad),
        ('=ROOFLINE_STEP_MS("{oops"; "h100-sxm"; 8; 1024)', Error("Err:502")),
    ]
    # A config typed into a cell (not pasted): AutoCorrect's typographic quotes, opening and closing, as the cell then
    # holds them (issue #32: 0.11 showed Err:502, "not valid JSON"); it computes as the config.
    curly, opening = "", True
    for ch in config:
        if ch == '"':
            curly += "\u201c" if opening else "\u201d"
            opening = not opening
        else:
            curly += ch
    check(roofline.step_ms(curly, "h100-sxm", 8, 1024) == step, "C ABI: the typed config computes as its import")
    cases += [(curly, curly), (f'=ROOFLINE_STEP_MS(A{len(cases) + 1}; "h100-sxm"; 8; 1024)', step)]
    shown = Calc(workdir, oxt).compute([c[0] for c in cases])
    for (formula, want), got in zip(cases, shown):
        ok = got == want if isinstance(want, Error) else shows(got, want, 1e-9)
        check(ok, f"{formula[:90]} -> {str(got)[:90]!r} (C ABI: {str(want)[:90]})")
    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
