// Case-insensitive comparison of ids and names (ASCII letters only, whatever the locale), without
// allocating: catalog ids, dtypes, profiles, fields and formula names are looked up on every call.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace roofline::ascii {

constexpr char lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// Whether `a` and `b` are equal but for the case of their ASCII letters.
constexpr bool iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    if (a == b) return true;  // the common case, compared a word at a time
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i] && lower(a[i]) != lower(b[i])) return false;
    return true;
}

/// Whether `id` equals `lowered` (already in lower case) but for the case of its ASCII letters.
constexpr bool equals_lowered(std::string_view lowered, std::string_view id) noexcept {
    if (lowered.size() != id.size()) return false;
    for (std::size_t i = 0; i < id.size(); ++i)
        if (lowered[i] != id[i] && lowered[i] != lower(id[i])) return false;
    return true;
}

/// `s` with its ASCII letters in lower case.
inline std::string lowered(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = lower(c);
    return out;
}

/// `s` without the spaces, tabs and line breaks at its ends.
constexpr std::string_view trimmed(std::string_view s) noexcept {
    constexpr std::string_view kSpace = " \t\r\n";
    while (!s.empty() && kSpace.find(s.front()) != std::string_view::npos) s.remove_prefix(1);
    while (!s.empty() && kSpace.find(s.back()) != std::string_view::npos) s.remove_suffix(1);
    return s;
}

}  // namespace roofline::ascii
