// A model argument that holds the text of a Hugging Face config.json rather than a catalog id (#17):
// read once by the importer (model_from_hf_config), then kept in a small cache keyed by the exact text.
// Internal to the core: the formula layer's model_entry_of() (formulas_catalog.cpp) is its one caller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "roofline/catalog.hpp"

namespace roofline::config_text {

/// The longest text read as a config.json: 1 MiB (a real config is a few KB).
inline constexpr std::size_t kMaxBytes = std::size_t{1} << 20;
/// The most models the cache keeps; the least recently used goes first.
inline constexpr std::size_t kCapacity = 64;

/// Whether a model argument is the text of a config.json: its first character other than a space, a tab,
/// '\r' or '\n' is '{'. Such a text is never looked up as a catalog id, and an id never parsed as JSON.
bool is_config(std::string_view text) noexcept;

/// FNV-1a, 64 bits, of the exact text: the same on every machine.
std::uint64_t hash(std::string_view text) noexcept;

/// The id of the model of a config text: "config:" and the first 8 hex digits of hash(text), e.g.
/// "config:3f2a9c01"; the same text gives the same id everywhere, an edited one another id.
std::string id_of(std::string_view text);

/// The model of a config text (is_config(text)), read by model_from_hf_config() the first time and from
/// the cache afterwards: the same entry for the same text while it stays cached. Thread-safe. Throws
/// Error(invalid_argument, "", argument) for a text over kMaxBytes or one the importer refuses (its
/// message, which names the config.json field); a refused text is not cached.
std::shared_ptr<const ModelSpec> model(std::string_view text, const std::string& argument);

/// How many models the cache holds now (tests), and emptying it (tests).
std::size_t cached();
void clear();

}  // namespace roofline::config_text
