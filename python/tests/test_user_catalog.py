"""The user folder that Calc and the CLI read ($XDG_CONFIG_HOME/libroofline: catalog/*.json and
models/<id>.json) is loaded on import, through roofline_catalog_load_user_folder(); ROOFLINE_NO_USER_CATALOG=1
skips it; load_user_catalog() loads a folder when asked."""
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import roofline

MODELS = Path(__file__).resolve().parents[2] / "libroofline" / "catalog" / "models.json"
CONFIG = next(m["config"] for m in json.loads(MODELS.read_text(encoding="utf-8"))["models"] if m["id"] == "llama-3-8b")
STEP = ("h100-sxm", 16, 2048)


def python(code, config_home, **env):
    """Runs `code` in a fresh interpreter whose user folder is config_home/libroofline."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, XDG_CONFIG_HOME=str(config_home), **env))


class UserFolder(unittest.TestCase):
    def setUp(self):
        self.home = Path(self.enterContext(tempfile.TemporaryDirectory()))
        self.folder = self.home / "libroofline"
        (self.folder / "models").mkdir(parents=True)
        (self.folder / "models" / "our-8b.json").write_text(json.dumps(CONFIG))

    def test_loaded_on_import_as_the_same_config_imported(self):
        r = python(f"import roofline; print(repr(roofline.step_ms('our-8b', *{STEP!r})))", self.home)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        roofline.import_hf_config("python-given-8b", CONFIG)
        self.assertEqual(float(r.stdout), roofline.step_ms("python-given-8b", *STEP))

    def test_no_user_catalog_skips_the_folder(self):
        r = python(f"import roofline; roofline.step_ms('our-8b', *{STEP!r})", self.home, ROOFLINE_NO_USER_CATALOG="1")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("ArgumentError", r.stderr)
        self.assertIn("no model 'our-8b'", r.stderr)
        # ... and load_user_catalog() loads it when asked.
        r = python(f"import roofline; print(roofline.load_user_catalog()); print(roofline.step_ms('our-8b', *{STEP!r}))",
                   self.home, ROOFLINE_NO_USER_CATALOG="1")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.split()[0], "1")

    def test_a_bad_file_warns_naming_it_and_the_others_load(self):
        (self.folder / "catalog").mkdir()
        bad = self.folder / "catalog" / "broken.json"
        bad.write_text("{ not json")
        r = python(f"import roofline; print(roofline.step_ms('our-8b', *{STEP!r}))", self.home)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("RuntimeWarning", r.stderr)
        self.assertIn(str(bad), r.stderr)

    def test_load_user_catalog_of_a_folder(self):
        (self.folder / "models" / "our-8b.json").rename(self.folder / "models" / "python-folder-8b.json")
        (self.folder / "catalog").mkdir()
        (self.folder / "catalog" / "lab.json").write_text(json.dumps(
            {"gpus": [{"id": "python-lab-gpu", "tflops": {"bf16": 50}, "hbm_tbs": 0.5, "hbm_gb": 16}]}))
        self.assertEqual(roofline.load_user_catalog(self.folder), 2)
        self.assertEqual(roofline.gpu("python-lab-gpu", "hbm_tbs"), 0.5)
        self.assertGreater(roofline.step_ms("python-folder-8b", *STEP), 0)
        self.assertEqual(roofline.load_user_catalog(self.home / "no-such-folder"), 0)
        bad = self.folder / "models" / "python-bad.json"
        bad.write_text(json.dumps({"model_type": "llama"}))
        with self.assertRaises(roofline.ArgumentError) as caught:
            roofline.load_user_catalog(self.folder)
        self.assertIn(f"{bad}: ", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
