// The cache of models read from config.json texts. See config_text.hpp.
#include "config_text.hpp"

#include <fmt/format.h>

#include <list>
#include <mutex>
#include <utility>

#include "roofline/error.hpp"

namespace roofline::config_text {
namespace {

struct Entry {
    std::uint64_t hash;
    std::string text;
    std::shared_ptr<const ModelSpec> model;
};

/// Most recently used first. A linear scan of at most kCapacity hashes: cheaper than the text's hash.
struct Cache {
    std::mutex mutex;
    std::list<Entry> entries;
};

Cache& cache() {
    static Cache c;
    return c;
}

/// The cached model of the text, moved to the front; nullptr when none. The caller holds the mutex.
std::shared_ptr<const ModelSpec> find(Cache& c, std::uint64_t h, std::string_view text) {
    for (auto it = c.entries.begin(); it != c.entries.end(); ++it)
        if (it->hash == h && it->text == text) {
            if (it != c.entries.begin()) c.entries.splice(c.entries.begin(), c.entries, it);
            return it->model;
        }
    return nullptr;
}

/// The text with what a spreadsheet's AutoCorrect puts in place of ASCII as it is typed into a cell: typographic
/// double quotes (“ ” „ ‟ ″ « ») as '"', single ones (‘ ’ ‚ ′) as '\'', no-break spaces (U+00A0, U+202F) as ' '.
std::string with_ascii_punctuation(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto at = [&](std::size_t k) { return static_cast<unsigned char>(i + k < text.size() ? text[i + k] : 0); };
        if (at(0) == 0xE2 && at(1) == 0x80) {
            const unsigned char c = at(2);
            if (c == 0x9C || c == 0x9D || c == 0x9E || c == 0x9F || c == 0xB3) { out += '"'; i += 2; continue; }
            if (c == 0x98 || c == 0x99 || c == 0x9A || c == 0xB2) { out += '\''; i += 2; continue; }
            if (c == 0xAF) { out += ' '; i += 2; continue; }
        }
        if (at(0) == 0xC2 && (at(1) == 0xAB || at(1) == 0xBB)) { out += '"'; ++i; continue; }
        if (at(0) == 0xC2 && at(1) == 0xA0) { out += ' '; ++i; continue; }
        out += text[i];
    }
    return out;
}

}  // namespace

bool is_config(std::string_view text) noexcept {
    for (char ch : text) {
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n') continue;
        return ch == '{';
    }
    return false;
}

std::uint64_t hash(std::string_view text) noexcept {
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char ch : text) {
        h ^= ch;
        h *= 1099511628211ull;
    }
    return h;
}

std::string id_of(std::string_view text) { return fmt::format("config:{:08x}", hash(text) >> 32); }

std::shared_ptr<const ModelSpec> model(std::string_view text, const std::string& argument) {
    if (text.size() > kMaxBytes)
        throw Error::of_argument(Status::invalid_argument, "", argument,
                                 fmt::format("a config.json text must be at most {} bytes (got {})", kMaxBytes,
                                             text.size()));
    const std::uint64_t h = hash(text);
    Cache& c = cache();
    {
        std::lock_guard lock(c.mutex);
        if (auto m = find(c, h, text)) return m;
    }
    // Read outside the lock: other threads read their own texts meanwhile. Throws for a refused text. A text typed
    // into a cell has AutoCorrect's quotes (“{” for "{"): where the text as it is does not read, it is read again
    // with ASCII quotes and spaces (a text that reads as it is keeps its typographic quotes, inside its strings).
    std::shared_ptr<const ModelSpec> read;
    try {
        read = std::make_shared<const ModelSpec>(model_from_hf_config(text, id_of(text), argument));
    } catch (const Error&) {
        const std::string plain = with_ascii_punctuation(text);
        if (plain == text) throw;
        read = std::make_shared<const ModelSpec>(model_from_hf_config(plain, id_of(text), argument));
    }
    std::lock_guard lock(c.mutex);
    if (auto m = find(c, h, text)) return m;  // another thread read the same text first: one entry
    c.entries.push_front(Entry{h, std::string(text), read});
    if (c.entries.size() > kCapacity) c.entries.pop_back();
    return read;
}

std::size_t cached() {
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    return c.entries.size();
}

void clear() {
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    c.entries.clear();
}

}  // namespace roofline::config_text
