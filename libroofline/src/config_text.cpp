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
    // Read outside the lock: other threads read their own texts meanwhile. Throws for a refused text.
    auto read = std::make_shared<const ModelSpec>(model_from_hf_config(text, id_of(text), argument));
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
