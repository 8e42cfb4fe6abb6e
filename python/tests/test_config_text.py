"""A model argument may be the text of a Hugging Face config.json (a text whose first non-space character is
'{'): the same numbers as the config imported under an id, the importer's errors under the argument's name."""
import json
import unittest

import roofline

CONFIG = {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
          "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256}


class ConfigText(unittest.TestCase):
    def test_step_ms_of_a_config_text(self):
        text = json.dumps(CONFIG, indent=2)
        roofline.import_hf_config("python-config-text", CONFIG)
        self.assertEqual(roofline.step_ms(text, "h100-sxm", 8, 1024),
                         roofline.step_ms("python-config-text", "h100-sxm", 8, 1024))
        self.assertEqual(roofline.model(text, "layers"), 32)
        self.assertEqual(roofline.cache_gb(text, 8, 4096), roofline.cache_gb("python-config-text", 8, 4096))

    def test_a_bad_config_text_names_the_argument_and_the_field(self):
        bad = json.dumps({k: v for k, v in CONFIG.items() if k != "hidden_size"})
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.step_ms(bad, "h100-sxm", 8, 1024)
        self.assertEqual(e.exception.argument, "model")
        self.assertIn("config.json has no 'hidden_size'", str(e.exception))
        with self.assertRaises(roofline.ArgumentError) as e:
            roofline.spec_step_ms("llama-3.1-70b", "{oops", "h100-sxm", 8, 1024, 4, 0.7)
        self.assertEqual(e.exception.argument, "draft_model")


if __name__ == "__main__":
    unittest.main()
