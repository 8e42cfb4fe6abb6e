"""The Rust example (examples/rust/decode_step.rs) built with rustc against the build's libroofline and run:
it must print what the C example prints for ROOFLINE_DECODE_MS(8; 64; 4096; 3.35) (its optional arguments
left out, so the library's defaults), and for ROOFLINE_STEP_MS("llama-3.1-8b"; "h100-sxm"; 64; 4096) the
CLI's step time, to the two decimals it shows.

Arguments: rustc, the folder of libroofline.so, decode_step.rs, the built C example decode-step, the built
CLI roofline, a work folder.
"""
import json
import os
import re
import subprocess
import sys


def main():
    rustc, libdir, source, decode_step, cli, work = sys.argv[1:7]
    os.makedirs(work, exist_ok=True)
    program = os.path.join(work, "decode_step")
    subprocess.run([rustc, "--edition", "2021", "-L", libdir, "-l", "roofline", "-C",
                    f"link-arg=-Wl,-rpath,{libdir}", source, "-o", program], check=True)
    out = subprocess.run([program], check=True, capture_output=True, text=True).stdout.splitlines()
    assert len(out) == 2, out

    c_line = subprocess.run([decode_step], check=True, capture_output=True, text=True).stdout.strip()
    assert out[0] == c_line, f"Rust printed {out[0]!r}, C {c_line!r}"

    step = json.loads(subprocess.run([cli, "step", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--batch", "64",
                                      "--ctx", "4096", "--json"], check=True, capture_output=True, text=True).stdout)
    m = re.fullmatch(r"llama-3\.1-8b on one h100-sxm, 64 x 4096 tokens: (\d+\.\d\d) ms a step \(bound\)", out[1])
    assert m, out[1]
    assert step["profile"] == "bound", step["profile"]
    assert m.group(1) == f"{step['step_ms']:.2f}", f"Rust printed {m.group(1)} ms, the CLI {step['step_ms']}"
    print("\n".join(out))
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
