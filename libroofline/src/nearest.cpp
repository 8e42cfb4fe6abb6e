// Nearest-match suggestions. See nearest.hpp.
#include "roofline/nearest.hpp"

#include <algorithm>
#include <tuple>
#include <vector>

#include "ascii.hpp"

namespace roofline {
namespace {

char folded(char c) { return ascii::lower(c); }

bool is_separator(char c) { return c == '-' || c == '_' || c == '.' || c == ' '; }

/// The word in lower case without its separators.
std::string skeleton(std::string_view word) {
    std::string out;
    for (char c : word)
        if (!is_separator(c)) out += folded(c);
    return out;
}

/// Characters a word needs before a candidate that merely starts with it is suggested ("h1" suggests nothing).
constexpr std::size_t kPrefixMin = 3;

template <typename Text> std::optional<std::size_t> nearest_of(std::string_view word, std::span<const Text> candidates) {
    const std::string word_skeleton = skeleton(word);
    const std::size_t allowed = std::max<std::size_t>(1, word_skeleton.size() / 3);
    std::optional<std::size_t> best, best_prefix, best_stem;
    std::tuple<std::size_t, std::size_t> best_distance{}, best_prefix_length{};
    std::size_t best_stem_length = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const std::string_view candidate = candidates[i];
        const std::string candidate_skeleton = skeleton(candidate);
        const std::tuple distance{edit_distance(word_skeleton, candidate_skeleton), edit_distance(word, candidate)};
        // A candidate that starts with what was typed ("h100" -> "h100-sxm"): the shortest such one.
        if (word_skeleton.size() >= kPrefixMin && candidate_skeleton.size() > word_skeleton.size() &&
            candidate_skeleton.compare(0, word_skeleton.size(), word_skeleton) == 0) {
            const std::tuple length{candidate_skeleton.size(), std::get<1>(distance)};
            if (!best_prefix || length < best_prefix_length) {
                best_prefix = i;
                best_prefix_length = length;
            }
        }
        // A candidate that what was typed starts with ("h200-sxm" -> "h200", "llama-3.1-70b-instruct" ->
        // "llama-3.1-70b"): the longest such one.
        if (candidate_skeleton.size() >= kPrefixMin && word_skeleton.size() > candidate_skeleton.size() &&
            word_skeleton.compare(0, candidate_skeleton.size(), candidate_skeleton) == 0 &&
            candidate_skeleton.size() > best_stem_length) {
            best_stem = i;
            best_stem_length = candidate_skeleton.size();
        }
        if (std::get<0>(distance) > allowed) continue;
        if (!best || distance < best_distance) {
            best = i;
            best_distance = distance;
        }
    }
    // The same word but for case and separators first, then a candidate the word begins, then one that begins the
    // word, then the closest typo.
    if (best && std::get<0>(best_distance) == 0) return best;
    if (best_prefix) return best_prefix;
    return best_stem ? best_stem : best;
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
    // Optimal string alignment: Levenshtein plus the transposition of two neighbours, three rows.
    std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const bool same = folded(a[i - 1]) == folded(b[j - 1]);
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (same ? 0 : 1)});
            if (i > 1 && j > 1 && folded(a[i - 1]) == folded(b[j - 2]) && folded(a[i - 2]) == folded(b[j - 1]))
                current[j] = std::min(current[j], before[j - 2] + 1);
        }
        std::swap(before, previous);
        std::swap(previous, current);
    }
    return previous[b.size()];
}

std::optional<std::size_t> nearest(std::string_view word, std::span<const std::string_view> candidates) {
    return nearest_of(word, candidates);
}

std::optional<std::size_t> nearest(std::string_view word, std::span<const std::string> candidates) {
    return nearest_of(word, candidates);
}

namespace {

template <typename Text> std::string suggestion_of(std::string_view word, std::span<const Text> candidates) {
    const auto i = nearest(word, candidates);
    return i ? "; did you mean '" + std::string(candidates[*i]) + "'?" : std::string();
}

}  // namespace

std::string suggestion(std::string_view word, std::span<const std::string_view> candidates) {
    return suggestion_of(word, candidates);
}

std::string suggestion(std::string_view word, std::span<const std::string> candidates) {
    return suggestion_of(word, candidates);
}

std::string unknown_catalog_id(std::string_view kind, std::string_view id, std::span<const std::string> known) {
    return "no " + std::string(kind) + " '" + std::string(id) + "' in the catalog" + suggestion(id, known);
}

std::string unknown_choice(std::string_view kind, std::string_view id, std::span<const std::string> known) {
    std::string listed;
    for (const std::string& k : known) listed += (listed.empty() ? "" : ", ") + k;
    return "no " + std::string(kind) + " '" + std::string(id) + "' (" + listed + ")" + suggestion(id, known);
}

}  // namespace roofline
